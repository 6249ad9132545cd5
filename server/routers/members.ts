import { z } from "zod";
import { addMemberInput } from "../../contracts/accounts";
import { roleSchema } from "../../contracts/roles";
import { addMember } from "../services/auth/accounts";
import { changeRole, listMembers, removeMember } from "../services/projects";
import { projectProcedure, router } from "../trpc/init";

const memberRef = z.object({ userId: z.uuid() });

export const membersRouter = router({
  list: projectProcedure("viewer").query(({ ctx }) => listMembers(ctx.project.id)),
  /** Adds a member; a new account gets a one-time password, shown once to the owner. */
  add: projectProcedure("owner")
    .input(addMemberInput)
    .mutation(({ ctx, input }) => addMember(ctx.project.id, input.email, input.role)),
  changeRole: projectProcedure("owner")
    .input(memberRef.extend({ role: roleSchema }))
    .mutation(async ({ ctx, input }) => {
      await changeRole(ctx.project.id, input.userId, input.role);
      return { ok: true };
    }),
  remove: projectProcedure("owner")
    .input(memberRef)
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx.project.id, input.userId);
      return { ok: true };
    }),
});

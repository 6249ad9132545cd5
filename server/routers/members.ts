import { z } from "zod";
import { addMemberInput, emailSchema } from "../../contracts/accounts";
import { roleSchema } from "../../contracts/roles";
import { acceptInvitation, declineInvitation, invitationsFor, inviteMember, listInvitations, revokeInvitation } from "../services/auth/invitations";
import { changeRole, listMembers, removeMember } from "../services/projects";
import { invitationProcedure, projectProcedure, router, userProcedure } from "../trpc/init";

const memberRef = z.object({ userId: z.uuid() });

export const membersRouter = router({
  list: projectProcedure("viewer").query(({ ctx }) => listMembers(ctx.project.id)),
  /**
   * Invites an email: the same answer whether or not it has an account (a one-time password
   * that is the first password of a new account and opens nothing otherwise). The membership
   * exists once the invitee accepts.
   */
  add: projectProcedure("owner")
    .input(addMemberInput)
    .mutation(({ ctx, input }) => inviteMember(ctx.project.id, input.email, input.role)),
  invitations: projectProcedure("owner").query(({ ctx }) => listInvitations(ctx.project.id)),
  revokeInvitation: projectProcedure("owner")
    .input(z.object({ email: emailSchema }))
    .mutation(async ({ ctx, input }) => {
      await revokeInvitation(ctx.project.id, input.email);
      return { ok: true };
    }),
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

  /** The signed-in user's pending invitations (any project). */
  myInvitations: userProcedure.query(async ({ ctx }) =>
    (await invitationsFor(ctx.user.email)).map((i) => ({ project: i.project, role: i.role, invitedAt: i.createdAt })),
  ),
  accept: invitationProcedure.mutation(({ ctx }) => acceptInvitation(ctx.user.id, ctx.invitation)),
  decline: invitationProcedure.mutation(async ({ ctx }) => {
    await declineInvitation(ctx.invitation);
    return { ok: true };
  }),
});

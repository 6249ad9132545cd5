import { z } from "zod";
import { addMemberInput, emailSchema, invitationInput } from "../../contracts/accounts";
import { roleSchema } from "../../contracts/roles";
import { acceptInvitation, declineInvitation, invitationByToken, inviteMember, listInvitations, revokeInvitation } from "../services/auth/invitations";
import { changeRole, listMembers, removeMember } from "../services/projects";
import { projectProcedure, publicProcedure, router, userProcedure } from "../trpc/init";

const memberRef = z.object({ userId: z.uuid() });

export const membersRouter = router({
  list: projectProcedure("viewer").query(({ ctx }) => listMembers(ctx.project.id)),
  /**
   * Invites an email: the answer is a link with a secret for the owner to hand over (the same
   * whether or not the address has an account). Whoever opens it joins by accepting; an account
   * that merely has the address gets nothing.
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

  /** What an invitation link opens (project, role, expiry), for its page; anyone with the link may look. */
  invitation: publicProcedure.input(invitationInput).query(async ({ input }) => {
    const { project, role, email, expiresAt } = await invitationByToken(input.token);
    return { project, role, email, expiresAt };
  }),
  /** Joins the project as the signed-in user: needs the link's secret, whatever the user's address. */
  accept: userProcedure.input(invitationInput).mutation(({ ctx, input }) => acceptInvitation(ctx.user.id, input.token)),
  decline: userProcedure.input(invitationInput).mutation(async ({ input }) => {
    await declineInvitation(input.token);
    return { ok: true };
  }),
});

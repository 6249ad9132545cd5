import { acceptAsNewAccountInput, changePasswordInput, setupInput, signInInput } from "../../contracts/accounts";
import { changePassword, setupFirstAdmin, signIn, userCount } from "../services/auth/accounts";
import { acceptAsNewAccount } from "../services/auth/invitations";
import { createSession, deleteSession, readCookie, SESSION_COOKIE, sessionCookie, userForSession } from "../services/auth/sessions";
import { publicProcedure, router, sessionProcedure, type Context } from "../trpc/init";

async function startSession(ctx: Context, userId: string) {
  const { token, expiresAt } = await createSession(userId);
  ctx.resHeaders.append("Set-Cookie", sessionCookie(token, { secure: ctx.secure, expiresAt }));
}

export const authRouter = router({
  /** Whether Toolgate still needs its first admin, and who is signed in. */
  status: publicProcedure.query(async ({ ctx }) => ({
    needsSetup: (await userCount()) === 0,
    user: await userForSession(readCookie(ctx.headers.get("cookie"), SESSION_COOKIE)),
  })),

  setup: publicProcedure.input(setupInput).mutation(async ({ ctx, input }) => {
    const { user, project } = await setupFirstAdmin(input);
    await startSession(ctx, user.id);
    return { project: project.slug };
  }),

  signIn: publicProcedure.input(signInInput).mutation(async ({ ctx, input }) => {
    const userId = await signIn(input.email, input.password, ctx.address);
    await startSession(ctx, userId);
    return { ok: true };
  }),

  /** A new account for whoever holds an invitation link, signed in and a member of its project. */
  acceptInvitationAsNewAccount: publicProcedure.input(acceptAsNewAccountInput).mutation(async ({ ctx, input }) => {
    const { userId, project, role } = await acceptAsNewAccount(input);
    await startSession(ctx, userId);
    return { project, role };
  }),

  signOut: publicProcedure.mutation(async ({ ctx }) => {
    const token = readCookie(ctx.headers.get("cookie"), SESSION_COOKIE);
    if (token) await deleteSession(token);
    ctx.resHeaders.append("Set-Cookie", sessionCookie(null, { secure: ctx.secure }));
    return { ok: true };
  }),

  changePassword: sessionProcedure.input(changePasswordInput).mutation(async ({ ctx, input }) => {
    await changePassword(ctx.user.id, input.current, input.next, readCookie(ctx.headers.get("cookie"), SESSION_COOKIE));
    return { ok: true };
  }),
});

import "server-only";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { projectSlugSchema } from "../contracts/roles";
import { safeNextPath } from "../isomorphic/next-path";
import { readTimeZoneCookie, TIME_ZONE_COOKIE, type TimeZoneSetting } from "../isomorphic/time-zone";
import { publicOrigin } from "./services/origins";
import { userCount } from "./services/auth/accounts";
import type { SessionUser } from "./services/auth/sessions";
import { contextMembership, contextUser, createContext } from "./trpc/init";
import { createCaller } from "./routers/root";

export { findByRouteId } from "./trpc/route-id";

/**
 * Session helpers for server components. Every page except /setup and /login goes
 * through requireUser() or requireProject(); the tRPC procedures check again anyway.
 */

/** Set by proxy.ts on page requests: the path (and query) being rendered, for ?next=. */
const PATH_HEADER = "x-toolgate-path";

/** This request's tRPC context (cookie, forwarded address), one per request: it keeps the session and membership reads (Context.authReads). */
const pageContext = cache(async () => createContext({ headers: new Headers(await headers()), shareAuth: true }));

/**
 * A tRPC caller with this request's context: its queries read the session and membership once, and not at all after
 * requireProject (which reads them through the same context). One per request: the layout's query (the sidebar's
 * projects) and the page's share it.
 */
export const pageCaller = cache(async () => createCaller(await pageContext()));

const sessionUser = cache(async (): Promise<SessionUser | null> => contextUser(await pageContext()));

/** The zone pages show times in (Settings: UTC or local time), from its cookie: UTC unless chosen. */
export const pageTimeZone = cache(async (): Promise<TimeZoneSetting> => readTimeZoneCookie((await cookies()).get(TIME_ZONE_COOKIE)?.value));

/** For /setup and /login: whether the first admin is still missing, and who is signed in. */
export async function sessionState() {
  const user = await sessionUser();
  return { user, needsSetup: user ? false : (await userCount()) === 0 };
}

async function loginRedirect(): Promise<never> {
  const path = safeNextPath((await headers()).get(PATH_HEADER));
  redirect(path === "/" ? "/login" : `/login?next=${encodeURIComponent(path)}`);
}

/** The signed-in user, even one who must still choose a password (only /account/password uses this). */
export const requireSession = cache(async (): Promise<SessionUser> => {
  const user = await sessionUser();
  if (user) return user;
  if ((await userCount()) === 0) redirect("/setup");
  return loginRedirect();
});

/** The signed-in user; sends to /setup, /login?next=… or /account/password as needed. */
export const requireUser = cache(async (): Promise<SessionUser> => {
  const user = await requireSession();
  if (user.mustChangePassword) redirect("/account/password");
  return user;
});

/** The project with the signed-in user's role in it; a 404 for non-members (no hint that it exists). */
export const requireProject = cache(async (slug: string) => {
  const user = await requireUser();
  if (!projectSlugSchema.safeParse(slug).success) notFound();
  const member = await contextMembership(await pageContext(), user.id, slug);
  if (!member) notFound();
  return { user, project: member.project, role: member.role };
});

/** The origin harnesses should call: TOOLGATE_PUBLIC_URL, else what this request came to. */
export async function pageOrigin() {
  return publicOrigin(new Headers(await headers()));
}

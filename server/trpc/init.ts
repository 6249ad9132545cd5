import { initTRPC, TRPCError } from "@trpc/server";
import { z, ZodError } from "zod";
import type { ApiKeyScope } from "../../contracts/accounts";
import { describeIssues, issueLine } from "../../contracts/issues";
import { hasRole, projectSlugSchema, type Role } from "../../contracts/roles";
import { requestOrigin } from "../domain/forwarded";
import { clientAddress } from "../domain/throttle";
import { env } from "../env";
import { apiKeyWithinRate } from "../services/auth/api-key-rate";
import { checkKeyScope, type KeyProject } from "../services/auth/api-keys";
import { readCookie, SESSION_COOKIE, userForSession } from "../services/auth/sessions";
import { membership } from "../services/projects";
import { domainCause, logUnavailable, toTRPCError } from "./errors";

/** What every procedure sees: the request's headers, and headers to add to the answer. */
export type Context = {
  headers: Headers;
  resHeaders: Headers;
  secure: boolean;
  address: string;
  /**
   * The request's API key (of its own `Authorization` header), already checked and counted against
   * the rate limits: an HTTP request that makes several procedure calls (/api/mcp) is one request
   * for the limits. Set by server code only, never from the request.
   */
  checkedApiKey?: KeyProject;
  /**
   * A page's render only (server/page-session.ts pageCaller, `shareAuth`): its queries, a dozen
   * side by side on the tool page, read the session and the membership once instead of once
   * each (four statements a query). A mutation reads both afresh and forgets what was kept.
   */
  authReads?: Map<string, Promise<unknown>>;
};

/** `trustedProxies` defaults to TOOLGATE_TRUST_PROXY (see clientAddress). */
export function createContext(opts: {
  headers: Headers;
  resHeaders?: Headers;
  url?: string;
  trustedProxies?: number;
  checkedApiKey?: KeyProject;
  shareAuth?: boolean;
}): Context {
  const trustedProxies = opts.trustedProxies ?? env().TOOLGATE_TRUST_PROXY;
  const secure = requestOrigin(opts.headers, trustedProxies).proto === "https" || env().TOOLGATE_PUBLIC_URL?.startsWith("https:") === true;
  const address = clientAddress(opts.headers.get("x-forwarded-for"), trustedProxies);
  return {
    headers: opts.headers,
    resHeaders: opts.resHeaders ?? new Headers(),
    secure,
    address,
    ...(opts.checkedApiKey ? { checkedApiKey: opts.checkedApiKey } : {}),
    ...(opts.shareAuth ? { authReads: new Map() } : {}),
  };
}

type CallType = "query" | "mutation" | "subscription";

/** `read()`, or what a query of the same context already read under `key` (Context.authReads). */
function sharedAuthRead<T>(ctx: Context, type: CallType, key: string, read: () => Promise<T>): Promise<T> {
  const kept = ctx.authReads;
  if (!kept) return read();
  if (type !== "query") {
    kept.clear();
    return read();
  }
  if (!kept.has(key)) {
    const reading = read();
    kept.set(key, reading);
    reading.catch(() => kept.delete(key));
  }
  return kept.get(key) as Promise<T>;
}

/** The signed-in user of the context's session cookie, or null; a page's render reads it once (with requireProject's, server/page-session.ts). */
export const contextUser = (ctx: Context, type: CallType = "query") =>
  sharedAuthRead(ctx, type, "session", () => userForSession(readCookie(ctx.headers.get("cookie"), SESSION_COOKIE)));

/** The user's membership of the project (slug) with the project, or null; kept per user and project as the session is. */
export const contextMembership = (ctx: Context, userId: string, slug: string, type: CallType = "query") =>
  sharedAuthRead(ctx, type, `member\t${userId}\t${slug}`, () => membership(userId, slug));

// No transformer: the wire is plain JSON so that any language can call it with curl.
/** What a procedure declares about itself: the scope of API key it takes (apiKeyProcedure), read by the OpenAPI document and its tests. */
export type ProcedureMeta = { apiKeyScope?: ApiKeyScope | "any" };

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      if (error.code === "INTERNAL_SERVER_ERROR") {
        return { ...shape, message: "Internal server error: the details are in the server log.", data: { ...shape.data, stack: undefined } };
      }
      if (error.cause instanceof ZodError) {
        const issues = describeIssues(error.cause);
        const message = `Invalid input: ${issues.map(issueLine).join("; ")}`;
        return { ...shape, message, data: { ...shape.data, issues, stack: undefined } };
      }
      return { ...shape, data: { ...shape.data, stack: undefined } };
    },
  });

/**
 * The one place where domain errors become HTTP answers (a lost database connection is
 * one: 503 with Retry-After, see server/db/unavailable.ts); other errors are logged.
 */
const mapErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (result.ok) return result;
  const mapped = toTRPCError(result.error);
  const domain = domainCause(mapped);
  if (domain?.kind === "unavailable") logUnavailable(`[trpc] ${path}`, result.error.cause);
  if (domain?.retryAfterSeconds) ctx.resHeaders.set("Retry-After", String(domain.retryAfterSeconds));
  if (domain) throw mapped;
  if (result.error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path}:`, result.error.cause ?? result.error);
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(mapErrors);

/** Signed in, possibly still with the one-time password the ops CLI gave the account: only for choosing one's own. */
export const sessionProcedure = publicProcedure.use(async ({ ctx, type, next }) => {
  const user = await contextUser(ctx, type);
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first: no valid session." });
  return next({ ctx: { user } });
});

/** Signed in with a password of one's own (the pages send invited users to /account/password too). */
export const userProcedure = sessionProcedure.use(({ ctx, next }) => {
  if (ctx.user.mustChangePassword) {
    throw new TRPCError({
      code: "FORBIDDEN",
      message: "This account still has the temporary password it was created with: choose your own at /account/password first.",
    });
  }
  return next();
});

/** Signed in and a member of the input's `project` (slug) with at least `minRole`. */
export const projectProcedure = (minRole: Role) =>
  userProcedure.input(z.object({ project: projectSlugSchema })).use(async ({ ctx, input, type, next }) => {
    const member = await contextMembership(ctx, ctx.user.id, input.project, type);
    if (!member) throw new TRPCError({ code: "FORBIDDEN", message: `You are not a member of project "${input.project}".` });
    if (!hasRole(member.role, minRole)) {
      throw new TRPCError({
        code: "FORBIDDEN",
        message: `This needs the ${minRole} role in "${input.project}"; you are ${member.role}.`,
      });
    }
    return next({ ctx: { project: member.project, role: member.role } });
  });

/**
 * Harness calls: the project comes from `Authorization: Bearer <key>`, checked before the
 * input is read. An optional `project` in the input must name the key's own project.
 */
const anyApiKeyProcedure = publicProcedure
  .use(async ({ ctx, next }) => {
    const key = ctx.checkedApiKey ?? (await apiKeyWithinRate(ctx.headers.get("authorization")));
    return next({ ctx: { project: { id: key.projectId, slug: key.projectSlug }, apiKeyId: key.keyId, apiKey: key } });
  })
  .input(z.object({ project: projectSlugSchema.optional() }).optional())
  .use(async ({ ctx, input, next }) => {
    if (input?.project && input.project !== ctx.project.slug) {
      throw new TRPCError({ code: "FORBIDDEN", message: `This API key belongs to another project than "${input.project}".` });
    }
    return next();
  });

/** Harness calls need an `ingest` key, figures for automation a `read` key; "any" (whoami) takes both. */
export const apiKeyProcedure = (scope: ApiKeyScope | "any") =>
  anyApiKeyProcedure.meta({ apiKeyScope: scope }).use(({ ctx, next }) => {
    if (scope !== "any") checkKeyScope(ctx.apiKey, scope);
    return next();
  });

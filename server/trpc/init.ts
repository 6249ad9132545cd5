import { initTRPC, TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { z, ZodError } from "zod";
import type { ApiKeyScope } from "../../contracts/accounts";
import { describeIssues, issueLine } from "../../contracts/issues";
import { hasRole, projectSlugSchema, type Role } from "../../contracts/roles";
import { asDomainError, DomainError, type DomainErrorKind } from "../domain/errors";
import { apiKeyPolicy, clientAddress } from "../domain/throttle";
import { env } from "../env";
import { checkKeyScope, projectForApiKey, type KeyProject } from "../services/auth/api-keys";
import { invitationFor } from "../services/auth/invitations";
import { takeTokens } from "../services/rate-limits";
import { readCookie, SESSION_COOKIE, userForSession } from "../services/auth/sessions";
import { membership } from "../services/projects";

/** What every procedure sees: the request's headers, and headers to add to the answer. */
export type Context = { headers: Headers; resHeaders: Headers; secure: boolean; address: string };

/** `trustedProxies` defaults to TOOLGATE_TRUST_PROXY (see clientAddress). */
export function createContext(opts: { headers: Headers; resHeaders?: Headers; url?: string; trustedProxies?: number }): Context {
  const proto = opts.headers.get("x-forwarded-proto") ?? (opts.url ? new URL(opts.url).protocol.replace(":", "") : "http");
  const address = clientAddress(opts.headers.get("x-forwarded-for"), opts.trustedProxies ?? env().TOOLGATE_TRUST_PROXY);
  return { headers: opts.headers, resHeaders: opts.resHeaders ?? new Headers(), secure: proto === "https", address };
}

// No transformer: the wire is plain JSON so that any language can call it with curl.
const t = initTRPC.context<Context>().create({
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

const codes: Record<DomainErrorKind, TRPCError["code"]> = {
  invalid: "BAD_REQUEST",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  rate_limited: "TOO_MANY_REQUESTS",
  too_large: "PAYLOAD_TOO_LARGE",
  unavailable: "SERVICE_UNAVAILABLE",
};

const lastLine = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .trim()
    .split("\n")
    .pop();

/** `error` as the TRPCError the API answers with (domain errors and a lost database mapped), or undefined for a bug. */
function toTRPCError(error: unknown): TRPCError | undefined {
  const cause = error instanceof TRPCError && error.code === "INTERNAL_SERVER_ERROR" ? (error.cause ?? error) : error;
  const domain = asDomainError(cause);
  if (domain) return new TRPCError({ code: codes[domain.kind], message: domain.message, cause: domain });
  return error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR" ? error : undefined;
}

/**
 * The one place where domain errors become HTTP answers (a lost database connection is
 * one: 503 with Retry-After, see server/domain/errors.ts); other errors are logged.
 */
const mapErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (result.ok) return result;
  const mapped = toTRPCError(result.error);
  const domain = mapped?.cause instanceof DomainError ? mapped.cause : undefined;
  if (domain?.kind === "unavailable") console.error(`[trpc] ${path}: database unavailable: ${lastLine(result.error.cause)}`);
  if (domain?.retryAfterSeconds) ctx.resHeaders.set("Retry-After", String(domain.retryAfterSeconds));
  if (domain) throw mapped;
  if (result.error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path}:`, result.error.cause ?? result.error);
  return result;
});

/**
 * The same mapping for plain HTTP routes beside tRPC (the CSV export, raw downloads): a JSON
 * answer `{ error }` with the status and Retry-After that tRPC would give.
 */
export function errorResponse(error: unknown, route: string): Response {
  const mapped = toTRPCError(error);
  if (!mapped) {
    console.error(`[http] ${route}:`, error);
    return Response.json({ error: "Internal server error: the details are in the server log." }, { status: 500 });
  }
  const domain = mapped.cause instanceof DomainError ? mapped.cause : undefined;
  if (domain?.kind === "unavailable") console.error(`[http] ${route}: database unavailable: ${lastLine(error instanceof TRPCError ? error.cause : error)}`);
  const headers: Record<string, string> = domain?.retryAfterSeconds ? { "Retry-After": String(domain.retryAfterSeconds) } : {};
  return Response.json({ error: mapped.message }, { status: getHTTPStatusCodeFromError(mapped), headers });
}

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

export const publicProcedure = t.procedure.use(mapErrors);

/** Signed in, possibly still with the temporary password of an invitation: only for choosing one's own. */
export const sessionProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const user = await userForSession(readCookie(ctx.headers.get("cookie"), SESSION_COOKIE));
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first: no valid session." });
  return next({ ctx: { user } });
});

/** Signed in with a password of one's own (the pages send invited users to /account/password too). */
export const userProcedure = sessionProcedure.use(({ ctx, next }) => {
  if (ctx.user.mustChangePassword) {
    throw new TRPCError({
      code: "FORBIDDEN",
      message: "This account still has the temporary password it was invited with: choose your own at /account/password first.",
    });
  }
  return next();
});

/** Signed in and a member of the input's `project` (slug) with at least `minRole`. */
export const projectProcedure = (minRole: Role) =>
  userProcedure.input(z.object({ project: projectSlugSchema })).use(async ({ ctx, input, next }) => {
    const member = await membership(ctx.user.id, input.project);
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
 * Signed in, with a pending invitation into the input's `project` for the user's own email:
 * for accepting or declining it (the user is not a member yet).
 */
export const invitationProcedure = userProcedure.input(z.object({ project: projectSlugSchema })).use(async ({ ctx, input, next }) => {
  const invitation = await invitationFor(ctx.user.email, input.project);
  if (!invitation) {
    throw new TRPCError({ code: "NOT_FOUND", message: `No pending invitation into project "${input.project}" for ${ctx.user.email}.` });
  }
  return next({ ctx: { invitation } });
});

/**
 * The key's project, once its request fits the per-key and the per-project rate limits (a
 * rate_limited DomainError with the seconds to wait otherwise): more keys do not buy a
 * project more requests. Every API-key entry point goes through it: the tRPC harness
 * procedures and the OTLP endpoint.
 */
export async function apiKeyWithinRate(authorization: string | null): Promise<KeyProject> {
  const key = await projectForApiKey(authorization);
  // in PostgreSQL, so that every app instance counts against the same buckets
  const { TOOLGATE_API_RATE_PER_MINUTE: perKey, TOOLGATE_PROJECT_RATE_PER_MINUTE: perProject } = env();
  const keyBucket = `api-key:${key.keyId}`;
  const projectBucket = `project:${key.projectId}`;
  const taken = await takeTokens({ [keyBucket]: apiKeyPolicy(perKey), [projectBucket]: apiKeyPolicy(perProject) });
  const refused = taken.find((t) => !t.allowed);
  if (refused) {
    const [limit, variable] =
      refused.key === projectBucket
        ? [`of ${perProject} requests a minute for all API keys of project "${key.projectSlug}" together`, "TOOLGATE_PROJECT_RATE_PER_MINUTE"]
        : [`of ${perKey} requests a minute for this API key`, "TOOLGATE_API_RATE_PER_MINUTE"];
    throw new DomainError(
      "rate_limited",
      `Rate limit ${limit} exceeded: retry after ${refused.retryAfterSeconds} s (or batch more events per request; the operator sets the limit with ${variable}).`,
      refused.retryAfterSeconds,
    );
  }
  return key;
}

/**
 * Harness calls: the project comes from `Authorization: Bearer <key>`, checked before the
 * input is read. An optional `project` in the input must name the key's own project.
 */
const anyApiKeyProcedure = publicProcedure
  .use(async ({ ctx, next }) => {
    const key = await apiKeyWithinRate(ctx.headers.get("authorization"));
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
  anyApiKeyProcedure.use(({ ctx, next }) => {
    if (scope !== "any") checkKeyScope(ctx.apiKey, scope);
    return next();
  });

import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { domainCause, logUnavailable, toTRPCError } from "../trpc/errors";

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
  const domain = domainCause(mapped);
  if (domain?.kind === "unavailable") logUnavailable(`[http] ${route}`, error instanceof TRPCError ? error.cause : error);
  const headers: Record<string, string> = domain?.retryAfterSeconds ? { "Retry-After": String(domain.retryAfterSeconds) } : {};
  return Response.json({ error: mapped.message }, { status: getHTTPStatusCodeFromError(mapped), headers });
}

import { TRPCError } from "@trpc/server";
import { DomainError, type DomainErrorKind } from "../domain/errors";
import { asDomainError, isClientGone, lastLine } from "../db/unavailable";

// The one place where domain errors become API answers: tRPC's middleware (server/trpc/init.ts)
// and the plain HTTP routes (server/http/error-response.ts) both map through toTRPCError.

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

/** `error` as the TRPCError the API answers with (domain errors and a lost database mapped), or undefined for a bug. */
export function toTRPCError(error: unknown): TRPCError | undefined {
  const cause = error instanceof TRPCError && error.code === "INTERNAL_SERVER_ERROR" ? (error.cause ?? error) : error;
  const domain = asDomainError(cause);
  if (domain) return new TRPCError({ code: codes[domain.kind], message: domain.message, cause: domain });
  return error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR" ? error : undefined;
}

/**
 * The one log line of a request the database did not answer (tRPC and the plain HTTP routes):
 * an outage says so; a statement cancelled because the client closed the connection (an
 * aborted request) says that instead, and is the only line an aborted request logs.
 */
export function logUnavailable(where: string, cause: unknown) {
  console.error(
    isClientGone(cause)
      ? `${where}: the client closed the connection before the answer; its statement was cancelled in PostgreSQL.`
      : `${where}: database unavailable: ${lastLine(cause)}`,
  );
}

/** The DomainError behind a mapped error, if any (for its kind and Retry-After). */
export const domainCause = (mapped: TRPCError | undefined) => (mapped?.cause instanceof DomainError ? mapped.cause : undefined);

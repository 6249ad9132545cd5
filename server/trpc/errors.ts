import { TRPCError } from "@trpc/server";
import { DOMAIN_ERROR_STATUS, DomainError } from "../domain/errors";
import { asDomainError, isClientGone, lastLine } from "../db/unavailable";

// Where domain errors become tRPC answers, by the one table (DOMAIN_ERROR_STATUS in
// server/domain/errors.ts): tRPC's middleware (server/trpc/init.ts) and the plain HTTP routes
// (server/http/error-response.ts) both map through toTRPCError; OTLP (server/http/otlp-export.ts) reads the table too.

/** `error` as the TRPCError the API answers with (domain errors and a lost database mapped), or undefined for a bug. */
export function toTRPCError(error: unknown): TRPCError | undefined {
  const cause = error instanceof TRPCError && error.code === "INTERNAL_SERVER_ERROR" ? (error.cause ?? error) : error;
  const domain = asDomainError(cause);
  if (domain) return new TRPCError({ code: DOMAIN_ERROR_STATUS[domain.kind].trpc, message: domain.message, cause: domain });
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

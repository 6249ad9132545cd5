import { TRPCError } from "@trpc/server";
import { DomainError, type DomainErrorKind } from "../domain/errors";
import { asDomainError } from "../db/unavailable";

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

/** The last line of an error's message (a lost database's driver errors are long). */
export const lastLine = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .trim()
    .split("\n")
    .pop();

/** `error` as the TRPCError the API answers with (domain errors and a lost database mapped), or undefined for a bug. */
export function toTRPCError(error: unknown): TRPCError | undefined {
  const cause = error instanceof TRPCError && error.code === "INTERNAL_SERVER_ERROR" ? (error.cause ?? error) : error;
  const domain = asDomainError(cause);
  if (domain) return new TRPCError({ code: codes[domain.kind], message: domain.message, cause: domain });
  return error instanceof TRPCError && error.code !== "INTERNAL_SERVER_ERROR" ? error : undefined;
}

/** The DomainError behind a mapped error, if any (for its kind and Retry-After). */
export const domainCause = (mapped: TRPCError | undefined) => (mapped?.cause instanceof DomainError ? mapped.cause : undefined);

/**
 * Errors that services raise on purpose. server/trpc/errors.ts maps them onto HTTP codes in
 * one place; anything else becomes a 500 without internals — except a lost database
 * connection, which server/db/unavailable.ts turns into an "unavailable" one (a 503).
 */
export type DomainErrorKind = "invalid" | "not_found" | "conflict" | "unauthorized" | "forbidden" | "rate_limited" | "too_large" | "unavailable";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** seconds a client should wait before retrying (rate_limited, unavailable) */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const invalid = (message: string) => new DomainError("invalid", message);
export const notFound = (message: string) => new DomainError("not_found", message);
export const conflict = (message: string) => new DomainError("conflict", message);

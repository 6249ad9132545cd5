/**
 * Errors that services raise on purpose. DOMAIN_ERROR_STATUS below maps them onto every entry
 * point's codes in one place; anything else becomes a 500 without internals — except a lost database
 * connection, which server/db/unavailable.ts turns into an "unavailable" one (a 503).
 */
export type DomainErrorKind = "invalid" | "not_found" | "conflict" | "unauthorized" | "forbidden" | "rate_limited" | "too_large" | "unavailable";

/**
 * What each kind answers on every entry point, in one table: the HTTP status (the plain routes,
 * OTLP/HTTP, and tRPC's own status for its code), the tRPC code (server/trpc/errors.ts) and the
 * google.rpc.Code of an OTLP Status (server/http/otlp-export.ts). errors.test.ts checks that every
 * kind maps everywhere and that tRPC gives the same HTTP status for its code.
 */
export const DOMAIN_ERROR_STATUS = {
  invalid: { http: 400, trpc: "BAD_REQUEST", grpc: 3 /* INVALID_ARGUMENT */ },
  not_found: { http: 404, trpc: "NOT_FOUND", grpc: 5 /* NOT_FOUND */ },
  conflict: { http: 409, trpc: "CONFLICT", grpc: 6 /* ALREADY_EXISTS */ },
  unauthorized: { http: 401, trpc: "UNAUTHORIZED", grpc: 16 /* UNAUTHENTICATED */ },
  forbidden: { http: 403, trpc: "FORBIDDEN", grpc: 7 /* PERMISSION_DENIED */ },
  rate_limited: { http: 429, trpc: "TOO_MANY_REQUESTS", grpc: 8 /* RESOURCE_EXHAUSTED */ },
  too_large: { http: 413, trpc: "PAYLOAD_TOO_LARGE", grpc: 8 /* RESOURCE_EXHAUSTED */ },
  unavailable: { http: 503, trpc: "SERVICE_UNAVAILABLE", grpc: 14 /* UNAVAILABLE */ },
} as const satisfies Record<DomainErrorKind, { http: number; trpc: string; grpc: number }>;

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

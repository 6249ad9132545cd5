import { DomainError } from "../domain/errors";

// What PostgreSQL's, node-postgres' and Prisma's errors say about the database being there.

/** How long a client should wait before retrying while the database is unreachable. */
const STORE_RETRY_AFTER_SECONDS = 5;

// Socket errors of node's net/dns modules while connecting or talking to PostgreSQL.
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ECONNABORTED"]);
// Prisma's codes for "cannot reach / timed out / connection closed / pool timeout".
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
// Kinds of @prisma/adapter-pg's DriverAdapterError that mean the connection, not the query.
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
// node-postgres errors without a code: pool checkout timeout, server gone mid-query.
const PG_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|Can't reach database server/i;

/**
 * SQLSTATE classes that mean "the server is not there for you right now": 08 connection
 * exception, 57P01-57P03 admin/crash shutdown and "cannot connect now" (starting up or
 * recovering), 53300 too many connections.
 */
const isUnavailableSqlState = (code: string) => /^08[0-9A-Z]{3}$/.test(code) || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300";

/** `error` and everything in its cause chain (causes, Prisma's driver adapter error, aggregated errors). */
function* causeChain(error: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length && seen.size < 20) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    yield e as Record<string, unknown>;
    const { cause, meta, errors } = e as { cause?: unknown; meta?: unknown; errors?: unknown };
    queue.push(cause, (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
    if (Array.isArray(errors)) queue.push(...errors);
  }
}

/**
 * True when `error` (or anything in its cause chain) says the database is unreachable
 * rather than that the request was wrong: the one place that classifies connection errors.
 */
export function isStoreUnavailable(error: unknown): boolean {
  for (const e of causeChain(error)) {
    const { code, kind, message } = e;
    if (typeof code === "string" && (SOCKET_CODES.has(code) || PRISMA_CODES.has(code) || isUnavailableSqlState(code))) return true;
    if (typeof kind === "string" && ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === "string" && PG_MESSAGES.test(message) && !(e instanceof DomainError)) return true;
  }
  return false;
}

/**
 * Which of the connection's own bounds cancelled the statement (server/db/client.ts): PostgreSQL's
 * 57014 with "statement timeout", or 55P03 (lock timeout), or a cancel sent because the
 * request's client went away (57014 "user request", server/db/cancel.ts); undefined otherwise. The
 * adapter under Prisma reports the SQLSTATE as `originalCode`.
 */
function timedOut(error: unknown): "statement" | "lock" | "cancelled" | undefined {
  for (const e of causeChain(error)) {
    const code = typeof e.originalCode === "string" ? e.originalCode : e.code;
    const message = String(e.originalMessage ?? e.message ?? "");
    if (code === "57014" && /statement timeout/.test(message)) return "statement";
    if (code === "55P03" && /lock timeout/.test(message)) return "lock";
    if (code === "57014" && /user request/.test(message)) return "cancelled"; // server/db/cancel.ts: the client went away
  }
  return undefined;
}

/** The last line of an error's message (a lost database's driver errors are long). */
export const lastLine = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .trim()
    .split("\n")
    .pop();

/** True when PostgreSQL cancelled the statement because the request's client went away (server/db/cancel.ts). */
export const isClientGone = (error: unknown) => timedOut(error) === "cancelled";

const TIMED_OUT_RETRY_AFTER_SECONDS = 5;

/** The 503 answer for a statement PostgreSQL cancelled at the connection's time bound (or for a client that went away). */
const timedOutError = (what: "statement" | "lock" | "cancelled") =>
  new DomainError(
    "unavailable",
    what === "cancelled"
      ? "This request was cancelled in the database because its client closed the connection; nothing of it was written."
      : what === "statement"
        ? `A database statement of this request ran longer than TOOLGATE_STATEMENT_TIMEOUT_MS and was cancelled, so nothing of it was written. Send less per request (a smaller batch, a shorter range) and retry after ${TIMED_OUT_RETRY_AFTER_SECONDS} s; the operator can raise the limit.`
        : `A database statement of this request waited longer than TOOLGATE_LOCK_TIMEOUT_MS for rows other requests were writing, and was cancelled, so nothing of it was written. Retry after ${TIMED_OUT_RETRY_AFTER_SECONDS} s (re-sending an ingest.batch is safe: events are deduplicated by id).`,
    TIMED_OUT_RETRY_AFTER_SECONDS,
  );

/** The 503 answer for a lost database: what happened and that a retry is the fix. */
const storeUnavailable = () =>
  new DomainError(
    "unavailable",
    `The event store (PostgreSQL) is unavailable right now, so this request could not be completed. Retry after ${STORE_RETRY_AFTER_SECONDS} s (re-sending an ingest.batch is safe: events are deduplicated by id); if it persists, check the server log and the database.`,
    STORE_RETRY_AFTER_SECONDS,
  );

/**
 * True when `error` is a unique constraint's refusal (SQLSTATE 23505): Prisma's P2002, the
 * adapter's UniqueConstraintViolation, or node-postgres' own error. The caller knows which
 * unique value it wrote and answers the conflict in its own words.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (const e of causeChain(error)) {
    if (e.code === "P2002" || e.code === "23505" || e.originalCode === "23505" || e.kind === "UniqueConstraintViolation") return true;
  }
  return false;
}

/** `error` as a DomainError when it is one, a statement cancelled at its time bound or a lost connection; otherwise undefined (a bug: 500). */
export function asDomainError(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  const bound = timedOut(error);
  if (bound) return timedOutError(bound);
  return isStoreUnavailable(error) ? storeUnavailable() : undefined;
}

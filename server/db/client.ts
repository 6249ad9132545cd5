import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "../env";
import { isStoreUnavailable, lastLine } from "./unavailable";
import { PrismaClient } from "./generated/client";

export type { Prisma } from "./generated/client";

type Db = { pool: pg.Pool; prisma: PrismaClient };

// One pool per process, shared by Prisma and the raw-SQL paths (bulk insert, rollups).
// Kept on globalThis so that Next.js dev reloads do not open a new pool each time.
const holder = globalThis as { toolgateDb?: Db };

function open(): Db {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: start Toolgate with `npm start`, which provides it.");
  // No parallel query plans: every query here reads an index range or a rollup (tens of
  // thousands of rows at most), where starting workers costs more than it saves; on a
  // two-core machine a parallel plan was 2-5x slower (docs/PERFORMANCE.md).
  // Every connection bounds its own work: a statement that runs (or waits for a lock) longer
  // than the configured time is cancelled by PostgreSQL itself, whoever issued it (Prisma,
  // raw SQL, pg-boss), so no request can hold a connection for ever (docs/limits.md).
  const { TOOLGATE_DB_POOL_SIZE, TOOLGATE_STATEMENT_TIMEOUT_MS, TOOLGATE_LOCK_TIMEOUT_MS } = env();
  const options = `-c max_parallel_workers_per_gather=0 -c statement_timeout=${TOOLGATE_STATEMENT_TIMEOUT_MS} -c lock_timeout=${TOOLGATE_LOCK_TIMEOUT_MS}`;
  const pool = new pg.Pool({ connectionString: url, max: TOOLGATE_DB_POOL_SIZE, connectionTimeoutMillis: 5_000, options });
  watchConnections(pool);
  return { pool, prisma: new PrismaClient({ adapter: new PrismaPg(pool) }) };
}

/**
 * Gives every connection of `pool` an error listener from the moment it opens, checked out or
 * idle. A connection PostgreSQL closes (the server stopping: 57P01, "Connection terminated
 * unexpectedly") emits an error; on a checked-out connection nobody listened, and node turned
 * it into an uncaughtException although the app rightly keeps running (it answers 503 until the
 * database is back). Now each such connection logs one line that says so; the query that was
 * running, if any, fails and is answered as usual.
 */
export function watchConnections(pool: pg.Pool) {
  pool.on("connect", (client) => {
    let logged = false; // PostgreSQL's "terminating connection" and then the closed socket: one line for both
    client.on("error", (error) => {
      if (logged) return;
      logged = true;
      console.error(
        isStoreUnavailable(error)
          ? `[db] a connection to PostgreSQL closed (${lastLine(error)}): expected while the database stops or restarts; requests answer 503 until it is back.`
          : `[db] connection error: ${lastLine(error)}`,
      );
    });
  });
  // the pool re-emits an idle connection's error: logged above already, but the pool must have a listener or it throws
  pool.on("error", () => {});
}

function db(): Db {
  holder.toolgateDb ??= open();
  return holder.toolgateDb;
}

export const prisma = () => db().prisma;
export const pool = () => db().pool;

/** Closes this process's pool, when it has one (before stopping an embedded server: see stopWhenUnused). */
export async function closeDatabase() {
  const open = holder.toolgateDb;
  holder.toolgateDb = undefined;
  await open?.pool.end();
}

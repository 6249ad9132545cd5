import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { env } from "../env";
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
  pool.on("error", (error) => console.error("[db] idle client error:", error.message));
  return { pool, prisma: new PrismaClient({ adapter: new PrismaPg(pool) }) };
}

function db(): Db {
  holder.toolgateDb ??= open();
  return holder.toolgateDb;
}

export const prisma = () => db().prisma;
export const pool = () => db().pool;

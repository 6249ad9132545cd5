import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { expect, it, vi } from "vitest";
import { startOwnPostgres } from "../../test/own-postgres";
import { watchConnections } from "./client";

// PostgreSQL stopping closes every connection. A connection the app had checked out (a
// transaction, a COPY of the CSV export) emitted an error nobody listened to: Next.js logged
// `uncaughtException: Connection terminated` though the app rightly keeps running.
it("PostgreSQL stopping logs each connection as an expected disconnect, one line each, and throws nothing uncaught", async () => {
  const { dir, server } = await startOwnPostgres("disconnect");
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  process.on("uncaughtException", onUncaught);
  const logged: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  const pool = new pg.Pool({ connectionString: server.url("postgres"), max: 3 });
  watchConnections(pool);
  let held: pg.PoolClient | undefined;
  try {
    held = await pool.connect(); // checked out, as a transaction holds it
    const idle = await pool.connect();
    idle.release(); // idle in the pool
    await held.query("BEGIN");
    // a fast shutdown (what `pg_ctl stop`, systemd and the embedded server's own stop send): sessions are terminated
    const postmaster = Number((await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
    process.kill(postmaster, "SIGINT");
    for (let i = 0; i < 50 && logged.length < 2; i++) await sleep(100);
    await sleep(200); // anything more it would log
    expect(uncaught).toEqual([]);
    expect(logged).toHaveLength(2);
    for (const line of logged)
      expect(line).toMatch(
        /^\[db\] a connection to PostgreSQL closed \(.+\): expected while the database stops or restarts; requests answer 503 until it is back\.$/,
      );
  } finally {
    held?.release(true);
    spy.mockRestore();
    process.off("uncaughtException", onUncaught);
    await pool.end().catch(() => {});
    await Promise.race([server.stop().catch(() => {}), sleep(5_000)]);
    await rm(dir, { recursive: true, force: true });
  }
});

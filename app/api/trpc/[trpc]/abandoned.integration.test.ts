import { expect, it, vi } from "vitest";
import { pool } from "@/server/db/client";
import { makeProject } from "@/test/fixtures";
import { makeEvent } from "@/test/events";
import { httpAppForTests } from "@/test/http-app";

// A harness that gives up on a request (the SDK's timeout) must not leave its batch working
// in PostgreSQL: the route hands the request's signal to server/db/cancel.ts, which cancels
// the running statement. Here the batch waits for a rollup row another transaction holds, so
// it would wait for as long as that transaction lasts unless it is cancelled.
process.env.TOOLGATE_LOCK_TIMEOUT_MS = "0";
// and no statement timeout within the test's 30 s: only the cancel can end the wait
process.env.TOOLGATE_STATEMENT_TIMEOUT_MS = "120000";

const server = httpAppForTests();

/** Whether a statement is waiting for a lock that `holderPid` holds. */
const blockedBy = async (holderPid: number) =>
  (await pool().query("SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [holderPid])).rows.length > 0;

it("an ingest.batch whose client went away is cancelled in PostgreSQL, not left waiting", async () => {
  const p = await makeProject();
  const { key } = await p.key();
  const post = (events: unknown[], signal?: AbortSignal) =>
    fetch(`${server.app.url}/api/trpc/ingest.batch`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ events }),
      signal,
    });
  const timestamp = new Date(Date.UTC(2026, 10, 30, 9, 5)).toISOString();
  expect((await post([makeEvent({ timestamp })])).status).toBe(200);

  const holder = await pool().connect();
  try {
    await holder.query("BEGIN");
    await holder.query("UPDATE call_rollups_hourly SET calls = calls WHERE project_id = $1", [p.project.id]);
    const holderPid = (holder as unknown as { processID: number }).processID;
    const logged: string[] = []; // what the server logs for the abandoned request
    for (const level of ["error", "warn", "log", "info"] as const)
      vi.spyOn(console, level).mockImplementation(
        (...args: unknown[]) => void logged.push(`${level}: ${args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(" ")}`),
      );
    const client = new AbortController();
    const abandoned = post([makeEvent({ timestamp })], client.signal).catch((e: Error) => e);
    while (!(await blockedBy(holderPid))) await new Promise((r) => setTimeout(r, 50));
    client.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    // the lock is still held: only a cancel ends the wait
    while (await blockedBy(holderPid)) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500)); // whatever the abandoned request still logs
    vi.restoreAllMocks();
    // one line, saying what happened: the client left (not "database unavailable")
    expect(logged).toEqual(["error: [trpc] ingest.batch: the client closed the connection before the answer; its statement was cancelled in PostgreSQL."]);
  } finally {
    await holder.query("ROLLBACK");
    holder.release();
  }
  const { rows } = await pool().query("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1", [p.project.id]);
  expect(rows[0].n).toBe(1);
});

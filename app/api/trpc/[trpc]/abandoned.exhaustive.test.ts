import { afterEach, expect, inject, it } from "vitest";
import { freePort } from "@/server/db/embedded";
import { pool } from "@/server/db/client";
import { makeEvent } from "@/test/events";
import { makeProject } from "@/test/fixtures";
import { cleanups, runScript, tempDir, until } from "@/test/script-process";
import { waitForHealth } from "@/scripts/lib/running-app";

// abandoned.integration.test.ts on the production server: `npm start` (the Next.js server over
// the current build), where Next.js itself sees the client leave too. An abandoned ingest.batch
// is cancelled in PostgreSQL and logged once, in one line saying what happened.

const undo = cleanups();
afterEach(undo.undo);

/** Whether a statement is waiting for a lock that `holderPid` holds. */
const blockedBy = async (holderPid: number) =>
  (await pool().query("SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", [holderPid])).rows.length > 0;

it(
  "npm start logs an ingest.batch whose client went away in one line, and cancels its statement",
  async () => {
    const port = await freePort();
    const run = runScript(
      ["scripts/start.ts"],
      {
        DATABASE_URL: inject("databaseUrl"),
        TOOLGATE_DATA_DIR: await tempDir(undo),
        PORT: String(port),
        TOOLGATE_WORKER: "off",
        TOOLGATE_LOCK_TIMEOUT_MS: "0", // only the cancel can end the batch's wait for the lock
        TOOLGATE_STATEMENT_TIMEOUT_MS: "120000",
      },
      undo,
    );
    const base = `http://127.0.0.1:${port}`;
    await waitForHealth(base, { timeoutMs: 20 * 60_000, exited: () => run.child.exitCode !== null });

    const p = await makeProject();
    const { key } = await p.key();
    const post = (signal?: AbortSignal) =>
      fetch(`${base}/api/trpc/ingest.batch`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ events: [makeEvent({ timestamp: new Date(Date.UTC(2026, 10, 30, 9, 5)).toISOString() })] }),
        signal,
      });
    expect((await post()).status).toBe(200);

    const holder = await pool().connect();
    undo.push(async () => holder.release());
    await holder.query("BEGIN");
    await holder.query("UPDATE call_rollups_hourly SET calls = calls WHERE project_id = $1", [p.project.id]);
    const holderPid = (holder as unknown as { processID: number }).processID;
    const client = new AbortController();
    const abandoned = post(client.signal).catch((e: Error) => e);
    await until("the batch to wait for the lock", async () => ((await blockedBy(holderPid)) ? true : undefined), run);
    const before = run.output.length;
    client.abort();
    expect(await abandoned).toBeInstanceOf(Error);
    // the lock is still held: only a cancel ends the wait
    await until("the batch's statement to be cancelled", async () => ((await blockedBy(holderPid)) ? undefined : true), run);
    await new Promise((r) => setTimeout(r, 1000)); // whatever the server still logs for it
    await holder.query("ROLLBACK");

    const logged = run.output
      .slice(before)
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(logged).toEqual(["[trpc] ingest.batch: the client closed the connection before the answer; its statement was cancelled in PostgreSQL."]);
    const { rows } = await pool().query("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1", [p.project.id]);
    expect(rows[0].n).toBe(1);
  },
  25 * 60_000,
);

import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeProject } from "@/test/fixtures";
import { servedTraces } from "@/test/otlp";
import { storedState } from "@/test/otlp-state";

/**
 * Two exports of one conversation without a parent span (each model call a trace of its own),
 * sent at the same time: the later turn must still join the earlier one's run (docs/otlp.md,
 * "Conversations without a parent span"), as it does when the two are sent one after the other.
 */
const served = servedTraces();
const { sql } = served;

type Span = { traceId: string; startTimeUnixNano: string };
type Request = { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
const fixture: Request[] = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../../../test/otlp-fixtures", "js-openinference-openai-noroot.json"), "utf8"),
);
const spans = fixture.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
const request = (of: Span[]) => ({ resourceSpans: [{ scopeSpans: [{ spans: of }] }] });

const post = (key: string, of: Span[]) =>
  fetch(served.url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(request(of)),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { partialSuccess?: unknown } }));

/** Backends of this database waiting for a lock (a row lock or an advisory lock). */
async function waitingForLocks(count: number) {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (rows[0]!.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`fewer than ${count} exports waiting for a lock after 5 s`);
}

describe("a conversation's two halves exported at once", () => {
  it("end in one run, the same stored state as when they are sent one after the other", async () => {
    // the first conversation that spans two traces: its first two model calls' traces
    const sequential = await makeProject();
    const { key: sequentialKey } = await sequential.key();
    expect((await post(sequentialKey, spans)).status).toBe(200);
    const { rows } = await sql.query<{ run_id: string; trace_id: string }>(
      `SELECT run_id, metadata->>'otel.trace_id' AS trace_id FROM tool_calls WHERE project_id = $1 GROUP BY 1, 2 ORDER BY min(timestamp)`,
      [sequential.project.id],
    );
    const run = rows.find((r) => rows.filter((o) => o.run_id === r.run_id).length >= 2)!.run_id;
    const [first, second] = rows.filter((r) => r.run_id === run).map((r) => r.trace_id);
    const half = (traceId: string) => spans.filter((s) => s.traceId === traceId);

    const expected = await makeProject();
    const { key: expectedKey } = await expected.key();
    for (const traceId of [first!, second!]) expect((await post(expectedKey, half(traceId))).body.partialSuccess).toBeUndefined();
    expect(new Set((await sql.query(`SELECT run_id FROM tool_calls WHERE project_id = $1`, [expected.project.id])).rows.map((r) => r.run_id)).size).toBe(1);

    const raced = await makeProject();
    const { key } = await raced.key();
    await post(key, []); // the project's export counters exist from now on
    // hold the counters' row, which every export updates just before its commit: the first
    // half is written but not committed while the second half arrives
    const blocker = await sql.connect();
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM otlp_stats WHERE project_id = $1 FOR UPDATE", [raced.project.id]);
      const earlier = post(key, half(first!));
      await waitingForLocks(1);
      const later = post(key, half(second!));
      await waitingForLocks(2);
      await blocker.query("COMMIT");
      for (const answer of await Promise.all([earlier, later])) {
        expect(answer.status).toBe(200);
        expect(answer.body.partialSuccess).toBeUndefined();
      }
    } finally {
      blocker.release();
    }
    expect(await storedState(sql, raced.project.id)).toEqual(await storedState(sql, expected.project.id));
  }, 120_000);
});

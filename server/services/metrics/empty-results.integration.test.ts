import { describe, expect, it } from "vitest";
import { EMPTY_RESULT_CASES } from "../../../isomorphic/empty-result-cases";
import { emptyResultSql, isEmptyResult } from "../../../isomorphic/outcome";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { rollupsDifferFromRaw } from "../../../test/rollups";
import { pool } from "../../db/client";

const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 9, day, hour, minute)).toISOString();
const range = { from: "2026-10-01T00:00:00Z", to: "2026-10-03T00:00:00Z" };

describe("empty results", () => {
  it("are decided the same in SQL as in JavaScript, case by case", async () => {
    const summaries = [...EMPTY_RESULT_CASES.map(([s]) => s), "\u0000"];
    const { rows } = await pool().query<{ s: string; empty: boolean }>(`SELECT s, ${emptyResultSql("'ok'", "s")} AS empty FROM unnest($1::text[]) AS s`, [
      summaries.map((s) => s.replace("\u0000", "x")),
    ]);
    expect(rows.map((r) => [r.s, r.empty])).toEqual(rows.map((r) => [r.s, isEmptyResult({ status: "ok", summary: r.s })]));
    expect(rows.slice(0, EMPTY_RESULT_CASES.length).map((r) => r.empty)).toEqual(EMPTY_RESULT_CASES.map(([, empty]) => empty));
    // columns, as in every use (PostgreSQL folds constants before CASE can guard the cast)
    const { rows: others } = await pool().query(
      `SELECT status, ${emptyResultSql("status", "summary")} AS empty FROM (VALUES ('error', ''), ('not_found', '[]'), ('ok', NULL)) AS r(status, summary)`,
    );
    expect(others.map((r) => r.empty)).toEqual([false, false, false]);
  });

  it("are counted per tool through ingest.batch, listed by the explorer's `empty` outcome, and shown with the run's next call", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const owner = await p.asOwner();
    const q = { project: p.project.slug, range };
    const ok = (summary?: string) => ({ status: "ok" as const, latencyMs: 40, ...(summary === undefined ? {} : { summary }) });
    const events = [
      // a run: an empty list, then the model retried with another loan number, which answered
      makeEvent({ id: "e1", runId: "r1", step: 0, timestamp: at(1, 9, 0), result: ok("[]") }),
      makeEvent({ id: "e2", runId: "r1", step: 1, timestamp: at(1, 9, 1), arguments: { loannumber: "4472" }, result: ok('{"balance": 120}') }),
      // the run's last call: nothing came after the empty answer
      makeEvent({ id: "e3", runId: "r2", step: 0, timestamp: at(1, 10, 0), result: ok("   ") }),
      makeEvent({ id: "e4", runId: "r3", step: 0, timestamp: at(2, 11, 0), result: ok('{"results": []}') }),
      makeEvent({ id: "e5", runId: "r4", timestamp: at(2, 12, 0), result: ok("null") }),
      // not empty: an answer, a result without its content, a failure that says nothing, an invalid call
      makeEvent({ id: "n1", runId: "r5", timestamp: at(1, 9, 5), result: ok("No loan 4471") }),
      makeEvent({ id: "n2", runId: "r5", timestamp: at(1, 9, 6), result: ok() }),
      makeEvent({ id: "n3", runId: "r5", timestamp: at(1, 9, 7), result: { status: "error", summary: "" } }),
      makeEvent({ id: "n4", runId: "r5", timestamp: at(1, 9, 8), arguments: { loannumber: "12" }, result: ok("[]") }),
      makeEvent({ id: "n5", runId: "r5", timestamp: at(1, 9, 9), tool: "listopenloans", arguments: { status: "open" }, result: ok('{"count": 0}') }),
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: events.length, rejected: [] });

    const { current } = await owner.metrics.totals(q);
    expect(current).toMatchObject({ results: 9, emptyResults: 4, toolErrors: 1, invalid: 1 });
    const tools = await owner.metrics.tools(q);
    expect(tools.find((t) => t.tool === "getloan")).toMatchObject({ results: 8, emptyResults: 4 });
    expect(tools.find((t) => t.tool === "listopenloans")).toMatchObject({ results: 1, emptyResults: 0 });
    // per model version, as the models page reads them
    const models = await owner.metrics.models(q);
    expect(models.versions).toEqual([expect.objectContaining({ key: "acme-large", version: "2026-10", results: 9, emptyResults: 4, toolErrors: 1 })]);
    expect(models.versions[0]!.latency).toMatchObject({ timed: 8 });

    const listed = await owner.calls.list({ project: q.project, filter: { outcome: "empty" }, limit: 50 });
    expect(listed.calls.map((c) => c.id).sort()).toEqual(["e1", "e3", "e4", "e5"]);

    const examples = await owner.tools.emptyResults({ project: q.project, tool: "getloan", range });
    expect(examples.map((e) => [e.id, e.summary, e.next?.id ?? null])).toEqual([
      ["e5", "null", null],
      ["e4", '{"results": []}', null],
      ["e3", "   ", null],
      ["e1", "[]", "e2"],
    ]);
    expect(examples.at(-1)!.next).toMatchObject({ tool: "getloan", valid: true, resultStatus: "ok" });

    // a day's hours add up to the day, and the rollups kept batch by batch equal those computed from the raw calls
    const { rows } = await pool().query(
      `SELECT (SELECT sum(empty_results)::int FROM call_rollups_hourly WHERE project_id = $1) AS hourly,
              (SELECT sum(empty_results)::int FROM call_rollups_daily WHERE project_id = $1) AS daily`,
      [p.project.id],
    );
    expect(rows[0]).toEqual({ hourly: 4, daily: 4 });
    expect(await rollupsDifferFromRaw(pool(), p.project.id)).toEqual({});
  });
});

import { describe, expect, it } from "vitest";
import { RESULT_STATUSES } from "../../../contracts/event";
import { histogramOf, histogramPercentile, LATENCY_RELATIVE_ERROR, latencySummary } from "../../../isomorphic/latency-histogram";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { rollupsDifferFromRaw } from "../../../test/rollups";
import { pool } from "../../db/client";

const at = (day: number, hour: number, minute = 0) => new Date(Date.UTC(2026, 9, day, hour, minute)).toISOString();
const range = { from: "2026-10-01T00:00:00Z", to: "2026-10-03T00:00:00Z" };

async function project() {
  const p = await makeProject();
  const api = withKey((await p.key()).key);
  await api.tools.register({ tools: LOAN_TOOLS });
  return { ...p, api, owner: await p.asOwner(), q: { project: p.project.slug, range } };
}

describe("execution outcomes through ingest.batch", () => {
  it("stores each result status, counts each outcome in the rollups, and leaves invalid calls and calls without a result out", async () => {
    const { api, owner, q, project: stored } = await project();
    const events = [
      ...RESULT_STATUSES.map((status, i) => makeEvent({ timestamp: at(1, 9, i), result: { status, latencyMs: 100 * (i + 1) } })),
      makeEvent({ timestamp: at(1, 9, 10) }), // no result reported
      makeEvent({ timestamp: at(1, 9, 11), result: { status: "ok" } }), // a result without its latency
      // invalid: refused at the gate, whatever its result says
      makeEvent({ timestamp: at(1, 9, 12), arguments: { loannumber: "12" }, result: { status: "error", latencyMs: 0 } }),
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: 8, rejected: [] });
    const { rows } = await pool().query(`SELECT result_status, latency_ms, valid FROM tool_calls WHERE project_id = $1 ORDER BY timestamp`, [stored.id]);
    expect(rows.map((r) => r.result_status)).toEqual([...RESULT_STATUSES, null, "ok", "error"]);
    expect(rows.at(-1)).toMatchObject({ valid: false });

    const { current } = await owner.metrics.totals(q);
    expect(current).toMatchObject({ calls: 8, invalid: 1, results: 6, toolErrors: 1, notFound: 1, timeouts: 1, notAllowed: 1 });
    const [getloan] = await owner.metrics.tools(q);
    expect(getloan).toMatchObject({ tool: "getloan", results: 6, toolErrors: 1 });
    // five timed results: too few for percentiles
    expect(getloan!.latency).toEqual({ timed: 5, p50: null, p95: null, p99: null });
    // click-through: the explorer filters on the same outcomes, leaving invalid calls out
    const listed = async (outcome: "failed" | "no_result" | "timeout" | "ok") =>
      (await owner.calls.list({ project: q.project, filter: { outcome }, limit: 50 })).calls.length;
    expect([await listed("failed"), await listed("no_result"), await listed("timeout"), await listed("ok")]).toEqual([4, 1, 1, 2]);
    expect(await rollupsDifferFromRaw(pool(), stored.id)).toEqual({});
  });

  it("answers percentiles from the rollups within the documented error, and hourly rows summed equal the daily row", async () => {
    const { api, owner, q, project: stored } = await project();
    let seed = 11;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    // 600 calls over two days, 25 hours, with latencies from 1 ms to a minute
    const latencies = Array.from({ length: 600 }, () => Math.round(Math.exp(random() * Math.log(60_000))));
    const events = latencies.map((latencyMs, i) =>
      makeEvent({ timestamp: at(1 + Math.floor(i / 300), (i * 7) % 24, i % 60), result: { status: i % 10 === 0 ? "error" : "ok", latencyMs } }),
    );
    for (let i = 0; i < events.length; i += 200) expect(await api.ingest.batch({ events: events.slice(i, i + 200) })).toMatchObject({ accepted: 200 });

    const [getloan] = await owner.metrics.tools(q);
    expect(getloan).toMatchObject({ results: 600, toolErrors: 60 });
    const sorted = [...latencies].sort((a, b) => a - b);
    for (const [quantile, got] of [
      [0.5, getloan!.latency.p50],
      [0.95, getloan!.latency.p95],
      [0.99, getloan!.latency.p99],
    ] as const) {
      const exact = sorted[Math.ceil(quantile * sorted.length) - 1]!;
      expect(Math.abs(got! - exact) / exact).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR + 1e-12);
    }
    expect(getloan!.latency.p95).toBe(histogramPercentile(histogramOf(latencies), 0.95));

    // a range of partial days reads hours, a range of whole days reads days: the same answer
    const partial = await owner.metrics.tools({ ...q, range: { from: "2026-09-30T23:00:00Z", to: "2026-10-03T01:00:00Z" } });
    expect(partial[0]!.latency).toEqual(getloan!.latency);

    const { rows } = await pool().query(
      `SELECT d.day, d.results::int, d.tool_errors::int, d.latency_hist::text AS daily, h.results::int AS hourly_results,
              h.tool_errors::int AS hourly_errors, h.hist::text AS hourly
         FROM call_rollups_daily d
         JOIN (SELECT date_bin('1 day', hour, TIMESTAMPTZ '2000-01-01 00:00:00+00') AS day, tool, model_name, model_version, category,
                      sum(results) AS results, sum(tool_errors) AS tool_errors, toolgate_hist_sum(latency_hist) AS hist
                 FROM call_rollups_hourly WHERE project_id = $1 GROUP BY 1, 2, 3, 4, 5) h USING (day, tool, model_name, model_version, category)
        WHERE d.project_id = $1 ORDER BY d.day`,
      [stored.id],
    );
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect([r.hourly_results, r.hourly_errors, r.hourly]).toEqual([r.results, r.tool_errors, r.daily]);
      expect(r.results).toBe(300);
    }
    expect(await rollupsDifferFromRaw(pool(), stored.id)).toEqual({});

    // stored from the first to the last non-empty bucket: no zero at either end
    const ends = await pool().query<{ first: string; last: string }>(
      `SELECT latency_hist[array_lower(latency_hist, 1)]::text AS first, latency_hist[array_upper(latency_hist, 1)]::text AS last
         FROM call_rollups_hourly WHERE project_id = $1 AND cardinality(latency_hist) > 0`,
      [stored.id],
    );
    expect(ends.rows.length).toBeGreaterThan(0);
    expect(ends.rows.filter((r) => r.first === "0" || r.last === "0")).toEqual([]);

    // the migrate applied prisma/functions.sql after the migrations: the loops, not the SQL functions they replace
    const languages = await pool().query<{ proname: string; lanname: string }>(
      `SELECT p.proname, l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.proname IN ('toolgate_hist_add', 'toolgate_hist_of') ORDER BY 1`,
    );
    expect(languages.rows).toEqual([
      { proname: "toolgate_hist_add", lanname: "plpgsql" },
      { proname: "toolgate_hist_of", lanname: "plpgsql" },
    ]);
  });

  it("gives the models page each model version's own percentiles, and a model of several versions those of all its results", async () => {
    const { api, owner, q } = await project();
    // three versions of acme-large (one without a version), far apart in speed, and one version of another model
    const latencies: [string, string | undefined, number[]][] = [
      ["acme-large", "2026-09", Array.from({ length: 30 }, (_, i) => 10 + i)],
      ["acme-large", "2026-10", Array.from({ length: 25 }, (_, i) => 2_000 + 40 * i)],
      ["acme-large", undefined, Array.from({ length: 20 }, (_, i) => 300 + i)],
      ["acme-small", "2026-10", Array.from({ length: 40 }, (_, i) => 60 + 3 * i)],
    ];
    const events = latencies.flatMap(([name, version, ms]) =>
      ms.map((latencyMs, i) =>
        makeEvent({ timestamp: at(1 + (i % 2), 9, i % 60), model: { name, ...(version ? { version } : {}) }, result: { status: "ok", latencyMs } }),
      ),
    );
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: events.length, rejected: [] });

    const { versions, models } = await owner.metrics.models(q);
    const byVersion = new Map(versions.map((v) => [`${v.key} ${v.version}`, v.latency]));
    for (const [name, version, ms] of latencies) expect(byVersion.get(`${name} ${version ?? ""}`)).toEqual(latencySummary(histogramOf(ms)));
    expect(byVersion.size).toBe(4);
    // per model only where it has several versions: its three versions' results together
    expect(models).toEqual([{ model: "acme-large", latency: latencySummary(histogramOf(latencies.slice(0, 3).flatMap(([, , ms]) => ms))) }]);
    expect(models[0]!.latency.p50).not.toBe(byVersion.get("acme-large 2026-09")!.p50);
  });
});

import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { rollupsDifferFromRaw } from "../../../test/rollups";
import { pool } from "../../db/client";
import { analytics } from "../analytics";
import { QUEUES } from "../jobs/boss";
import { startWorker } from "../jobs/work";
import { waitFor } from "../../../test/wait";
import { refreshCoarseRollups } from "./coarse";
import { CALL_ROLLUPS, STALE_DAYS } from "./tables";

// The coarse daily call rollups kept from the daily rows (server/services/rollups/coarse.ts): a
// batch marks its days stale, reads take those days from the daily rows, the refresh stores them.

const range = { from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-08T00:00:00Z") };
const MODEL = { provider: "acme", name: "acme-large", version: "2026-10" };
const OTHER_MODEL = { provider: "acme", name: "acme-small", version: "2026-11" };

async function project() {
  const p = await makeProject();
  const api = withKey((await p.key()).key);
  await api.tools.register({ tools: LOAN_TOOLS });
  return { ...p, api };
}

/** `n` calls on the days given (day of November 2026), with results, latencies, invalid calls and two models. */
const calls = (n: number, days: number[], seed = 0) =>
  Array.from({ length: n }, (_, i) =>
    makeEvent({
      timestamp: new Date(Date.UTC(2026, 10, days[i % days.length]!, (i * 7 + seed) % 24, i % 60)).toISOString(),
      tool: i % 3 ? "getloan" : "searchloans",
      model: i % 4 ? MODEL : OTHER_MODEL,
      ...((i + seed) % 5 === 0
        ? { arguments: {} }
        : { arguments: i % 3 ? { loannumber: "7" } : { query: "x" }, result: { status: i % 6 ? "ok" : "error", latencyMs: 20 + ((i * 53 + seed) % 2000) } }),
    }),
  );

const staleDays = async (projectId: string) =>
  (await pool().query<{ day: Date }>(`SELECT day FROM ${STALE_DAYS} WHERE project_id = $1 ORDER BY day`, [projectId])).rows.map((r) =>
    r.day.toISOString().slice(0, 10),
  );

/** What the coarse tables store of a project: calls per table. */
const storedCalls = async (projectId: string) => {
  const out: Record<string, number> = {};
  for (const { daily } of CALL_ROLLUPS.coarse!) {
    out[daily] = (await pool().query<{ n: number }>(`SELECT coalesce(sum(calls), 0)::int AS n FROM ${daily} WHERE project_id = $1`, [projectId])).rows[0]!.n;
  }
  return out;
};

/** The reads that take the coarse tables (no model for the per-tool one, no tool for the per-model one), over whole days. */
const coarseReads = async (projectId: string) => ({
  totals: await analytics.totals(projectId, range),
  tools: await analytics.toolTotals(projectId, range),
  perCategory: await analytics.series(projectId, range, "day", "category"),
  perModel: await analytics.series(projectId, range, "day", "modelVersion"),
  models: await analytics.breakdown(projectId, range, "model"),
  latencies: [...(await analytics.latencyHistograms(projectId, range, "modelVersion")).entries()],
});

describe("coarse daily call rollups kept from the daily rows", () => {
  it("a batch marks its days; reads take them from the daily rows, the same before and after the refresh stores them", async () => {
    const p = await project();
    expect(await p.api.ingest.batch({ events: calls(60, [2, 3]) })).toMatchObject({ accepted: 60 });
    expect(await staleDays(p.project.id)).toEqual(["2026-11-02", "2026-11-03"]);
    expect(await storedCalls(p.project.id)).toEqual({ call_rollups_tool_daily: 0, call_rollups_model_daily: 0 });
    expect(await refreshCoarseRollups({ projectId: p.project.id })).toEqual({ projects: 1, days: 2 });
    expect(await staleDays(p.project.id)).toEqual([]);
    expect(await storedCalls(p.project.id)).toEqual({ call_rollups_tool_daily: 60, call_rollups_model_daily: 60 });

    // a later batch on a stored day and a new one: the stored rows lag, the reads do not
    expect(await p.api.ingest.batch({ events: calls(40, [3, 5], 1) })).toMatchObject({ accepted: 40 });
    expect(await staleDays(p.project.id)).toEqual(["2026-11-03", "2026-11-05"]);
    expect(await storedCalls(p.project.id)).toEqual({ call_rollups_tool_daily: 60, call_rollups_model_daily: 60 });
    const stale = await coarseReads(p.project.id);
    expect(stale.totals).toMatchObject({ calls: 100 });
    expect(stale.tools.reduce((n, t) => n + t.calls, 0)).toBe(100);
    expect(stale.perModel.reduce((n, s) => n + s.calls, 0)).toBe(100);
    expect(await rollupsDifferFromRaw(pool(), p.project.id)).toEqual({}); // it refreshes, as the worker would
    expect(await staleDays(p.project.id)).toEqual([]);
    expect(await storedCalls(p.project.id)).toEqual({ call_rollups_tool_daily: 100, call_rollups_model_daily: 100 });
    expect(await coarseReads(p.project.id)).toEqual(stale);
  });

  it("loses and doubles nothing while refreshes run between concurrent batches of the project", async () => {
    const p = await project();
    // three lanes at once, each a batch then a refresh, six times: refreshes start while other lanes' batches are under way
    const lane = async (n: number) => {
      for (let round = 0; round < 6; round++) {
        await p.api.ingest.batch({ events: calls(25, n === 2 ? [4, 6] : [1, 2, 3, 4].slice(round % 3), round * 3 + n) });
        await refreshCoarseRollups({ projectId: p.project.id });
      }
    };
    await Promise.all([0, 1, 2].map(lane));
    expect(await storedCalls(p.project.id).then((s) => Object.values(s).every((n) => n > 0))).toBe(true);
    expect(await rollupsDifferFromRaw(pool(), p.project.id)).toEqual({});
  });

  it("is the worker's job: a job of its queue refreshes the marked days", async () => {
    const worker = await startWorker({ schedules: false });
    try {
      const p = await project();
      await p.api.ingest.batch({ events: calls(12, [2, 3]) });
      expect(await staleDays(p.project.id)).toHaveLength(2);
      await worker.boss.send(QUEUES.coarseRollups, {});
      await waitFor(async () => (await staleDays(p.project.id)).length === 0, "the refresh job");
      expect(await storedCalls(p.project.id)).toEqual({ call_rollups_tool_daily: 12, call_rollups_model_daily: 12 });
    } finally {
      await worker.stop();
    }
  });

  it("refreshes every project with stale days, and leaves projects without them alone", async () => {
    const [a, b, c] = [await project(), await project(), await project()];
    await a.api.ingest.batch({ events: calls(10, [1]) });
    await b.api.ingest.batch({ events: calls(10, [1, 2, 3, 4, 5, 6, 7, 8, 9]) });
    await refreshCoarseRollups({ projectId: c.project.id });
    expect(await staleDays(a.project.id)).toHaveLength(1);
    const done = await refreshCoarseRollups();
    expect(done.days).toBeGreaterThanOrEqual(10); // b's nine days, a transaction each
    expect([await staleDays(a.project.id), await staleDays(b.project.id)]).toEqual([[], []]);
    expect(await storedCalls(b.project.id)).toEqual({ call_rollups_tool_daily: 10, call_rollups_model_daily: 10 });
    expect(await storedCalls(c.project.id)).toEqual({ call_rollups_tool_daily: 0, call_rollups_model_daily: 0 });
  });
});

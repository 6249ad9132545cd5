import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { rollupsDifferFromRaw } from "../../../test/rollups";
import { pool } from "../../db/client";
import { inTransaction } from "../../db/transaction";
import { rebuildProjectRollups } from "./rebuild";
import { CALL_ROLLUPS, granularities, OUTCOME_COUNT_COLUMNS } from "./tables";
import { lockRollups } from "./write";

const range = { from: "2026-11-01T00:00:00Z", to: "2026-11-03T00:00:00Z" };
const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 9, minute % 600)).toISOString();

async function project() {
  const p = await makeProject();
  const api = withKey((await p.key()).key);
  await api.tools.register({ tools: LOAN_TOOLS });
  return { ...p, api, owner: await p.asOwner() };
}

/** Calls with results (ok, tool errors, empty ones), latencies and a few invalid ones. */
const batch = (n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) =>
    makeEvent({
      timestamp: at(offset + i),
      ...(i % 7 === 0
        ? { arguments: { loannumber: "12" } }
        : { result: { status: i % 5 === 0 ? "error" : "ok", summary: i % 4 === 0 ? "[]" : "loan 4471", latencyMs: 40 + ((i * 37) % 900) } }),
    }),
  );

/** The rollup rows as a release before the outcome columns left them: no results, no latencies, no empty results. */
async function forgetOutcomes(projectId: string) {
  for (const { table } of granularities(CALL_ROLLUPS)) {
    await pool().query(`UPDATE ${table} SET ${OUTCOME_COUNT_COLUMNS.map((c) => `${c} = 0`).join(", ")}, latency_hist = '{}' WHERE project_id = $1`, [
      projectId,
    ]);
  }
}

describe("rebuilding a project's rollups (npm run toolgate -- rollups rebuild)", () => {
  it("gives rows written before the outcome columns their results, errors, empty results and latencies", async () => {
    const { api, owner, project: stored } = await project();
    expect(await api.ingest.batch({ events: batch(60) })).toMatchObject({ accepted: 60 });
    const tools = async () => (await owner.metrics.tools({ project: stored.slug, range }))[0]!;
    const before = await tools();
    expect(before).toMatchObject({ results: 51, toolErrors: 10 });
    expect(before.latency.p95).not.toBeNull();

    await forgetOutcomes(stored.id);
    expect(await tools()).toMatchObject({ results: 0, toolErrors: 0, latency: { timed: 0, p95: null } });
    expect(Object.keys(await rollupsDifferFromRaw(pool(), stored.id))).toEqual(granularities(CALL_ROLLUPS).map((g) => g.table));

    const written = await rebuildProjectRollups(stored.id);
    expect(written).toMatchObject({ call_rollups_hourly: expect.any(Number), call_rollups_daily: expect.any(Number) });
    expect(await rollupsDifferFromRaw(pool(), stored.id)).toEqual({});
    expect(await tools()).toEqual(before);
  });

  it("recomputes each invalid call's stored recovery from its correction, which a bulk load does not set", async () => {
    const { api, project: stored } = await project();
    // runs of an invalid call followed by a valid one (recovered) and of two invalid calls (the first not recovered)
    const events = Array.from({ length: 6 }, (_, run) =>
      [0, 1].map((step) =>
        makeEvent({
          runId: `bulk-${run}`,
          step,
          timestamp: at(run * 2 + step),
          ...(step === 0 || run % 2 ? { arguments: { loannumber: "12" } } : {}),
        }),
      ),
    ).flat();
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: 12 });
    const recoveredCalls = async () =>
      (await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1 AND recovered", [stored.id])).rows[0]!.n;
    expect(await recoveredCalls()).toBe(3);
    // as a restore or bulk load leaves them: links, but no stored recovery
    await pool().query("UPDATE tool_calls SET recovered = false WHERE project_id = $1", [stored.id]);
    expect(Object.keys(await rollupsDifferFromRaw(pool(), stored.id))).toEqual(["tool_calls.recovered"]);

    await rebuildProjectRollups(stored.id);
    expect(await recoveredCalls()).toBe(3);
    expect(await rollupsDifferFromRaw(pool(), stored.id)).toEqual({});
  });

  it("loses and doubles nothing while batches are ingested into the project", async () => {
    const { api, project: stored } = await project();
    await api.ingest.batch({ events: batch(40) });
    // rebuilds interleaved with batches of calls in the same hours
    const work: Promise<unknown>[] = [];
    for (let round = 0; round < 6; round++) {
      work.push(api.ingest.batch({ events: batch(30, 40 + round * 30) }));
      work.push(rebuildProjectRollups(stored.id));
    }
    await Promise.all(work);
    const { rows } = await pool().query("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1", [stored.id]);
    expect(rows[0].n).toBe(220);
    expect(await rollupsDifferFromRaw(pool(), stored.id)).toEqual({});
  });

  it("makes only its own project's ingestion wait", async () => {
    const a = await project();
    const b = await project();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // a rebuild of project a under way: its lock held until `release`
    const rebuild = inTransaction(async (client) => {
      await lockRollups(client, a.project.id, "rebuild");
      locked();
      await held;
    });
    await isLocked;
    expect(await b.api.ingest.batch({ events: batch(5) })).toMatchObject({ accepted: 5 });
    let aDone = false;
    const aBatch = a.api.ingest.batch({ events: batch(5) }).then((r) => ((aDone = true), r));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(aDone).toBe(false);
    release();
    await rebuild;
    expect(await aBatch).toMatchObject({ accepted: 5 });
  });
});

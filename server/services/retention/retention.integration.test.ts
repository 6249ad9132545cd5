import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { pool } from "../../db/client";
import { refreshCoarseRollups } from "../rollups/coarse";
import { CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS, granularities } from "../rollups/tables";
import { RETENTION_EXEMPT, SWEPT_TABLES, sweepProject } from "./sweep";

const now = new Date();
const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000).toISOString();
const AGES = [200, 100, 61, 59, 30, 1];

/** A project with valid and invalid calls at each age, plus two runs whose pairs straddle a 60-day cutoff. */
async function seeded() {
  const p = await makeProject();
  const api = withKey((await p.key()).key);
  await api.tools.register({ tools: LOAN_TOOLS });
  const events = AGES.flatMap((age) => [makeEvent({ timestamp: daysAgo(age) }), makeEvent({ timestamp: daysAgo(age), arguments: { loannumber: "12" } })]);
  // step 1 kept (59 days), its correction at step 2 expired (a harness clock 2 days behind)
  const keptRun = { runId: `run-kept-${p.project.slug}` };
  events.push(makeEvent({ ...keptRun, id: `${p.project.slug}-a1`, step: 1, timestamp: daysAgo(59), arguments: { loannumber: "12" } }));
  events.push(makeEvent({ ...keptRun, id: `${p.project.slug}-a2`, step: 2, timestamp: daysAgo(61) }));
  // the other way round: the invalid call expired, its correction kept
  const goneRun = { runId: `run-gone-${p.project.slug}` };
  events.push(makeEvent({ ...goneRun, id: `${p.project.slug}-b1`, step: 1, timestamp: daysAgo(61), arguments: { loannumber: "12" } }));
  events.push(makeEvent({ ...goneRun, id: `${p.project.slug}-b2`, step: 2, timestamp: daysAgo(59) }));
  const result = await api.ingest.batch({ events });
  expect(result.accepted).toBe(events.length);
  await refreshCoarseRollups({ projectId: p.project.id }); // the coarse daily rollups, as the worker keeps them
  return { ...p, owner: await p.asOwner(), events };
}

const callIds = async (projectId: string) =>
  (await pool().query<{ id: string }>("SELECT id FROM tool_calls WHERE project_id = $1 ORDER BY id", [projectId])).rows.map((r) => r.id);

/** Every rollup row of a project, as text, per table. */
async function rollups(projectId: string) {
  const out: Record<string, string[]> = {};
  for (const { table, column } of [CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS].flatMap(granularities)) {
    const { rows } = await pool().query(`SELECT t::text AS row, ${column} AS at FROM ${table} t WHERE project_id = $1 ORDER BY 1`, [projectId]);
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

describe("retention", () => {
  it("deletes exactly the expired calls of the right project, leaves rollups and other projects alone", async () => {
    const a = await seeded();
    const b = await seeded();
    await a.owner.projects.setRetention({ project: a.project.slug, callsDays: 60, rollupsDays: 400 });
    expect(await a.owner.projects.retention({ project: a.project.slug })).toEqual({ callsDays: 60, rollupsDays: 400 });
    const rollupsBefore = await rollups(a.project.id);
    const bBefore = { calls: await callIds(b.project.id), rollups: await rollups(b.project.id) };
    expect(rollupsBefore.call_rollups_hourly!.length).toBeGreaterThan(0);

    const report = await sweepProject(a.project.id, now, { batchSize: 3 }); // small batches: the loop runs several times
    const cutoff = now.getTime() - 60 * 86_400_000;
    const kept = a.events.filter((e) => new Date(e.timestamp).getTime() >= cutoff).map((e) => e.id);
    expect(await callIds(a.project.id)).toEqual([...kept].sort());
    expect(report.calls).toBe(a.events.length - kept.length);
    expect(report.batches).toBeGreaterThan(2);
    // deleting raw calls leaves the rollups exactly as they were; the other project is untouched
    expect(await rollups(a.project.id)).toEqual(rollupsBefore);
    expect(report.rollups).toBe(0);
    expect(await callIds(b.project.id)).toEqual(bBefore.calls);
    expect(await rollups(b.project.id)).toEqual(bBefore.rollups);

    // a call whose correction was deleted still renders, and so does a correction whose failed call went
    const orphan = await a.owner.calls.byId({ project: a.project.slug, id: `${a.project.slug}-a1` });
    expect(orphan).toMatchObject({ correctionId: `${a.project.slug}-a2`, correction: null, valid: false });
    const correction = await a.owner.calls.byId({ project: a.project.slug, id: `${a.project.slug}-b2` });
    expect(correction).toMatchObject({ correctsId: null, valid: true });
    expect(correction.runLength).toBe(1);
  });

  it("rollups expire on their own setting, whole buckets only; a viewer cannot change retention", async () => {
    const a = await seeded();
    const viewer = await a.member("viewer");
    await expect(viewer.projects.setRetention({ project: a.project.slug, callsDays: 30, rollupsDays: 95 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(a.owner.projects.setRetention({ project: a.project.slug, callsDays: 120, rollupsDays: 95 })).rejects.toThrow(/at least as long as raw calls/);
    await a.owner.projects.setRetention({ project: a.project.slug, callsDays: 95, rollupsDays: 95 });
    const before = await rollups(a.project.id);
    await sweepProject(a.project.id, now);
    const after = await rollups(a.project.id);
    const cutoff = now.getTime() - 95 * 86_400_000;
    for (const { table, column } of [CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS].flatMap(granularities)) {
      const { rows } = await pool().query(`SELECT min(${column}) AS first FROM ${table} WHERE project_id = $1`, [a.project.id]);
      // the 100- and 200-day-old buckets are gone, the 61-day-old and newer ones stay unchanged
      expect(new Date(rows[0].first).getTime(), table).toBeGreaterThan(cutoff - 86_400_000);
      expect(
        after[table]!.every((row) => before[table]!.includes(row)),
        table,
      ).toBe(true);
      expect(after[table]!.length, table).toBeLessThan(before[table]!.length);
    }
  });
});

describe("a sweep with a deadline", () => {
  it("stops between batches once its time is up, says it did not finish, and the next sweep goes on where it stopped", async () => {
    const a = await seeded();
    await a.owner.projects.setRetention({ project: a.project.slug, callsDays: 60, rollupsDays: 60 });
    const expired = a.events.filter((e) => new Date(e.timestamp).getTime() < now.getTime() - 60 * 86_400_000).length;
    const stopped = await sweepProject(a.project.id, now, { batchSize: 2, stopAt: Date.now() });
    // one batch of calls, then the deadline: the expired rollups are left for the next sweep
    expect(stopped).toMatchObject({ finished: false, batches: 1, rollups: 0 });
    const rest = await sweepProject(a.project.id, now, { batchSize: 2 });
    expect(rest.finished).toBe(true);
    expect(rest.rollups).toBeGreaterThan(0);
    expect(stopped.calls + rest.calls).toBe(expired);
  });
});

describe("retention of OTLP call data", () => {
  it("sweeps old tool results (also those whose call never arrived), old model-call spans and their messages, keeps recent ones", async () => {
    const p = await makeProject();
    const owner = await p.asOwner();
    await owner.projects.setRetention({ project: p.project.slug, callsDays: 30, rollupsDays: 400 });
    const id = p.project.id;
    const ns = (iso: string) => (BigInt(new Date(iso).getTime()) * 1_000_000n).toString();
    await pool().query(
      `INSERT INTO otlp_results (project_id, call_id, priority, status, summary, received_at) VALUES
         ($1, 'old-result', 2, 'error', 'a 100-day-old tool result text', $2), ($1, 'orphan', 1, 'ok', 'its call never came', $3),
         ($1, 'recent-result', 2, 'ok', 'kept', $4)`,
      [id, daysAgo(100), daysAgo(31), daysAgo(1)],
    );
    await pool().query(`INSERT INTO otlp_model_calls (project_id, run_id, span_key, started_ns) VALUES ($1, 'old-run', 'a', $2), ($1, 'recent-run', 'b', $3)`, [
      id,
      ns(daysAgo(100)),
      ns(daysAgo(1)),
    ]);
    await pool().query(
      `INSERT INTO otlp_messages (project_id, run_id, key, depth, role, text, chars, calls, span_key, started_ns) VALUES
         ($1, 'old-run', 'k1', 0, 'user', 'a 100-day-old prompt', 20, '[]', 'a', $2), ($1, 'recent-run', 'k2', 0, 'user', 'kept', 4, '[]', 'b', $3)`,
      [id, ns(daysAgo(100)), ns(daysAgo(1))],
    );
    await sweepProject(id, now);
    const left = async (sql: string) => (await pool().query(sql, [id])).rows.map((r) => r.k);
    expect(await left("SELECT call_id AS k FROM otlp_results WHERE project_id = $1")).toEqual(["recent-result"]);
    expect(await left("SELECT run_id AS k FROM otlp_model_calls WHERE project_id = $1")).toEqual(["recent-run"]);
    expect(await left("SELECT run_id AS k FROM otlp_messages WHERE project_id = $1")).toEqual(["recent-run"]);
  });
});

describe("retention catalogue", () => {
  it("every table with a project and a time column is swept by that column or exempt with a reason", async () => {
    // time columns: timestamps, and integers of nanoseconds since the epoch (OTLP's clock)
    const { rows } = await pool().query<{ table: string; columns: string[] }>(
      `SELECT c.table_name AS table, array_agg(c.column_name::text ORDER BY c.column_name) AS columns
         FROM information_schema.columns c
        WHERE c.table_schema = current_schema()
          AND (c.data_type LIKE 'timestamp%' OR c.column_name LIKE '%\\_ns')
          AND EXISTS (SELECT FROM information_schema.columns p
                       WHERE p.table_schema = c.table_schema AND p.table_name = c.table_name AND p.column_name = 'project_id')
        GROUP BY c.table_name ORDER BY 1`,
    );
    expect(rows.length).toBeGreaterThan(10);
    const swept = new Map(SWEPT_TABLES.map((t) => [t.table, t.column]));
    for (const { table, columns } of rows) {
      if (swept.has(table)) expect(columns, `${table} is swept by a column it has`).toContain(swept.get(table));
      else expect(RETENTION_EXEMPT[table], `${table} (time columns ${columns.join(", ")}) is neither swept nor exempt`).toMatch(/\w/);
    }
    // and neither list names a table that is not there
    const tables = rows.map((r) => r.table);
    for (const t of [...swept.keys(), ...Object.keys(RETENTION_EXEMPT)]) expect(tables, t).toContain(t);
  });
});

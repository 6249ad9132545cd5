import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { callerWith, makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { rollupsDifferFromRaw } from "../../../test/rollups";
import { refreshCoarseRollups } from "../rollups/coarse";
import { ROLLUP_TABLES } from "../rollups/tables";

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(() => sql.end());

async function project() {
  const p = await makeProject();
  const { key } = await p.key();
  const api = withKey(key);
  await api.tools.register({ tools: LOAN_TOOLS });
  const owner = await p.asOwner();
  return { ...p, api, owner };
}

const rawCount = async (projectId: string) => Number((await sql.query("SELECT count(*) FROM tool_calls WHERE project_id = $1", [projectId])).rows[0].count);

async function rollupMatchesRaw(projectId: string) {
  const { rows } = await sql.query(
    `SELECT coalesce(r.key, c.key) AS key, r.calls AS rolled, c.calls AS raw, r.invalid AS rolled_invalid, c.invalid AS raw_invalid,
            r.corrected AS rolled_corrected, c.corrected AS raw_corrected
       FROM (SELECT concat_ws('|', hour, tool, model_name, model_version, category) AS key, calls::int, invalid::int, corrected::int
               FROM call_rollups_hourly WHERE project_id = $1) r
       FULL JOIN (SELECT concat_ws('|', date_trunc('hour', timestamp, 'UTC'), tool, model_name, coalesce(model_version, ''), coalesce(category, '')) AS key,
                         count(*)::int AS calls, (count(*) FILTER (WHERE valid = false))::int AS invalid,
                         (count(*) FILTER (WHERE valid = false AND correction_id IS NOT NULL))::int AS corrected
                    FROM tool_calls WHERE project_id = $1 GROUP BY 1) c ON r.key = c.key`,
    [projectId],
  );
  expect(rows.length).toBeGreaterThan(0);
  return rows.filter((r) => r.rolled !== r.raw || r.rolled_invalid !== r.raw_invalid || r.rolled_corrected !== r.raw_corrected);
}

describe("ingest.batch", () => {
  let p: Awaited<ReturnType<typeof project>>;
  beforeAll(async () => {
    p = await project();
  });

  it("a mixed batch gives exactly the expected accepted, duplicates and rejected", async () => {
    const valid = makeEvent();
    const events = [
      valid,
      makeEvent({ arguments: "{loannumber: 4471" }),
      makeEvent({ tool: "getloans" }),
      makeEvent({ arguments: { loannumber: "4471", customername: "Ada" } }),
      makeEvent({ arguments: {} }),
      makeEvent({ arguments: { loannumber: 4471 } }),
      makeEvent({ tool: "listopenloans", arguments: { status: "pending" } }),
      makeEvent({ arguments: { loannumber: "447" } }),
      makeEvent({ outcome: { valid: false, category: "not_allowed", message: "Error: refunds above 500 need approval." } }),
      makeEvent({ timestamp: "yesterday" }),
      makeEvent({ tokens: 12 }),
      { ...valid },
    ];
    const result = await p.api.ingest.batch({ events });
    expect(result).toEqual({
      accepted: 9,
      duplicates: 1,
      rejected: [
        {
          index: 9,
          id: events[9]!.id,
          path: "events[9].timestamp",
          message: expect.stringMatching(/^events\[9\]\.timestamp: expected an ISO 8601 date with offset.*got "yesterday"$/),
        },
        { index: 10, id: events[10]!.id, path: "events[10]", message: 'events[10]: unknown field "tokens": remove it, or put it in metadata' },
      ],
    });
    const { rows } = await sql.query("SELECT id, valid, category, message FROM tool_calls WHERE project_id = $1 AND id = ANY($2)", [
      p.project.id,
      events.map((e) => e.id),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(events.slice(0, 9).map((e) => byId.get(e.id)?.category ?? "valid")).toEqual([
      "valid",
      "malformed_arguments",
      "unknown_tool",
      "extra_argument",
      "missing_argument",
      "wrong_type",
      "invalid_choice",
      "out_of_range",
      "not_allowed",
    ]);
    expect(byId.get(events[2]!.id).message).toMatch(/getloans.*getloan/);
    expect(byId.get(events[8]!.id).message).toBe("Error: refunds above 500 need approval.");
  });

  it("re-sending a whole batch adds nothing and leaves the rollups unchanged", async () => {
    const events = Array.from({ length: 20 }, (_, i) => makeEvent(i % 3 ? {} : { arguments: {} }));
    expect(await p.api.ingest.batch({ events })).toMatchObject({ accepted: 20, duplicates: 0 });
    const rollups = async () => (await sql.query("SELECT * FROM call_rollups_hourly WHERE project_id = $1 ORDER BY 2,3,4,5,6", [p.project.id])).rows;
    const before = await rollups();
    expect(await p.api.ingest.batch({ events })).toEqual({ accepted: 0, duplicates: 20, rejected: [] });
    expect(await rollups()).toEqual(before);
  });

  it("two concurrent batches with overlapping ids store each id once", async () => {
    const q = await project();
    const shared = Array.from({ length: 300 }, () => makeEvent());
    const a = [...shared, ...Array.from({ length: 200 }, () => makeEvent())];
    const b = [...Array.from({ length: 200 }, () => makeEvent()), ...shared.slice().reverse()];
    const [ra, rb] = await Promise.all([q.api.ingest.batch({ events: a }), q.api.ingest.batch({ events: b })]);
    expect(ra.accepted + rb.accepted).toBe(700);
    expect(ra.duplicates + rb.duplicates).toBe(300);
    expect(await rawCount(q.project.id)).toBe(700);
    expect(await rollupMatchesRaw(q.project.id)).toEqual([]);
    expect(await rollupsDifferFromRaw(sql, q.project.id)).toEqual({});
  });

  it("concurrent batches over the same runs all land, in whatever order they lock rows", async () => {
    const q = await project();
    const runs = Array.from({ length: 30 }, (_, i) => `busy-run-${i}`);
    const events = Array.from({ length: 600 }, (_, i) =>
      makeEvent({
        runId: runs[i % 30],
        step: Math.floor(i / 30),
        arguments: i % 4 === 0 ? {} : { loannumber: "4471" },
        timestamp: new Date(Date.UTC(2026, 10, 1 + (i % 3), i % 24)).toISOString(),
      }),
    );
    // six batches, each a different shuffle of overlapping slices, sent at once
    const batches = Array.from({ length: 6 }, (_, b) => events.filter((_, i) => (i + b) % 3 !== 0).sort(() => Math.random() - 0.5));
    const results = await Promise.all(batches.map((batch) => q.api.ingest.batch({ events: batch })));
    expect(results.every((r) => r.rejected.length === 0)).toBe(true);
    expect(results.reduce((sum, r) => sum + r.accepted, 0)).toBe(600);
    expect(await rawCount(q.project.id)).toBe(600);
    expect(await rollupMatchesRaw(q.project.id)).toEqual([]);
    expect(await rollupsDifferFromRaw(sql, q.project.id)).toEqual({});
  });

  it("rollup counts equal count(*) over the raw table after a random mix of batches", async () => {
    const q = await project();
    const runs = Array.from({ length: 40 }, (_, i) => `mix-run-${i}`);
    const pool = Array.from({ length: 400 }, (_, i) =>
      makeEvent({
        runId: runs[i % 40],
        step: Math.floor(i / 40),
        tool: ["getloan", "listopenloans", "nosuchtool"][i % 3],
        arguments: i % 7 === 0 ? {} : i % 3 === 1 ? { status: "open" } : { loannumber: "4471" },
        timestamp: new Date(Date.UTC(2026, 10, 1 + (i % 4), i % 24)).toISOString(),
        model: { name: i % 2 ? "m1" : "m2", ...(i % 4 ? { version: `v${i % 3}` } : {}) },
        usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.001 },
      }),
    );
    for (let round = 0; round < 6; round++) {
      const batch = Array.from({ length: 120 }, () => pool[Math.floor(Math.random() * pool.length)]!);
      await q.api.ingest.batch({ events: batch });
    }
    expect(await rollupMatchesRaw(q.project.id)).toEqual([]);
    expect(await rollupsDifferFromRaw(sql, q.project.id)).toEqual({});
    const { rows } = await sql.query(
      "SELECT sum(followed)::int AS followed, sum(recovered)::int AS recovered, sum(sent)::int AS sent FROM error_message_rollups_daily WHERE project_id = $1",
      [q.project.id],
    );
    // the mix exercises corrections that recovered and corrections that were invalid again
    expect(rows[0].recovered).toBeGreaterThan(0);
    expect(rows[0].followed).toBeGreaterThan(rows[0].recovered);
    expect(rows[0].sent).toBeGreaterThan(rows[0].followed);
  });

  it("deleting the project removes its calls and every rollup row", async () => {
    const q = await project();
    await q.api.ingest.batch({ events: [makeEvent(), makeEvent({ arguments: {} })] });
    // the coarse rollups as the worker keeps them, and a later batch's stale day
    await refreshCoarseRollups({ projectId: q.project.id });
    await q.api.ingest.batch({ events: [makeEvent()] });
    const tables = ["tool_calls", ...ROLLUP_TABLES.map((r) => r.table)];
    const counts = async () => {
      const rows: Record<string, number> = {};
      for (const table of tables) rows[table] = (await sql.query(`SELECT count(*)::int AS n FROM ${table} WHERE project_id = $1`, [q.project.id])).rows[0].n;
      return rows;
    };
    expect(Object.values(await counts()).every((n) => n > 0)).toBe(true);
    await q.owner.projects.delete({ project: q.project.slug });
    expect(await counts()).toEqual(Object.fromEntries(tables.map((t) => [t, 0])));
  });

  it("refuses a batch over 1,000 events whole, saying the limit", async () => {
    const events = Array.from({ length: 1001 }, () => makeEvent());
    await expect(p.api.ingest.batch({ events })).rejects.toThrow(/at most 1,000 events; this one has 1,001/);
  });

  it("writes nothing for a request without a key or with a revoked key", async () => {
    const q = await project();
    const { key, id } = await q.key("to revoke");
    await q.owner.apiKeys.revoke({ project: q.project.slug, keyId: id });
    for (const caller of [callerWith(), withKey(key), withKey("tg_short")]) {
      await expect(caller.ingest.batch({ events: [makeEvent()] })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    }
    expect(await rawCount(q.project.id)).toBe(0);
  });

  it("keeps both verdicts when the harness and Toolgate disagree; the harness's is primary", async () => {
    const event = makeEvent({ arguments: { loannumber: "12" }, outcome: { valid: true } });
    await p.api.ingest.batch({ events: [event] });
    const call = await p.owner.calls.byId({ project: p.project.slug, id: event.id });
    expect(call).toMatchObject({ valid: true, category: null, checkedValid: false, checkedCategory: "out_of_range", verdictsDiffer: true });
    const refused = makeEvent({ outcome: { valid: false, category: "not_allowed", message: "Needs approval." } });
    await p.api.ingest.batch({ events: [refused] });
    expect(await p.owner.calls.byId({ project: p.project.slug, id: refused.id })).toMatchObject({ valid: false, checkedValid: true, verdictsDiffer: false });
  });

  it("stores __proto__ and constructor keys as inert data", async () => {
    const event = JSON.parse(
      JSON.stringify(makeEvent()).replace('"loannumber"', '"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"loannumber"'),
    );
    await p.api.ingest.batch({ events: [event] });
    const call = await p.owner.calls.byId({ project: p.project.slug, id: event.id });
    expect(Object.keys(call.arguments as object).sort()).toEqual(["__proto__", "constructor", "loannumber"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("pairing each invalid call with its next corrected call", () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 10, minute)).toISOString();

  for (const order of ["before", "with", "after"] as const) {
    it(`works when the correction arrives ${order} the invalid call`, async () => {
      const p = await project();
      const runId = `run-${order}`;
      const bad = makeEvent({ runId, step: 1, timestamp: at(1), arguments: { loannumber: "447" } });
      const otherTool = makeEvent({ runId, step: 2, timestamp: at(2), tool: "listopenloans", arguments: { status: "open" } });
      const fixed = makeEvent({ runId, step: 3, timestamp: at(3), arguments: { loannumber: "4471" } });
      const later = makeEvent({ runId, step: 4, timestamp: at(4) });
      const batches = {
        before: [
          [fixed, later],
          [otherTool, bad],
        ],
        with: [[later, fixed, bad, otherTool]],
        after: [[bad], [otherTool], [later, fixed]],
      }[order];
      for (const events of batches) await p.api.ingest.batch({ events });
      const call = await p.owner.calls.byId({ project: p.project.slug, id: bad.id });
      expect(call.correction).toMatchObject({ id: fixed.id, valid: true });
      expect(await rollupsDifferFromRaw(sql, p.project.id)).toEqual({});
    });
  }

  it("prefers an explicit correctsId over run order", async () => {
    const p = await project();
    const bad = makeEvent({ runId: "r", step: 1, arguments: {} });
    const next = makeEvent({ runId: "r", step: 2, arguments: { loannumber: "1" } });
    const explicit = makeEvent({ runId: "r", step: 5, correctsId: bad.id });
    await p.api.ingest.batch({ events: [explicit, bad, next] });
    expect((await p.owner.calls.byId({ project: p.project.slug, id: bad.id })).correction).toMatchObject({ id: explicit.id });
  });

  it("moves a message's recovery when a later call re-links the correction", async () => {
    const p = await project();
    const failed = { tool: "getloan", arguments: {}, outcome: { valid: false, category: "missing_argument", message: "Error 422" } };
    const bad = makeEvent({ runId: "r", step: 1, ...failed });
    const fixed = makeEvent({ runId: "r", step: 3, arguments: { loannumber: "4471" } });
    await p.api.ingest.batch({ events: [bad, fixed] });
    const errors = async () =>
      (await p.owner.metrics.errors({ project: p.project.slug, range: { from: "2026-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z" } }))[0];
    expect(await errors()).toMatchObject({ template: "Error <n>", count: 1, followed: 1, recovered: 1 });
    // a call in between, invalid again: now it is the correction, and the first one did not recover
    const between = makeEvent({ runId: "r", step: 2, ...failed });
    await p.api.ingest.batch({ events: [between] });
    expect((await p.owner.calls.byId({ project: p.project.slug, id: bad.id })).correction).toMatchObject({ id: between.id });
    expect(await errors()).toMatchObject({ count: 2, followed: 2, recovered: 1 });
    expect(await rollupsDifferFromRaw(sql, p.project.id)).toEqual({});
  });
});

import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { streamCallsCsv } from "../calls/call-list";
import { pool } from "../../db/client";

const hour = (h: number, minute = 0) => new Date(Date.UTC(2026, 9, 1, h, minute)).toISOString();
const range = { from: "2026-10-01T00:00:00Z", to: "2026-10-02T00:00:00Z" };

async function seeded() {
  const p = await makeProject();
  const api = withKey((await p.key()).key);
  await api.tools.register({ tools: LOAN_TOOLS });
  const v1 = { provider: "acme", name: "acme", version: "v1" };
  const v2 = { provider: "acme", name: "acme", version: "v2" };
  const events = [
    // hour 1: v1, 10 calls, 1 invalid (corrected in the same run)
    ...Array.from({ length: 9 }, (_, i) => makeEvent({ model: v1, timestamp: hour(1, i), runId: "r1", step: i + 1 })),
    makeEvent({ model: v1, timestamp: hour(1, 0), runId: "r1", step: 0, arguments: { loannumber: "12" } }),
    // hour 3 (hour 2 is empty): v2, 4 calls, 2 invalid with the unhelpful message
    ...Array.from({ length: 2 }, (_, i) => makeEvent({ model: v2, timestamp: hour(3, i), runId: `r2-${i}`, step: 1 })),
    ...Array.from({ length: 2 }, (_, i) =>
      makeEvent({
        model: v2,
        timestamp: hour(3, 0),
        runId: `r2-${i}`,
        step: 0,
        arguments: {},
        outcome: { valid: false, category: "missing_argument", message: "Error 422" },
      }),
    ),
  ];
  expect(await api.ingest.batch({ events })).toMatchObject({ accepted: 14 });
  const owner = await p.asOwner();
  return { ...p, owner, q: { project: p.project.slug, range } };
}

describe("metrics from the rollups", () => {
  it("totals over the range and the previous period", async () => {
    const { owner, q } = await seeded();
    const { current, previous } = await owner.metrics.totals(q);
    expect(current).toMatchObject({ calls: 14, invalid: 3, corrected: 3 });
    expect(previous.calls).toBe(0);
    expect((await owner.metrics.totals({ ...q, scope: { modelVersion: "v2" } })).current).toMatchObject({ calls: 4, invalid: 2 });
  });

  it("series per model version has hourly buckets and no row for an empty hour", async () => {
    const { owner, q } = await seeded();
    const { bucket, rows } = await owner.metrics.series({ ...q, dimension: "modelVersion" });
    expect(bucket).toBe("hour");
    expect(rows.map((r) => [r.bucket, r.key, r.calls, r.invalid])).toEqual([
      ["2026-10-01T01:00:00.000Z", "acme v1", 10, 1],
      ["2026-10-01T03:00:00.000Z", "acme v2", 4, 2],
    ]);
  });

  it("series over more than three days has UTC day buckets", async () => {
    const { owner, q } = await seeded();
    const week = { from: "2026-09-30T22:30:00Z", to: "2026-10-07T00:00:00Z" };
    const byVersion = await owner.metrics.series({ ...q, range: week, dimension: "modelVersion" });
    expect(byVersion.bucket).toBe("day");
    expect(byVersion.rows.map((r) => [r.bucket, r.key, r.calls, r.invalid, r.corrected])).toEqual([
      ["2026-10-01T00:00:00.000Z", "acme v1", 10, 1, 1],
      ["2026-10-01T00:00:00.000Z", "acme v2", 4, 2, 2],
    ]);
    const byCategory = await owner.metrics.series({ ...q, range: week, dimension: "category" });
    expect(byCategory.rows.map((r) => [r.bucket, r.key, r.invalid])).toEqual([
      ["2026-10-01T00:00:00.000Z", "missing_argument", 2],
      ["2026-10-01T00:00:00.000Z", "out_of_range", 1],
    ]);
  });

  it("tool table names the most common category; compare flags nothing on tiny samples", async () => {
    const { owner, q } = await seeded();
    expect(await owner.metrics.tools(q)).toEqual([expect.objectContaining({ tool: "getloan", calls: 14, invalid: 3, topCategory: "missing_argument" })]);
    const cmp = await owner.metrics.compare({ project: q.project, range, a: { model: "acme", version: "v1" }, b: { model: "acme", version: "v2" } });
    expect(cmp.byTool[0]).toMatchObject({ key: "getloan", verdict: "insufficient data" });
  });

  it("error messages are grouped by template with their recovery rate", async () => {
    const { owner, q } = await seeded();
    const groups = await owner.metrics.errors(q);
    const e422 = groups.find((g) => g.template === "Error <n>");
    expect(e422).toMatchObject({ count: 2, followed: 2, recovered: 2, recoveryRate: 1 });
    expect(groups.find((g) => g.examples[0]?.includes("loannumber"))).toMatchObject({ count: 1, recovered: 1 });
  });

  it("a range of several days adds whole days to the partial first and last day", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const failed = { arguments: {}, outcome: { valid: false, category: "missing_argument", message: "Error 422" } };
    const at = (iso: string, extra = {}) => makeEvent({ timestamp: iso, runId: iso, ...extra });
    const events = [
      at("2026-10-10T05:59:00Z", failed), // before the range's first hour
      at("2026-10-10T06:45:00Z", failed), // first, partial day: read by the hour
      at("2026-10-11T12:00:00Z"), // whole days
      at("2026-10-12T20:00:00Z", failed),
      at("2026-10-13T00:30:00Z", failed), // last, partial day
      at("2026-10-13T01:00:00Z", failed), // at the range's end: excluded
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: 6 });
    const owner = await p.asOwner();
    const q = { project: p.project.slug, range: { from: "2026-10-10T06:30:00Z", to: "2026-10-13T01:00:00Z" } };
    expect((await owner.metrics.totals(q)).current).toMatchObject({ calls: 4, invalid: 3 });
    const { bucket, rows } = await owner.metrics.series({ ...q, dimension: "none" });
    expect(bucket).toBe("hour"); // under three days and a bit: hour buckets, all from the hourly rollups
    expect(rows.map((r) => [r.bucket, r.calls])).toEqual([
      ["2026-10-10T06:00:00.000Z", 1],
      ["2026-10-11T12:00:00.000Z", 1],
      ["2026-10-12T20:00:00.000Z", 1],
      ["2026-10-13T00:00:00.000Z", 1],
    ]);
    expect(await owner.metrics.errors(q)).toEqual([expect.objectContaining({ template: "Error <n>", count: 3 })]);
  });

  it("a correction that is itself invalid is followed but not recovered", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    const failed = { arguments: {}, outcome: { valid: false, category: "missing_argument", message: "Error 422" } };
    const events = [
      makeEvent({ runId: "r", step: 0, timestamp: hour(5, 0), ...failed }),
      makeEvent({ runId: "r", step: 1, timestamp: hour(5, 1), ...failed }),
      makeEvent({ runId: "r", step: 2, timestamp: hour(5, 2) }),
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: 3 });
    const groups = await (await p.asOwner()).metrics.errors({ project: p.project.slug, range });
    expect(groups).toEqual([expect.objectContaining({ template: "Error <n>", count: 2, followed: 2, recovered: 1, recoveryRate: 0.5 })]);
  });
});

describe("drill-down over raw calls", () => {
  it("pages the explorer by cursor without repeats and streams the filtered CSV", async () => {
    const { owner, q, project } = await seeded();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await owner.calls.list({ project: q.project, filter: { from: range.from, to: range.to }, cursor, limit: 5 });
      seen.push(...page.calls.map((c) => c.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(14);
    expect(new Set(seen).size).toBe(14);

    // oldest first (the explorer's time header): the same calls in the opposite order, paged by the same cursor
    const oldest: string[] = [];
    const times: number[] = [];
    cursor = undefined;
    do {
      const page = await owner.calls.list({ project: q.project, filter: { from: range.from, to: range.to }, cursor, limit: 5, order: "oldest" });
      oldest.push(...page.calls.map((c) => c.id));
      times.push(...page.calls.map((c) => new Date(c.timestamp).getTime()));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(oldest).toEqual([...seen].reverse());
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const invalidOnly = await owner.calls.list({ project: q.project, filter: { valid: "invalid", q: "422" } });
    expect(invalidOnly.calls).toHaveLength(2);

    const csv = await new Response(await streamCallsCsv(project.id, { valid: "invalid" })).text();
    const lines = csv.trim().split("\n");
    expect(lines[0]).toMatch(/^id,run_id,step,timestamp/);
    expect(lines).toHaveLength(4);
    await expect(owner.calls.list({ project: q.project, filter: {}, cursor: "garbage" })).rejects.toThrow(/cursor/);
  });

  it("the run timeline and a call's neighbours and attempts", async () => {
    const { owner, q } = await seeded();
    const run = await owner.calls.run({ project: q.project, runId: "r1" });
    expect(run).toMatchObject({ attempts: 10, successes: 9, invalid: 1, unchecked: 0 });
    const bad = run.calls[0]!;
    const detail = await owner.calls.byId({ project: q.project, id: bad.id });
    expect(detail).toMatchObject({ previousInRun: null, nextInRun: run.calls[1]!.id, attemptsUntilSuccess: 2, correction: { valid: true } });
  });
});

describe("message templates at read time", () => {
  it("keep the schema's argument names, mask what the model sent, and group rollup rows stored before them", async () => {
    const p = await makeProject();
    const api = withKey((await p.key()).key);
    await api.tools.register({ tools: LOAN_TOOLS });
    // the classifier's own messages: a short and a long value sent for loannumber, and a made-up argument name
    const events = [
      makeEvent({ timestamp: hour(6, 0), arguments: { loannumber: 12 } }),
      makeEvent({ timestamp: hour(6, 1), arguments: { loannumber: Array.from({ length: 200 }, (_, i) => i) } }),
      makeEvent({ timestamp: hour(6, 2), arguments: { loannumber: "4471", loanid: "4471" } }),
      makeEvent({ timestamp: hour(6, 3), arguments: { loannumber: "4471", loan_ref: "x" } }),
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: 4 });
    // a row of the rollups as an older Toolgate stored it: its message, never a template
    for (const [table, column, at] of [
      ["error_message_rollups_hourly", "hour", hour(7)],
      ["error_message_rollups_daily", "day", range.from],
    ])
      await pool().query(
        `INSERT INTO ${table} AS r (project_id, ${column}, tool, message_hash, message, sent) VALUES ($1, $2, 'getloan', md5($3)::uuid, $3, 5)`,
        [p.project.id, at, "Error: 'loannumber' must be a string, you sent the number 99. Send it as \"99\"."],
      );
    const groups = await (await p.asOwner()).metrics.errors({ project: p.project.slug, range });
    const templates = Object.fromEntries(groups.map((g) => [g.template, g.count]));
    expect(templates).toMatchObject({ "Error: 'loannumber' must be a string, you sent the number <n>. Send it as <value>.": 6 });
    const madeUp = groups.find((g) => g.template.startsWith("Error: '<value>' is not an argument of getloan."));
    expect(madeUp).toMatchObject({ count: 2 });
    expect(groups.every((g) => !g.template.includes("'loanid'") && !g.template.includes("'loan_ref'"))).toBe(true);
  });
});

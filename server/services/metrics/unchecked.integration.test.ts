import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pool } from "../../db/client";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { makeProject, withKey } from "../../../test/fixtures";
import { rollupsDifferFromRaw } from "../../../test/rollups";
import { CALL_ROLLUPS, granularities } from "../rollups/tables";

// A call nobody could check (no schema registered, no harness verdict) is neither valid nor
// invalid: every answer that counts calls counts it as unchecked, and no invalid rate comes of it.

const timestamp = "2026-10-01T10:00:00.000Z";
const range = { from: "2026-10-01T00:00:00Z", to: "2026-10-02T00:00:00Z" };

async function oneUncheckedCall() {
  const p = await makeProject();
  const ingest = withKey((await p.key("harness")).key);
  const read = withKey((await p.key("ci", "read")).key);
  const owner = await p.asOwner();
  expect(await ingest.ingest.batch({ events: [makeEvent({ timestamp, id: "first-call" })] })).toMatchObject({ accepted: 1 });
  return { p, ingest, read, owner, project: p.project.slug };
}

describe("an unchecked call is counted apart everywhere", () => {
  it("totals, series, breakdowns, the tool table, the comparison, the explorer and metrics.summary", async () => {
    const { read, owner, project } = await oneUncheckedCall();
    const input = { project, range };

    const totals = await owner.metrics.totals(input);
    expect(totals.current).toMatchObject({ calls: 1, invalid: 0, unchecked: 1 });
    const [row] = (await owner.metrics.series({ ...input, dimension: "tool" })).rows;
    expect(row).toMatchObject({ key: "getloan", calls: 1, invalid: 0, unchecked: 1 });
    expect(await owner.metrics.tools(input)).toEqual([expect.objectContaining({ tool: "getloan", calls: 1, invalid: 0, unchecked: 1 })]);
    expect(await owner.metrics.breakdown({ ...input, dimension: "model" })).toEqual([expect.objectContaining({ calls: 1, unchecked: 1 })]);
    // the comparison's denominators are checked calls: none here, so no rate on either side
    const version = { model: "acme-large", version: "2026-10" };
    const compared = await owner.metrics.compare({ ...input, a: version, b: version });
    expect(compared.byTool.map((t) => [t.key, t.a.rate, t.b.rate])).toEqual([["getloan", null, null]]);

    // the explorer's verdict filter: unchecked only, never among the valid calls
    const list = (valid: "valid" | "invalid" | "unchecked") => owner.calls.list({ project, filter: { valid }, limit: 10 }).then((r) => r.calls.length);
    expect([await list("valid"), await list("invalid"), await list("unchecked")]).toEqual([0, 0, 1]);

    const summary = await read.metrics.summary({ range });
    expect(summary.totals).toMatchObject({ calls: 1, valid: 0, invalid: 0, unchecked: 1, invalidRate: null, attemptsPerSuccess: null });
    expect(summary.tools).toEqual([expect.objectContaining({ tool: "getloan", valid: 0, unchecked: 1, invalidRate: null })]);
    expect(summary.modelVersions).toEqual([expect.objectContaining({ valid: 0, unchecked: 1, invalidRate: null })]);
  });

  it("a run's timeline counts its unchecked calls apart: not successes, not invalid, not in the attempts per success", async () => {
    const { ingest, owner, project } = await oneUncheckedCall();
    const runId = "mixed-run";
    const call = (step: number, outcome?: { valid: boolean }) => makeEvent({ runId, step, timestamp, ...(outcome ? { outcome } : {}) });
    await ingest.ingest.batch({ events: [call(0, { valid: false }), call(1, { valid: true }), call(2), call(3), call(4, { valid: true })] });
    expect(await owner.calls.run({ project, runId })).toMatchObject({ attempts: 5, successes: 2, invalid: 1, unchecked: 2, attemptsPerSuccess: 1.5 });
    const allUnchecked = await owner.calls.run({
      project,
      runId: (await owner.calls.list({ project, filter: { valid: "unchecked" }, limit: 10 })).calls.find((c) => c.id === "first-call")!.runId,
    });
    expect(allUnchecked).toMatchObject({ attempts: 1, successes: 0, invalid: 0, unchecked: 1, attemptsPerSuccess: null });
  });

  it("registering the schema and re-checking moves the call from unchecked to valid, in the rollups too", async () => {
    const { ingest, read, owner, project, p } = await oneUncheckedCall();
    await ingest.tools.register({ tools: LOAN_TOOLS });
    // a checked call beside it: one invalid (the rate's denominator is 1, not 2)
    await ingest.ingest.batch({ events: [makeEvent({ timestamp, arguments: { loannumber: 12 } })] });
    expect((await read.metrics.summary({ range })).totals).toMatchObject({ calls: 2, valid: 0, invalid: 1, unchecked: 1, invalidRate: 1 });

    await owner.tools.recheck({ project, tool: "getloan", range });
    expect((await read.metrics.summary({ range })).totals).toMatchObject({ calls: 2, valid: 1, invalid: 1, unchecked: 0, invalidRate: 0.5 });
    expect(await rollupsDifferFromRaw(pool(), p.project.id)).toEqual({});
  });

  it("the migration counts the calls stored unchecked before it in the rollups that hold them", async () => {
    const { read, p } = await oneUncheckedCall();
    // as before the migration: the rollups had no unchecked count
    for (const { table } of granularities(CALL_ROLLUPS)) await pool().query(`UPDATE ${table} SET unchecked = 0 WHERE project_id = $1`, [p.project.id]);
    expect((await read.metrics.summary({ range })).totals).toMatchObject({ unchecked: 0, valid: 1 });

    const migration = readFileSync(new URL("../../../prisma/migrations/20261205040000_rollups_count_unchecked/migration.sql", import.meta.url), "utf8");
    const updates = migration.split(/;\s*\n/).filter((statement) => /^\s*UPDATE/m.test(statement.replace(/^--.*$/gm, "")));
    expect(updates).toHaveLength(2);
    for (const statement of updates) await pool().query(statement);
    // then the later migrations that fill the coarse rollups (per tool, per model version) from those rows
    for (const [name, table] of [
      ["20261205230000_call_rollups_per_tool_daily", "call_rollups_tool_daily"],
      ["20261206021000_call_rollups_per_model_daily", "call_rollups_model_daily"],
    ]) {
      const later = readFileSync(new URL(`../../../prisma/migrations/${name}/migration.sql`, import.meta.url), "utf8");
      // run for this project only: other test files write their projects' rollups meanwhile
      const fill = later.slice(later.indexOf("-- Fill it")).replace('FROM "call_rollups_daily"', 'FROM "call_rollups_daily" WHERE "project_id" = $1');
      expect(fill).toContain('WHERE "project_id" = $1');
      await pool().query(`DELETE FROM ${table} WHERE project_id = $1`, [p.project.id]);
      await pool().query(fill, [p.project.id]);
    }

    expect((await read.metrics.summary({ range })).totals).toMatchObject({ calls: 1, valid: 0, unchecked: 1, invalidRate: null });
    expect(await rollupsDifferFromRaw(pool(), p.project.id)).toEqual({});
  });
});

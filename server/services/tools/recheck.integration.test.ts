import { describe, expect, it } from "vitest";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { projectWithKey, withKey } from "../../../test/fixtures";
import { rollupsDifferFromRaw } from "../../../test/rollups";
import { pool } from "../../db/client";

// Tools without a schema: calls stored unchecked, a schema pasted in the browser's shape (an MCP
// tools/list result) through the browser's procedure, then tools.recheck gives those calls the
// verdicts ingestion would have given them, and the dashboards' figures follow.

const range = { from: "2026-11-30T00:00:00Z", to: "2026-12-01T00:00:00Z" };
const getloan = LOAN_TOOLS[0]!;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 9, minute)).toISOString();

async function unchecked() {
  const p = await projectWithKey();
  const harness = withKey(p.key);
  const events = [
    // run a: a call missing its argument, corrected by the next call of the same tool
    makeEvent({ id: "a0", runId: "a", step: 0, timestamp: at(0), arguments: {} }),
    makeEvent({ id: "a1", runId: "a", step: 1, timestamp: at(1), arguments: { loannumber: "4471" } }),
    // run b: a wrong type (an hour later), corrected by a call that is still invalid
    makeEvent({ id: "b0", runId: "b", step: 0, timestamp: at(70), arguments: { loannumber: 4471 } }),
    makeEvent({ id: "b1", runId: "b", step: 1, timestamp: at(71), arguments: { loannumber: "44" } }),
    makeEvent({ id: "c0", runId: "c", step: 0, timestamp: at(72), arguments: { loannumber: "9000" } }),
    // a tool that will still have no schema
    makeEvent({ id: "x0", runId: "c", step: 1, timestamp: at(73), tool: "searchpayments", arguments: { loannumber: "9000" } }),
  ];
  expect(await harness.ingest.batch({ events })).toMatchObject({ accepted: 6 });
  return { ...p, owner: await p.asOwner() };
}

const rows = async (projectId: string) =>
  (
    await pool().query<{
      id: string;
      valid: boolean | null;
      category: string | null;
      checked_version: string | null;
      correction_id: string | null;
      pattern: string | null;
    }>(`SELECT id, valid, category, checked_version, correction_id, pattern FROM tool_calls WHERE project_id = $1 ORDER BY id`, [projectId])
  ).rows;

describe("tools without a schema, registered in the browser and re-checked", () => {
  it("names the tools without a schema with their unchecked calls, and re-checks them once a schema is pasted", async () => {
    const { project, owner } = await unchecked();
    const input = { project: project.slug, range };

    expect(await owner.tools.unregistered({ project: project.slug })).toEqual({
      anySchema: false,
      tools: [
        { tool: "getloan", calls: 5, notChecked: 5 },
        { tool: "searchpayments", calls: 1, notChecked: 1 },
      ],
    });
    expect(await owner.metrics.totals(input)).toMatchObject({ current: { calls: 6, invalid: 0, corrected: 0 } });

    // the browser's paste: a whole MCP tools/list answer
    const list = { jsonrpc: "2.0", id: 1, result: { tools: [{ name: getloan.name, description: getloan.description, inputSchema: getloan.parameters }] } };
    const { tools } = await owner.tools.registerPasted({ project: project.slug, definitions: JSON.stringify(list) });
    expect(tools).toEqual([{ name: "getloan", version: expect.stringMatching(/^[0-9a-f]{12}$/), created: true }]);
    // stored as registered in the browser (the tool page says so), not as the harness API's "api"
    expect((await owner.tools.list({ project: project.slug })).map((t) => [t.name, t.source])).toEqual([["getloan", "ui"]]);
    // registering changes no stored verdict by itself
    expect((await rows(project.id)).every((r) => r.checked_version === null)).toBe(true);

    const result = await owner.tools.recheck({ project: project.slug, tool: "getloan", range });
    expect(result).toMatchObject({
      tool: "getloan",
      version: tools[0]!.version,
      scanned: 5,
      changed: 5,
      valid: 2,
      invalid: 3,
      complete: true,
      stoppedBy: null,
    });
    expect(result.byCategory).toEqual(
      expect.arrayContaining([
        { category: "missing_argument", invalid: 1 },
        { category: "wrong_type", invalid: 1 },
        { category: "out_of_range", invalid: 1 },
      ]),
    );
    expect(result.summary).toMatch(/^Re-checked 5 calls of getloan against version [0-9a-f]{12}: 3 invalid \(.+\), 2 valid; 5 verdicts changed\.$/);

    const byId = Object.fromEntries((await rows(project.id)).map((r) => [r.id, r]));
    expect(byId.a0).toMatchObject({ valid: false, category: "missing_argument", checked_version: tools[0]!.version, correction_id: "a1" });
    expect(byId.a0!.pattern).not.toBeNull();
    expect(byId.a1).toMatchObject({ valid: true, category: null, correction_id: null });
    expect(byId.b0).toMatchObject({ valid: false, category: "wrong_type", correction_id: "b1" });
    expect(byId.b1).toMatchObject({ valid: false, category: "out_of_range", correction_id: null });
    expect(byId.x0).toMatchObject({ valid: null, checked_version: null }); // no schema: left as it was

    // the dashboards read the rollups: they now say what the raw calls say
    expect(await rollupsDifferFromRaw(pool(), project.id)).toEqual({});
    expect(await owner.metrics.totals(input)).toMatchObject({ current: { calls: 6, invalid: 3, corrected: 2 } });
    const categories = await owner.metrics.breakdown({ ...input, dimension: "category" });
    expect(Object.fromEntries(categories.map((c) => [c.key, c.invalid]))).toEqual({ missing_argument: 1, wrong_type: 1, out_of_range: 1 });
    expect((await owner.metrics.errors({ project: project.slug, range, tool: "getloan" })).length).toBeGreaterThan(0);

    expect(await owner.tools.unregistered({ project: project.slug })).toEqual({
      anySchema: true,
      tools: [{ tool: "searchpayments", calls: 1, notChecked: 1 }],
    });
    // a second re-check finds nothing left to do
    expect(await owner.tools.recheck({ project: project.slug, tool: "getloan", range })).toMatchObject({ scanned: 0, changed: 0 });
  });

  it("a tool still without a schema, once the project has schemas: its unchecked calls become unknown-tool calls, paired with their correction", async () => {
    const { project, owner, key } = await unchecked();
    // run d: a made-up tool name, then the real tool, the second naming the first as the call it corrects (as OTLP's tool results do)
    const events = [
      makeEvent({ id: "d0", runId: "d", step: 0, timestamp: at(80), tool: "getloans", arguments: { loannumber: "4471" } }),
      makeEvent({ id: "d1", runId: "d", step: 1, timestamp: at(81), arguments: { loannumber: "4471" }, correctsId: "d0" }),
    ];
    expect(await withKey(key).ingest.batch({ events })).toMatchObject({ accepted: 2 });
    await owner.tools.registerPasted({ project: project.slug, definitions: JSON.stringify([{ name: getloan.name, input_schema: getloan.parameters }]) });
    await owner.tools.recheck({ project: project.slug, tool: "getloan", range });
    expect(await owner.tools.unregistered({ project: project.slug })).toEqual({
      anySchema: true,
      tools: [
        { tool: "getloans", calls: 1, notChecked: 1 },
        { tool: "searchpayments", calls: 1, notChecked: 1 },
      ],
    });

    const result = await owner.tools.recheck({ project: project.slug, tool: "getloans", range });
    expect(result).toMatchObject({ tool: "getloans", version: null, scanned: 1, changed: 1, valid: 0, invalid: 1, complete: true });
    expect(result.byCategory).toEqual([{ category: "unknown_tool", invalid: 1 }]);
    expect(result.summary).toBe(
      "Re-checked 1 call of getloans, which has no schema while this project has others: 1 invalid (Unknown tool 1), 0 valid; 1 verdict changed. If it is a real tool, register its schema.",
    );
    const byId = Object.fromEntries((await rows(project.id)).map((r) => [r.id, r]));
    expect(byId.d0).toMatchObject({ valid: false, category: "unknown_tool", checked_version: null, correction_id: "d1" });
    expect(byId.x0).toMatchObject({ valid: null }); // another tool's calls: left to its own re-check
    expect(await rollupsDifferFromRaw(pool(), project.id)).toEqual({});
    expect(await owner.metrics.totals({ project: project.slug, range })).toMatchObject({ current: { calls: 8, invalid: 4, corrected: 3 } });
    // no longer a tool with unchecked calls: its calls are unknown-tool calls now (the Tools page's "Unknown tool names")
    expect(await owner.tools.unregistered({ project: project.slug })).toEqual({
      anySchema: true,
      tools: [{ tool: "searchpayments", calls: 1, notChecked: 1 }],
    });
    // done once: classified calls are not taken again
    expect(await owner.tools.recheck({ project: project.slug, tool: "getloans", range })).toMatchObject({ scanned: 0, changed: 0 });
  });

  it("a correction whose re-check makes it invalid no longer recovers the call it corrects: the link stays, the patterns and rollups follow", async () => {
    const p = await projectWithKey();
    const owner = await p.asOwner();
    // e0 invalid by the harness's verdict, e1 its correction (the next getloan call), stored unchecked: so far a recovery
    const events = [
      makeEvent({
        id: "e0",
        runId: "e",
        step: 0,
        timestamp: at(10),
        arguments: {},
        outcome: { valid: false, category: "missing_argument", message: "loannumber is required" },
      }),
      makeEvent({ id: "e1", runId: "e", step: 1, timestamp: at(11), arguments: { loannumber: 4471 } }),
    ];
    expect(await withKey(p.key).ingest.batch({ events })).toMatchObject({ accepted: 2 });
    const patterns = async () =>
      (await owner.tools.patterns({ project: p.project.slug, tool: "getloan", range })).patterns.map((x) => [x.failures, x.followed, x.recovered]);
    expect(await patterns()).toEqual([[1, 1, 1]]);
    expect(await rollupsDifferFromRaw(pool(), p.project.id)).toEqual({});

    await owner.tools.registerPasted({ project: p.project.slug, definitions: JSON.stringify([{ name: getloan.name, input_schema: getloan.parameters }]) });
    await owner.tools.recheck({ project: p.project.slug, tool: "getloan", range });
    const byId = Object.fromEntries((await rows(p.project.id)).map((r) => [r.id, r]));
    expect(byId.e0).toMatchObject({ valid: false, correction_id: "e1" });
    expect(byId.e1).toMatchObject({ valid: false, category: "wrong_type" });
    // e0 still followed by e1, which no longer recovered it; e1 is a failure of its own, not followed
    expect(await patterns()).toEqual(
      expect.arrayContaining([
        [1, 1, 0],
        [1, 0, 0],
      ]),
    );
    expect(await rollupsDifferFromRaw(pool(), p.project.id)).toEqual({});
  });

  it("refuses what it cannot do, saying why and what to do", async () => {
    const { project, owner, member } = await unchecked();
    await expect(owner.tools.recheck({ project: project.slug, tool: "searchpayments", range })).rejects.toThrow(
      /No schema is registered for 'searchpayments' \(this project has none yet\).+Register its definition first/,
    );
    const viewer = await member("viewer");
    await expect(viewer.tools.recheck({ project: project.slug, tool: "getloan", range })).rejects.toThrow(/needs the admin role/);
    await expect(viewer.tools.registerPasted({ project: project.slug, definitions: "[]" })).rejects.toThrow(/needs the admin role/);
    await expect(owner.tools.registerPasted({ project: project.slug, definitions: "{name: getloan}" })).rejects.toThrow(
      /not valid JSON .+you sent "\{name: getloan\}"/,
    );
    await expect(
      owner.tools.registerPasted({ project: project.slug, definitions: JSON.stringify([{ name: "getloan", inputSchema: "loannumber" }]) }),
    ).rejects.toThrow(/tools\[0\]: Error: 'inputSchema' of tool 'getloan' must be a JSON Schema object, you sent the string "loannumber"/);
    // a bare JSON Schema with the name given in the form
    const { tools } = await owner.tools.registerPasted({ project: project.slug, definitions: JSON.stringify(getloan.parameters), name: "getloan" });
    expect(tools).toMatchObject([{ name: "getloan", created: true }]);
  });
});

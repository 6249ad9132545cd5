import { describe, expect, it } from "vitest";
import { makeProject, withKey } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";

const at = (minute: number) => new Date(Date.UTC(2026, 9, 1, 10, minute)).toISOString();
const range = { from: "2026-10-01T00:00:00Z", to: "2026-10-02T00:00:00Z" };

async function seeded() {
  const p = await makeProject();
  const ingest = withKey((await p.key("harness")).key);
  const read = withKey((await p.key("ci", "read")).key);
  await ingest.tools.register({ tools: LOAN_TOOLS });
  const v1 = { name: "acme", version: "v1" };
  const v2 = { name: "acme", version: "v2" };
  const missing = { outcome: { valid: false, category: "missing_argument", message: "Error: missing 'loannumber'." } };
  const events = [
    // eval-1: v1, 4 calls, 1 invalid then corrected
    makeEvent({ model: v1, runId: "eval-1-a", step: 0, timestamp: at(0), arguments: {}, ...missing }),
    ...[1, 2, 3].map((step) => makeEvent({ model: v1, runId: "eval-1-a", step, timestamp: at(step) })),
    // eval-2: v2, 2 calls, 2 invalid, never corrected (different runs)
    ...[0, 1].map((i) => makeEvent({ model: v2, runId: `eval-2-${i}`, timestamp: at(10 + i), arguments: {}, ...missing })),
  ];
  expect(await ingest.ingest.batch({ events })).toMatchObject({ accepted: 6 });
  return { ingest, read, project: p.project };
}

describe("read API keys and metrics.summary", () => {
  it("a read key cannot ingest or register; an ingest key cannot read", async () => {
    const { ingest, read } = await seeded();
    await expect(read.ingest.batch({ events: [makeEvent()] })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/has the read scope and cannot send events or tool schemas: use a key with the ingest scope/),
    });
    await expect(read.tools.register({ tools: LOAN_TOOLS })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(ingest.metrics.summary({ range })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/has the ingest scope and cannot read figures/),
    });
    expect(await read.system.whoami()).toMatchObject({ scope: "read" });
  });

  it("answers the overview's figures by tool, model version and category, for a range or a run id prefix", async () => {
    const { read } = await seeded();
    const all = await read.metrics.summary({ range });
    expect(all.totals).toMatchObject({ calls: 6, invalid: 3, corrected: 1, invalidRate: 0.5 });
    // (successes + corrected) / successes = (3 + 1) / 3
    expect(all.totals.attemptsPerSuccess).toBeCloseTo(4 / 3);
    expect(all.modelVersions.map((m) => [m.version, m.calls, m.invalid, m.invalidRate])).toEqual([
      ["v1", 4, 1, 0.25],
      ["v2", 2, 2, 1],
    ]);
    expect(all.tools).toEqual([expect.objectContaining({ tool: "getloan", calls: 6, invalid: 3, topCategory: "missing_argument" })]);
    expect(all.categories).toEqual([{ category: "missing_argument", invalid: 3, share: 1 }]);
    expect(all.messages[0]).toMatchObject({ count: 3, example: "Error: missing 'loannumber'." });

    const eval1 = await read.metrics.summary({ range, runIdPrefix: "eval-1" });
    expect(eval1.totals).toMatchObject({ calls: 4, invalid: 1, corrected: 1, invalidRate: 0.25 });
    expect(eval1.messages.map((m) => m.count)).toEqual([1]);
    expect((await read.metrics.summary({ range, runIdPrefix: "eval-2", modelVersion: "v2" })).totals).toMatchObject({ calls: 2, invalid: 2 });
    // LIKE wildcards in a prefix are literal
    expect((await read.metrics.summary({ range, runIdPrefix: "eval_" })).totals.calls).toBe(0);
  });
});

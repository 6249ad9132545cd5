import { beforeAll, describe, expect, it } from "vitest";
import { COST_TOOLS, makeProject, projectWithTools, withKey } from "../../../test/fixtures";
import { contextCostOutput } from "../../../contracts/api-answers";
import { definitionTokens } from "../../domain/context-cost";
import { loadDemoData } from "../demo/load-demo";

// Context cost (server/domain/context-cost.ts) from calls stored through ingest.batch: runs built
// for it (two models, one with OpenAI's older tokenizer; usage priced at $2 and $10 per million
// input and output tokens), another project's key, and the demo data.

const TOOLS = COST_TOOLS;

const HOUR = 3_600_000;
const start = Date.now() - 30 * HOUR;
let project: Awaited<ReturnType<typeof projectWithTools>>;
let readKey: string;
beforeAll(async () => {
  project = await projectWithTools(TOOLS);
  ({ readKey } = project);
  const { ingest } = project;
  // 24 calls, one an hour: 18 of get_order, 6 of export_everything; the first 12 by gpt-4o, the others by gpt-4-turbo
  const events = Array.from({ length: 24 }, (_, i) => {
    const [input, output] = [2000 + 300 * (i % 5), 100 + 250 * (i % 3)];
    return {
      id: `cost-${i}`,
      runId: `run-${i}`,
      step: 0,
      timestamp: new Date(start + i * HOUR + 60_000).toISOString(),
      model: { name: i < 12 ? "gpt-4o" : "gpt-4-turbo" },
      tool: i % 4 === 3 ? "export_everything" : "get_order",
      arguments: i % 4 === 3 ? { format: "zip" } : { id: `A${i}` },
      usage: { inputTokens: input, outputTokens: output, costUsd: (input * 2 + output * 10) / 1e6 },
    };
  });
  expect(await ingest.ingest.batch({ events })).toMatchObject({ accepted: 24, rejected: [] });
});

const range = () => ({ from: new Date(start).toISOString(), to: new Date(start + 48 * HOUR).toISOString() });

describe("context cost", () => {
  it("counts each model's calls with its own tokenizer and prices them from the usage, costliest for the least use first", async () => {
    const cost = await withKey(readKey).tools.contextCost({ range: range() });
    expect(cost.days).toBe(2);
    expect(cost.tools.map((t) => [t.name, t.uses])).toEqual([
      ["never_used", 0],
      ["export_everything", 6],
      ["get_order", 18],
    ]);
    const byModel = Object.fromEntries(cost.models.map((m) => [m.model, m]));
    expect(byModel["gpt-4o"]).toMatchObject({ callsPerDay: 6, tokenizer: { encoding: "o200k_base", exact: true }, price: { method: "fit" } });
    expect(byModel["gpt-4-turbo"]).toMatchObject({ callsPerDay: 6, tokenizer: { encoding: "cl100k_base", exact: true } });
    expect(byModel["gpt-4o"]!.price!.usd * 1e6).toBeCloseTo(2, 6);
    const sum = (encoding: "o200k_base" | "cl100k_base") => TOOLS.reduce((s, t) => s + definitionTokens(t, encoding), 0);
    expect(byModel["gpt-4o"]!.setTokens).toBe(sum("o200k_base"));
    expect(byModel["gpt-4-turbo"]!.setTokens).toBe(sum("cl100k_base"));
    const exported = cost.tools.find((t) => t.name === "export_everything")!;
    const perDay = 6 * definitionTokens(TOOLS[1]!, "o200k_base") + 6 * definitionTokens(TOOLS[1]!, "cl100k_base");
    expect(exported.tokensPerDay).toBeCloseTo(perDay, 9);
    expect(exported.usdPerDay).toBeCloseTo(perDay * 2e-6, 9);
    expect(exported.usdPerUse).toBeCloseTo((exported.usdPerDay! * 2) / 6, 9);
    expect(cost.total.usdPerDay).toBeCloseTo(byModel["gpt-4o"]!.setUsdPerDay! + byModel["gpt-4-turbo"]!.setUsdPerDay!, 9);
  });

  it("answers the definitions page the same, and a key of another project nothing", async () => {
    const owner = await project.asOwner();
    const page = await owner.tools.projectContextCost({ project: project.project.slug, range: range() });
    expect(page.tools.map((t) => t.name)).toEqual(["never_used", "export_everything", "get_order"]);
    const other = await makeProject();
    const nothing = await withKey((await other.key("agent", "read")).key).tools.contextCost({ range: range() });
    expect(nothing).toMatchObject({ models: [], tools: [], total: { tokens: 0, tokensPerDay: 0, usdPerDay: null } });
  });

  it("shows on the demo data: every demo model estimated, priced from its usage, every tool with its cost a day, the collections bot's runs with their own set", async () => {
    const demo = await makeProject();
    await loadDemoData(demo.project, { now: new Date(), days: 3, runsPerDay: 120 });
    const cost = contextCostOutput.parse(await withKey((await demo.key("agent", "read")).key).tools.contextCost({}));
    expect(cost.tools).toHaveLength(8);
    expect(cost.models.length).toBeGreaterThanOrEqual(3);
    for (const m of cost.models) {
      expect(m.tokenizer.exact, m.model).toBe(false); // acme and globex publish no tokenizer: an estimate, and said so
      expect(m.price?.method, m.model).toBe("fit");
    }
    // the demo prices acme-large 2026-11 at $3 / $15 per million tokens
    expect(cost.models.find((m) => m.model === "acme-large 2026-11")!.price!.usd * 1e6).toBeCloseTo(3, 1);
    expect(cost.tools.every((t) => t.usdPerDay! > 0 && t.uses > 0)).toBe(true);
    // the collections bot's runs say which five tools they carry; the assistant's say nothing (the registered eight)
    expect(cost.basis).toBe("mixed");
    expect(cost.carried.calls).toBeGreaterThan(0);
    expect(cost.carried.calls).toBeLessThan(cost.carried.of);
    const refund = cost.tools.find((t) => t.name === "refundfee")!;
    const sweep = cost.tools.find((t) => t.name === "listopenloans")!;
    // listopenloans is carried by every call, refundfee only by the assistant's: fewer tokens a day for the same size
    expect(refund.tokensPerDay / refund.tokens).toBeLessThan(sweep.tokensPerDay / sweep.tokens);
  });
});

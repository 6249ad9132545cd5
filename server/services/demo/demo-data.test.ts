import { describe, expect, it } from "vitest";
import { CATEGORIES } from "../../../contracts/categories";
import { eventSchema, type ToolCallEvent } from "../../../contracts/event";
import { classifyCall, registryFrom } from "../../../isomorphic/classify";
import { DEMO_MODELS, DEMO_TOOLS, ERROR_422, generateDemoEvents, REGRESSION_DAYS_AGO } from "./demo-data";
import { invalidRate } from "../../../isomorphic/stats";
import { schemaVersion } from "../../domain/schema-version";
import { findSpirals } from "../../domain/spirals";

const registry = registryFrom(DEMO_TOOLS.map((t) => ({ name: t.name, version: schemaVersion(t.parameters), parameters: t.parameters })));
const now = new Date("2026-11-30T15:00:00Z");
const events = generateDemoEvents({ now });

/** The stored verdict, as ingestion makes it: the harness's when it sent one, otherwise Toolgate's. */
function verdict(e: ToolCallEvent) {
  const checked = classifyCall({ tool: e.tool, arguments: e.arguments, registry });
  return { valid: e.outcome?.valid ?? checked.valid, category: e.outcome ? e.outcome.category : checked.category, checked };
}
const verdicts = new Map(events.map((e) => [e.id, verdict(e)]));
const versionOf = (e: ToolCallEvent) => `${e.model.name}@${e.model.version ?? ""}`;
function runsOf(list: ToolCallEvent[]) {
  const runs = new Map<string, ToolCallEvent[]>();
  for (const e of list) runs.set(e.runId, [...(runs.get(e.runId) ?? []), e]);
  return [...runs.values()];
}

describe("generateDemoEvents", () => {
  it("is deterministic for a seed, and another seed gives other events", () => {
    const window = { now, days: 3 };
    expect(generateDemoEvents(window)).toEqual(generateDemoEvents(window));
    expect(generateDemoEvents({ ...window, seed: 2 }).map((e) => e.id)).not.toEqual(generateDemoEvents(window).map((e) => e.id));
    // A day's runs do not depend on the window: the last 3 days of 30 are the 3 days of 3.
    const recent = new Set(generateDemoEvents(window).map((e) => e.id));
    expect(events.filter((e) => recent.has(e.id)).length).toBe(recent.size);
  });

  it("gives about 200 runs a weekday over 30 days, every event valid against the event schema, ids unique", () => {
    expect(events.length).toBeGreaterThan(15_000);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const rejected = events.filter((e) => !eventSchema.safeParse(e).success);
    expect(rejected).toEqual([]);
    expect(events.every((e) => Date.parse(e.timestamp) <= now.getTime() && Date.parse(e.timestamp) > now.getTime() - 30 * 86_400_000)).toBe(true);
  });

  it("makes runs of consecutive steps and turns, seconds apart, with context growing turn by turn", () => {
    const runs = runsOf(events);
    const broken = runs.filter((run) =>
      run.some((e, i) => {
        const before = run[i - 1];
        if (e.step !== i) return true;
        if (!before) return e.turn !== 0;
        // a call of the same model response: its time, and no usage of its own (the response's went with the first)
        if (e.turn === before.turn) return e.timestamp !== before.timestamp || e.usage !== undefined;
        const turnBefore = run.findLast((x) => x.turn === before.turn && x.usage)!;
        const gap = Date.parse(e.timestamp) - Date.parse(before.timestamp);
        return e.turn !== before.turn! + 1 || gap < 2000 || gap > 60_000 || e.usage!.inputTokens! <= turnBefore.usage!.inputTokens!;
      }),
    );
    expect(broken).toEqual([]);
    const lengths = runs.map((r) => r.length);
    expect(Math.min(...lengths)).toBe(3);
    expect(lengths.filter((n) => n <= 9).length / lengths.length).toBeGreaterThan(0.99);
  });

  it("has the collections bot request its loan lookups together: parallel turns, some where one call is refused while another answers", () => {
    const turns = new Map<string, ToolCallEvent[]>();
    for (const e of events) turns.set(`${e.runId} ${e.turn}`, [...(turns.get(`${e.runId} ${e.turn}`) ?? []), e]);
    const parallel = [...turns.values()].filter((calls) => calls.length > 1);
    expect(parallel.length).toBeGreaterThan(100);
    // loan lookups of the collections bot (a first attempt may misspell the name: "getLoan")
    expect(parallel.every((calls) => calls.every((c) => c.tool.toLowerCase().startsWith("get") && c.metadata!.agent === "collections-bot"))).toBe(true);
    const refused = (c: ToolCallEvent) => verdicts.get(c.id)!.valid === false;
    expect(parallel.filter((calls) => calls.some(refused) && calls.some((c) => !refused(c) && c.result?.status === "ok")).length).toBeGreaterThan(10);
  });

  it("yields every failure category once classified", () => {
    const found = new Set(events.map((e) => verdicts.get(e.id)!.category).filter(Boolean));
    expect([...found].sort()).toEqual([...CATEGORIES].sort());
  });

  it("sends harness verdicts that agree with Toolgate's, except the refund policy Toolgate cannot know", () => {
    const withOutcome = events.filter((e) => e.outcome);
    expect(withOutcome.length).toBeGreaterThan(50);
    for (const e of withOutcome) {
      const { checked } = verdicts.get(e.id)!;
      if (e.outcome!.category === "not_allowed") {
        expect(checked.valid).toBe(true);
        expect(e.tool).toBe("refundfee");
        expect((e.arguments as { amount: number }).amount).toBeGreaterThan(500);
      } else {
        expect(e.outcome).toEqual({ valid: false, category: checked.category, message: ERROR_422 });
      }
    }
  });

  it("hits each model version's invalid rate within ±2 percentage points", () => {
    for (const { model, invalidRate: target } of Object.values(DEMO_MODELS)) {
      const calls = events.filter((e) => versionOf(e) === `${model.name}@${model.version ?? ""}`);
      const rate = invalidRate(calls.filter((e) => !verdicts.get(e.id)!.valid).length, calls.length)!;
      expect(calls.length, model.name).toBeGreaterThan(2000);
      expect(Math.abs(rate - target), `${model.name} ${model.version}: ${rate}`).toBeLessThanOrEqual(0.02);
    }
  });

  it("ships acme-large 2026-11 ten days ago, and it takes most acme-large traffic after", () => {
    const newer = events.filter((e) => e.model.version === "2026-11");
    const first = Math.min(...newer.map((e) => Date.parse(e.timestamp)));
    expect((now.getTime() - first) / 86_400_000).toBeLessThanOrEqual(REGRESSION_DAYS_AGO);
    const lastWeek = events.filter((e) => e.model.name === "acme-large" && Date.parse(e.timestamp) > now.getTime() - 6 * 86_400_000);
    expect(lastWeek.filter((e) => e.model.version === "2026-11").length / lastWeek.length).toBeGreaterThan(0.8);
  });

  it("retries after an invalid call, and 'Error 422' teaches less than a good message", () => {
    const fixed = { good: [0, 0], opaque: [0, 0] };
    for (const run of runsOf(events)) {
      run.forEach((e, i) => {
        if (verdicts.get(e.id)!.valid) return;
        const next = run[i + 1];
        if (!next) return;
        const bucket = e.outcome?.message === ERROR_422 ? fixed.opaque : fixed.good;
        bucket[0]!++;
        if (verdicts.get(next.id)!.valid) bucket[1]!++;
      });
    }
    const rate = ([n, ok]: number[]) => ok! / n!;
    expect(fixed.opaque[0]).toBeGreaterThan(50);
    expect(rate(fixed.good)).toBeGreaterThan(0.7);
    expect(rate(fixed.opaque)).toBeLessThan(0.6);
  });

  it("holds retry spirals (3 or more failed attempts in a row at one tool), so the spiral views and alerts have something to show", () => {
    const spirals = runsOf(events).flatMap((run) =>
      findSpirals(
        [...run]
          .sort((a, b) => (a.step ?? 0) - (b.step ?? 0) || a.timestamp.localeCompare(b.timestamp))
          .map((e) => ({ id: e.id, tool: e.tool, valid: verdicts.get(e.id)!.valid, resultStatus: e.result?.status ?? null })),
      ),
    );
    expect(spirals.length).toBeGreaterThan(5);
    expect(Math.max(...spirals.map((s) => s.attempts.length))).toBeGreaterThanOrEqual(4);
  });
});

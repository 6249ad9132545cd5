import { describe, expect, it } from "vitest";
import { actionableMessage, explainExport } from "./explain";
import type { OtlpSpan } from "./wire";

const span = (scope: string) => ({ scope }) as OtlpSpan;
const facts = { notGenAi: 0, notModelCalls: 0, waiting: [] as OtlpSpan[], logsSeen: false, uncheckedTools: [] as string[] };

describe("explainExport", () => {
  it("tells content sent as log records from content capture that is off, until log records arrive", () => {
    const waiting = [span("@opentelemetry/instrumentation-openai"), span("opentelemetry.instrumentation.openai_v2"), span("x")];
    expect(explainExport({ ...facts, waiting }).map((g) => [g.reason, g.count])).toEqual([
      ["content_in_logs", 1],
      ["no_messages", 2],
    ]);
    expect(explainExport({ ...facts, waiting, logsSeen: true }).map((g) => [g.reason, g.count])).toEqual([["waiting_for_logs", 3]]);
  });

  it("names at most three tools without a schema, and says nothing of groups that are empty", () => {
    const [group] = explainExport({ ...facts, uncheckedTools: ["a", "b", "a", "c", "d"] });
    expect(group).toMatchObject({ reason: "no_tool_definitions", count: 5 });
    expect(group!.sentence).toMatch(/^5 tool calls of a, b, c and 1 more tools stored without a schema/);
    expect(explainExport(facts)).toEqual([]);
  });

  it("puts only the ignored spans a harness must fix into the OTLP answer", () => {
    const groups = explainExport({ ...facts, notGenAi: 4, notModelCalls: 1, uncheckedTools: ["a"] });
    expect(actionableMessage(groups)).toBeUndefined();
    const withMessages = explainExport({ ...facts, notGenAi: 4, waiting: [span("x")] });
    expect(actionableMessage(withMessages)).toBe(withMessages.find((g) => g.reason === "no_messages")!.sentence);
    expect(withMessages.find((g) => g.reason === "not_gen_ai")!.sentence).toBe(
      "4 spans not about generative AI (HTTP, database, your own): nothing to read in them",
    );
  });
});

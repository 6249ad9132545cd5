import { describe, expect, it } from "vitest";
import { latencySummary } from "../../isomorphic/latency-histogram";
import { nextStepText, outcomeRows, p95Text } from "./execution-view";

const figures = { calls: 120, invalid: 10, results: 100, toolErrors: 6, notFound: 2, timeouts: 1, notAllowed: 0, emptyResults: 4 };

describe("execution view", () => {
  it("lists ok, each failure that happened, the calls that ran without a result, and the empty ones among the ok", () => {
    expect(outcomeRows(figures).map((r) => [r.outcome, r.count])).toEqual([
      ["ok", 91],
      ["tool_error", 6],
      ["not_found", 2],
      ["timeout", 1],
      ["no_result", 10],
      ["empty", 4],
    ]);
    expect(outcomeRows({ ...figures, emptyResults: 0 }).map((r) => r.outcome)).not.toContain("empty");
  });

  it("says what the model did after an empty result: its next call in the run, or none", () => {
    const next = (tool: string, valid: boolean | null, resultStatus: string | null, resultSummary: string | null = null) => ({
      tool,
      valid,
      resultStatus,
      resultSummary,
    });
    expect(nextStepText("getloan", null)).toBe("no later call in this run");
    expect(nextStepText("getloan", next("getloan", true, "ok", "[]"))).toBe("called getloan again: empty again");
    expect(nextStepText("getloan", next("getcustomer", true, "ok", '{"name":"Ada"}'))).toBe("called getcustomer: ok");
    expect(nextStepText("getloan", next("getcustomer", false, null))).toBe("called getcustomer: invalid");
    expect(nextStepText("getloan", next("getloan", null, "not_found"))).toBe("called getloan again: not found");
    expect(nextStepText("getloan", next("getloan", true, null))).toBe("called getloan again: no result");
  });

  it("says the p95, or why there is none", () => {
    expect(p95Text(latencySummary([]))).toBe("no latencies");
    expect(p95Text(latencySummary([0, 5]))).toBe("insufficient data");
    expect(p95Text(latencySummary([0, 30]))).toBe("0.9 ms"); // bucket 1 (1 ms) stands as 0.95 ms
  });
});

import { describe, expect, it } from "vitest";
import { EXECUTION_OUTCOMES, RESULT_STATUSES } from "../contracts/event";
import { emptyResultRate, executionOutcome, failures, failureStatus, OUTCOME_OF_STATUS, statusesOf, toolErrorRate } from "./outcome";

describe("execution outcome", () => {
  it("maps every result status onto one outcome, and a missing result onto no_result", () => {
    expect(RESULT_STATUSES.map((resultStatus) => executionOutcome({ valid: true, resultStatus }))).toEqual([
      "ok",
      "tool_error",
      "not_found",
      "timeout",
      "not_allowed",
    ]);
    expect(executionOutcome({ valid: true, resultStatus: null })).toBe("no_result");
    expect(executionOutcome({ valid: null, resultStatus: "error" })).toBe("tool_error"); // unchecked calls ran
    expect(executionOutcome({ valid: false, resultStatus: "error" })).toBeNull(); // refused at the gate
    expect(new Set([...Object.values(OUTCOME_OF_STATUS), "no_result"])).toEqual(new Set(EXECUTION_OUTCOMES));
    expect(statusesOf("tool_error")).toEqual(["error"]);
    expect(statusesOf("no_result")).toEqual([]);
    expect(statusesOf("failed")).toEqual(["error", "not_found", "timeout", "not_allowed"]);
  });

  it("reads a failure's kind from its description: OTLP error.type, JSON-RPC code and message", () => {
    expect(failureStatus("TimeoutError")).toBe("timeout");
    expect(failureStatus("DEADLINE_EXCEEDED")).toBe("timeout");
    expect(failureStatus(-32001, "MCP error -32001: Request timed out")).toBe("timeout");
    expect(failureStatus("tool_error")).toBe("error");
    expect(failureStatus("ToolNotFoundError")).toBe("not_found");
    expect(failureStatus(-32602, "Unknown tool: invalid_tool_name")).toBe("not_found");
    expect(failureStatus("PermissionDenied")).toBe("not_allowed");
    expect(failureStatus("500", "upstream exploded")).toBe("error");
    expect(failureStatus(undefined, "")).toBe("error");
  });
});

describe("result counts", () => {
  const figures = { results: 100, toolErrors: 6, notFound: 2, timeouts: 1, notAllowed: 0, emptyResults: 4 };
  it("rates failed results over results, never over all calls", () => {
    expect(toolErrorRate(figures)).toBeCloseTo(0.09, 12);
    expect(toolErrorRate({ ...figures, results: 0, toolErrors: 0, notFound: 0, timeouts: 0 })).toBeNull();
  });

  it("rates empty results over results", () => {
    expect(emptyResultRate(figures)).toBeCloseTo(0.04, 12);
    expect(emptyResultRate({ ...figures, results: 0, emptyResults: 0 })).toBeNull();
  });

  it("counts every failed kind as a failure, a missing count as none", () => {
    expect(failures(figures)).toBe(9);
    expect(failures({ timeouts: 2 })).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { attemptFailed, findSpirals, spiralsInWindow, spiralsOfAttempts, summarizeSpirals, type FailedAttempt, type SpiralCall } from "./spirals";

let n = 0;
const call = (tool: string, how: "invalid" | "error" | "timeout" | "ok" | "none", extra: Partial<SpiralCall> = {}): SpiralCall => ({
  id: `c${++n}`,
  tool,
  valid: how !== "invalid",
  resultStatus: how === "invalid" || how === "none" ? null : how,
  ...extra,
});

describe("retry spirals", () => {
  it("finds k or more consecutive failed attempts at one tool, with the call that ended it and what it burned", () => {
    n = 0;
    const run = [
      call("getloan", "invalid", { costUsd: 0.01, inputTokens: 100, outputTokens: 20 }),
      call("getloan", "invalid", { costUsd: 0.01, inputTokens: 110, outputTokens: 20 }),
      call("getloan", "timeout", { costUsd: 0.02 }),
      call("getloan", "ok"),
      call("refundfee", "error"),
      call("refundfee", "error"),
      call("getcustomer", "ok"),
    ];
    expect(findSpirals(run)).toEqual([{ tool: "getloan", attempts: ["c1", "c2", "c3"], endedBy: "c4", costUsd: 0.04, tokens: 250 }]);
    expect(findSpirals(run, 2).map((s) => [s.tool, s.attempts.length, s.endedBy])).toEqual([
      ["getloan", 3, "c4"],
      ["refundfee", 2, null], // the model moved on to another tool without succeeding
    ]);
  });

  it("a spiral that runs to the end of the run has no end; another tool's call breaks a streak", () => {
    n = 0;
    const run = [call("a", "invalid"), call("b", "invalid"), call("a", "invalid"), call("a", "error"), call("a", "invalid")];
    expect(findSpirals(run)).toEqual([{ tool: "a", attempts: ["c3", "c4", "c5"], endedBy: null, costUsd: 0, tokens: 0 }]);
  });

  it("counts a turn's parallel calls of the tool as one attempt, failed only when all of them failed", () => {
    n = 0;
    // three parallel getloan calls refused in one model response, then a success: one attempt, not a spiral
    const parallel = [
      call("getloan", "invalid", { turn: 0 }),
      call("getloan", "invalid", { turn: 0 }),
      call("getloan", "invalid", { turn: 0 }),
      call("getloan", "ok", { turn: 1 }),
    ];
    expect(findSpirals(parallel, 2)).toEqual([]);
    // turns 0 (two calls), 1 and 2 failed, turn 3 had a failed call and a successful one: three attempts, ended by the success
    n = 0;
    const run = [
      call("getloan", "invalid", { turn: 0, costUsd: 0.01 }),
      call("getloan", "error", { turn: 0, costUsd: 0.01 }),
      call("getloan", "invalid", { turn: 1, costUsd: 0.01 }),
      call("getloan", "timeout", { turn: 2, costUsd: 0.01 }),
      call("getloan", "invalid", { turn: 3 }),
      call("getloan", "ok", { turn: 3 }),
    ];
    expect(findSpirals(run)).toEqual([{ tool: "getloan", attempts: ["c1", "c3", "c4"], endedBy: "c6", costUsd: 0.04, tokens: 0 }]);
    expect(spiralsOfAttempts(readOf("r", run)).map(({ attempts, endedBy, times }) => ({ attempts, endedBy, times }))).toEqual([
      { attempts: ["c1", "c3", "c4"], endedBy: "c6", times: [0, 2000, 3000] },
    ]);
    // the success first in its turn: the same
    const successFirst = [...run.slice(0, 4), run[5]!, run[4]!];
    expect(spiralsOfAttempts(readOf("r", successFirst)).map((s) => [s.attempts, s.endedBy])).toEqual([[["c1", "c3", "c4"], "c6"]]);
    // calls without a turn stay one attempt each
    n = 0;
    expect(findSpirals([call("a", "invalid"), call("a", "invalid"), call("a", "invalid")]).map((s) => s.attempts)).toEqual([["c1", "c2", "c3"]]);
  });

  it("counts refusals and failed results as failed attempts, not calls without a result", () => {
    expect(attemptFailed({ valid: false, resultStatus: null })).toBe(true);
    expect(attemptFailed({ valid: true, resultStatus: "not_found" })).toBe(true);
    expect(attemptFailed({ valid: null, resultStatus: "ok" })).toBe(false);
    expect(attemptFailed({ valid: true, resultStatus: null })).toBe(false);
    expect(() => findSpirals([], 1)).toThrow("minLength must be an integer of 2 or more, got 1");
  });
});

/** A run as the bounded read sees it: its failed attempts, each with the call right after it. */
function readOf(runId: string, run: SpiralCall[], opts: { read?: (c: SpiralCall, i: number) => boolean; model?: string } = {}): FailedAttempt[] {
  return run.flatMap((c, i) =>
    attemptFailed(c) && (opts.read?.(c, i) ?? true)
      ? [{ ...c, runId, model: opts.model ?? "m", modelVersion: "v1", at: i * 1000, next: run[i + 1] ?? null }]
      : [],
  );
}

describe("spirals from the failed attempts alone", () => {
  it("finds the same spirals as the whole run, with the call that ended each", () => {
    n = 0;
    const run = [
      call("getloan", "ok"),
      call("getloan", "invalid", { costUsd: 0.5 }),
      call("getloan", "invalid"),
      call("getloan", "error"),
      call("getloan", "ok"),
      call("refundfee", "invalid"),
      call("getcustomer", "ok"),
      call("refundfee", "invalid"),
      call("refundfee", "timeout"),
      call("refundfee", "timeout"),
    ];
    const whole = findSpirals(run, 2);
    const read = spiralsOfAttempts(readOf("r1", run), 2);
    expect(read.map(({ tool, attempts, endedBy, costUsd }) => ({ tool, attempts, endedBy, costUsd }))).toEqual(
      whole.map(({ tool, attempts, endedBy, costUsd }) => ({ tool, attempts, endedBy, costUsd })),
    );
    expect(read.map((s) => [s.runId, s.times])).toEqual([
      ["r1", [1000, 2000, 3000]],
      ["r1", [7000, 8000, 9000]],
    ]);
  });

  it("does not join two attempts that are not neighbours in the run (a failure that was not read lies between)", () => {
    n = 0;
    const run = [call("a", "invalid"), call("a", "invalid"), call("b", "invalid"), call("a", "invalid"), call("a", "invalid")];
    // a tool scope reads only tool a's failures: b's failure in between still breaks the streak
    const read = spiralsOfAttempts(readOf("r", run, { read: (c) => c.tool === "a" }), 2);
    expect(read.map((s) => s.attempts)).toEqual([
      ["c1", "c2"],
      ["c4", "c5"],
    ]);
    // a range that starts at the third call: the streak counts its attempts inside the range only
    expect(spiralsOfAttempts(readOf("r", run, { read: (_, i) => i >= 1 }), 3)).toEqual([]);
  });

  it("keeps runs apart", () => {
    n = 0;
    const one = [call("a", "invalid"), call("a", "invalid")];
    const two = [call("a", "invalid"), call("a", "invalid")];
    expect(spiralsOfAttempts([...readOf("r1", one), ...readOf("r2", two)], 3)).toEqual([]);
    expect(spiralsOfAttempts([...readOf("r1", one), ...readOf("r2", two)], 2).map((s) => s.runId)).toEqual(["r1", "r2"]);
  });

  it("counts in a window the spirals with at least k attempts inside it", () => {
    const spirals = [{ times: [0, 10, 20, 30] }, { times: [25, 35, 45] }];
    expect(spiralsInWindow(spirals, 0, 100, 3)).toBe(2);
    expect(spiralsInWindow(spirals, 15, 40, 3)).toBe(0); // 2 attempts of each inside
    expect(spiralsInWindow(spirals, 15, 40, 2)).toBe(2);
    expect(spiralsInWindow(spirals, 0, 100, 4)).toBe(1);
  });

  it("sums spirals per tool and model version and lists the longest first", () => {
    n = 0;
    const run1 = [call("a", "invalid", { costUsd: 0.1, inputTokens: 10 }), call("a", "invalid", { costUsd: 0.1 }), call("a", "invalid"), call("a", "ok")];
    const run2 = [call("a", "error"), call("a", "error"), call("b", "invalid"), call("b", "invalid"), call("b", "invalid"), call("b", "invalid")];
    const spirals = [...spiralsOfAttempts(readOf("r1", run1), 2), ...spiralsOfAttempts(readOf("r2", run2), 2)];
    const summary = summarizeSpirals(spirals, 2);
    expect(summary.total).toEqual({ spirals: 3, attempts: 9, costUsd: 0.2, tokens: 10 });
    expect(summary.groups.map((g) => [g.tool, g.spirals, g.attempts, g.longest])).toEqual([
      ["a", 2, 5, 3],
      ["b", 1, 4, 4],
    ]);
    expect(summary.longest.map((s) => [s.runId, s.tool, s.attempts.length, s.endedBy])).toEqual([
      ["r2", "b", 4, null],
      ["r1", "a", 3, "c4"],
    ]);
  });
});

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  attemptFailed,
  findSpirals,
  keptAttemptsOfRun,
  spiralsInWindow,
  spiralsOfAttempts,
  spiralsOfKeptAttempts,
  summarizeSpirals,
  type FailedAttempt,
  type LocatedSpiral,
  type SpiralCall,
} from "./spirals";

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

describe("spirals kept per run and clipped when read", () => {
  /**
   * A run whose turns hold one or more calls of one time each (parallel calls), each of a tool and
   * a model, failed or not; a turn's failed calls come first. The bounded read does not see a
   * failed call's previous call, so it takes a failed call right after a successful one of its
   * turn and tool for an attempt of its own (the kept read, from the whole run, knows the turn
   * succeeded): the next test shows that difference.
   */
  const runArb = fc
    .array(
      fc.record({
        calls: fc.array(fc.record({ tool: fc.constantFrom("a", "b"), how: fc.constantFrom("invalid", "error", "ok", "none", "ok") }), {
          minLength: 1,
          maxLength: 3,
        }),
        model: fc.constantFrom("m1", "m2"),
        turned: fc.boolean(),
      }),
      { maxLength: 14 },
    )
    .map((turns) => {
      let id = 0;
      return turns.flatMap((t, turn) =>
        [...t.calls]
          .sort((x, y) => Number(x.how === "ok" || x.how === "none") - Number(y.how === "ok" || y.how === "none"))
          .map(({ tool, how }) => ({
            ...call(tool, how as "invalid" | "error" | "ok" | "none", { id: `k${++id}`, turn: t.turned ? turn : null, costUsd: 0.25, inputTokens: 10 }),
            model: t.model,
            modelVersion: t.model === "m1" ? "v1" : null,
            at: turn * 1000,
          })),
      );
    });

  it("finds in any range and scope what the bounded read of the failed attempts finds", () => {
    fc.assert(
      fc.property(
        runArb,
        fc.integer({ min: 0, max: 14 }),
        fc.integer({ min: 0, max: 15 }),
        fc.constantFrom(undefined, "m1", "m2"),
        fc.constantFrom(undefined, "a"),
        fc.integer({ min: 2, max: 4 }),
        (run, start, span, model, tool, minLength) => {
          const [from, to] = [start * 1000, (start + span) * 1000];
          const inScope = (c: { at: number; model: string; tool: string }) =>
            c.at >= from && c.at < to && (!model || c.model === model) && (!tool || c.tool === tool);
          const read = run.flatMap((c, i) => (attemptFailed(c) && inScope(c) ? [{ ...c, runId: "r", next: run[i + 1] ?? null }] : []));
          const live = spiralsOfAttempts(read, minLength);
          const kept = spiralsOfKeptAttempts(
            keptAttemptsOfRun("r", run).filter((a) => inScope(a)),
            minLength,
          );
          // where the turn that ended a spiral began with a failed call the bounded read did not read
          // (out of the range or scope), that read cannot tell the spiral ended; the kept one can
          const unseenEnd = (s: LocatedSpiral) => {
            const next = read.find((a) => a.id === s.attempts.at(-1))?.next;
            return next && attemptFailed(next) && !read.some((a) => a.id === next.id);
          };
          expect(kept.map((s) => (unseenEnd(s) ? { ...s, endedBy: null } : s))).toEqual(live);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("knows from the whole run that a turn's failed call after its successful one of the tool is no attempt", () => {
    n = 0;
    const at = (c: SpiralCall, i: number) => ({ ...c, model: "m", modelVersion: null, at: i * 1000 });
    const run = [call("b", "ok", { turn: 0 }), call("b", "invalid", { turn: 0 }), call("b", "invalid", { turn: 1 }), call("a", "invalid", { turn: 2 })].map(at);
    expect(findSpirals(run, 2)).toEqual([]);
    expect(spiralsOfKeptAttempts(keptAttemptsOfRun("r", run), 2)).toEqual([]);
    // the bounded read takes turn 0 for a failed attempt
    const bounded = spiralsOfAttempts(
      run.flatMap((c, i) => (attemptFailed(c) ? [{ ...c, runId: "r", next: run[i + 1] ?? null }] : [])),
      2,
    );
    expect(bounded.map((s) => s.attempts)).toEqual([["c2", "c3"]]);
  });

  it("keeps each attempt with its own time, model and cost, and the spiral's end on every attempt", () => {
    n = 0;
    const at = (c: SpiralCall, i: number) => ({ ...c, model: i < 2 ? "m1" : "m2", modelVersion: null, at: i * 1000 });
    const run = [call("a", "invalid", { costUsd: 1 }), call("a", "error", { costUsd: 2 }), call("a", "invalid", { outputTokens: 7 }), call("a", "ok")].map(at);
    expect(keptAttemptsOfRun("r", run)).toEqual(
      ["c1", "c2", "c3"].map((id, position) => ({
        runId: "r",
        tool: "a",
        spiral: "c1",
        position,
        length: 3,
        id,
        at: position * 1000,
        model: position < 2 ? "m1" : "m2",
        modelVersion: null,
        costUsd: [1, 2, 0][position],
        tokens: [0, 0, 7][position],
        endedBy: "c4",
      })),
    );
    // the middle attempt out of the scope splits it, and a piece that stops short of the end has none
    const kept = keptAttemptsOfRun("r", run);
    expect(spiralsOfKeptAttempts(kept, 2).map((s) => [s.attempts, s.endedBy, s.model])).toEqual([[["c1", "c2", "c3"], "c4", "m1"]]);
    expect(spiralsOfKeptAttempts(kept.slice(0, 2), 2).map((s) => [s.attempts, s.endedBy])).toEqual([[["c1", "c2"], null]]);
    expect(spiralsOfKeptAttempts([kept[0]!, kept[2]!], 1 + 1)).toEqual([]);
  });
});

import { describe, expect, it } from "vitest";
import { MIN_PARALLEL_GROUPS, parallelShares, summarizeParallel, type TurnMember } from "./parallel-calls";

const call = (runId: string, turn: number, over: Partial<TurnMember> = {}): TurnMember => ({
  runId,
  turn,
  tool: "getloan",
  model: "m",
  modelVersion: null,
  valid: true,
  resultStatus: "ok",
  resultIdKept: null,
  sampled: true,
  ...over,
});

describe("summarizeParallel", () => {
  it("counts a scope's calls, those that shared their turn, and the turns they shared", () => {
    const s = summarizeParallel([
      call("r1", 0),
      call("r1", 1),
      call("r1", 1, { tool: "other", sampled: false }),
      call("r2", 1), // same turn number, another run: a group of its own
      call("r2", 2),
      call("r2", 2),
    ]);
    expect(s).toMatchObject({ calls: 6 - 1, inParallel: 3, groups: 2, mixed: 0 });
  });

  it("calls a turn mixed when one call failed (invalid or a failed result) while another succeeded", () => {
    const s = summarizeParallel([
      call("a", 0, { valid: false, resultStatus: null }),
      call("a", 0),
      call("b", 0, { resultStatus: "timeout" }),
      call("b", 0, { valid: null, resultStatus: "ok" }),
      // both failed: not mixed
      call("c", 0, { resultStatus: "error" }),
      call("c", 0, { valid: false, resultStatus: null }),
      // valid without a result counts as a success; unchecked without one is not known
      call("d", 0, { valid: false, resultStatus: null }),
      call("d", 0, { resultStatus: null }),
      call("e", 0, { valid: false, resultStatus: null }),
      call("e", 0, { valid: null, resultStatus: null }),
    ]);
    expect(s.groups).toBe(5);
    expect(s.mixed).toBe(3);
  });

  it("counts the kept call ids of the scope's parallel calls only, where they are known", () => {
    const s = summarizeParallel([
      call("a", 0, { resultIdKept: true }),
      call("a", 0, { resultIdKept: false }),
      call("a", 0, { resultIdKept: null }),
      call("a", 0, { resultIdKept: false, sampled: false }),
      call("b", 0, { resultIdKept: true }), // alone in its turn
    ]);
    expect(s).toMatchObject({ idKnown: 2, idKept: 1 });
  });
});

describe("parallelShares", () => {
  const base = { calls: 40, inParallel: 30, groups: MIN_PARALLEL_GROUPS, mixed: 2, idKnown: MIN_PARALLEL_GROUPS, idKept: 5 };
  it("gives every share once there are enough parallel groups", () => {
    expect(parallelShares(base)).toEqual({ inParallel: 0.75, mixed: 2 / MIN_PARALLEL_GROUPS, idKept: 5 / MIN_PARALLEL_GROUPS });
  });
  it("withholds the group shares below MIN_PARALLEL_GROUPS, and the kept ids below as many known", () => {
    expect(parallelShares({ ...base, groups: MIN_PARALLEL_GROUPS - 1 })).toEqual({ inParallel: 0.75, mixed: null, idKept: null });
    expect(parallelShares({ ...base, idKnown: MIN_PARALLEL_GROUPS - 1 }).idKept).toBeNull();
    expect(parallelShares({ ...base, calls: 0, inParallel: 0 }).inParallel).toBeNull();
  });
});

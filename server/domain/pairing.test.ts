import { describe, it, expect } from "vitest";
import { attemptsUntilSuccess, findCorrection, orderRunCalls, type CallRef } from "./pairing";

const T0 = Date.parse("2025-01-01T00:00:00Z");

function call(id: string, over: Partial<Omit<CallRef, "timestamp">> & { t?: number } = {}): CallRef {
  const { t = 0, ...rest } = over;
  return {
    id,
    runId: "run-1",
    tool: "search",
    step: null,
    timestamp: new Date(T0 + t * 1000),
    correctsId: null,
    valid: true,
    ...rest,
  };
}

const ids = (calls: readonly CallRef[]) => calls.map((c) => c.id);

describe("orderRunCalls", () => {
  it("orders by step, then timestamp, then id", () => {
    const calls = [
      call("d", { step: 2, t: 1 }),
      call("c", { step: 1, t: 5 }),
      call("b", { step: 1, t: 5 }),
      call("a", { step: 1, t: 9 }),
      call("e", { step: 0, t: 30 }),
    ];
    expect(ids(orderRunCalls(calls))).toEqual(["e", "b", "c", "a", "d"]);
  });

  it("orders calls without a step by timestamp then id", () => {
    const calls = [call("z", { t: 3 }), call("y", { t: 1 }), call("x", { t: 3 })];
    expect(ids(orderRunCalls(calls))).toEqual(["y", "x", "z"]);
  });

  it("merges unstepped calls into the stepped order by time", () => {
    const calls = [call("s2", { step: 2, t: 20 }), call("u", { t: 15 }), call("s1", { step: 1, t: 10 })];
    expect(ids(orderRunCalls(calls))).toEqual(["s1", "u", "s2"]);
  });

  it("does not mutate its input", () => {
    const calls = [call("b", { t: 2 }), call("a", { t: 1 })];
    orderRunCalls(calls);
    expect(ids(calls)).toEqual(["b", "a"]);
  });
});

describe("findCorrection", () => {
  const bad = call("bad", { step: 3, t: 30, valid: false });

  it("finds the next same-tool call after the invalid one, whatever the input order", () => {
    const candidates = [
      call("after2", { step: 6, t: 60 }),
      call("before", { step: 1, t: 10 }),
      call("after1", { step: 5, t: 50 }),
      call("same-step-earlier", { step: 3, t: 29 }),
    ];
    expect(findCorrection(bad, candidates)?.id).toBe("after1");
  });

  it("takes a call at the same step but later in time", () => {
    const candidates = [call("later", { step: 4, t: 40 }), call("with", { step: 3, t: 31 })];
    expect(findCorrection(bad, candidates)?.id).toBe("with");
  });

  it("returns null when the correction would be before the invalid call", () => {
    expect(findCorrection(bad, [call("before", { step: 1, t: 10 })])).toBeNull();
  });

  it("lets correctsId beat order", () => {
    const candidates = [call("next", { step: 4, t: 40 }), call("explicit", { step: 9, t: 90, correctsId: "bad", tool: "web_search" })];
    expect(findCorrection(bad, candidates)?.id).toBe("explicit");
  });

  it("ignores calls to other tools and calls of other runs", () => {
    const candidates = [
      call("other-tool", { step: 4, t: 40, tool: "fetch" }),
      call("other-run", { step: 4, t: 40, runId: "run-2" }),
      call("right", { step: 7, t: 70 }),
    ];
    expect(findCorrection(bad, candidates)?.id).toBe("right");
    expect(findCorrection(bad, candidates.slice(0, 2))).toBeNull();
  });

  it("ignores the invalid call itself among the candidates", () => {
    expect(findCorrection(bad, [bad])).toBeNull();
  });

  it("works on unstepped runs by timestamp", () => {
    const x = call("x", { t: 10, valid: false });
    expect(findCorrection(x, [call("late", { t: 30 }), call("early", { t: 20 }), call("pre", { t: 5 })])?.id).toBe("early");
  });
});

describe("attemptsUntilSuccess", () => {
  it("counts a chain of failures up to the first valid call", () => {
    const run = [
      call("ok-before", { step: 0, valid: true }),
      call("f1", { step: 1, valid: false }),
      call("other", { step: 2, tool: "fetch", valid: true }),
      call("f2", { step: 3, valid: false }),
      call("f3", { step: 4, valid: false }),
      call("ok", { step: 5, valid: true }),
      call("ok-after", { step: 6, valid: true }),
    ];
    const shuffled = [run[5]!, run[3]!, run[0]!, run[6]!, run[1]!, run[4]!, run[2]!];
    // f1, f2, f3, ok — from any failure in the chain
    expect(attemptsUntilSuccess(run[1]!, shuffled)).toBe(4);
    expect(attemptsUntilSuccess(run[3]!, shuffled)).toBe(4);
    expect(attemptsUntilSuccess(run[4]!, shuffled)).toBe(4);
  });

  it("corrected at once takes 2 attempts", () => {
    const bad = call("bad", { step: 1, valid: false });
    expect(attemptsUntilSuccess(bad, [bad, call("good", { step: 2 })])).toBe(2);
  });

  it("is null when the tool never succeeds", () => {
    const bad = call("bad", { step: 1, valid: false });
    expect(attemptsUntilSuccess(bad, [bad, call("bad2", { step: 2, valid: false })])).toBeNull();
    expect(attemptsUntilSuccess(bad, [bad, call("unknown", { step: 2, valid: null })])).toBeNull();
  });

  it("counts an unknown verdict as an attempt, not as the success", () => {
    const bad = call("bad", { step: 1, valid: false });
    const run = [bad, call("unknown", { step: 2, valid: null }), call("good", { step: 3 })];
    expect(attemptsUntilSuccess(bad, run)).toBe(3);
  });

  it("follows correctsId to a renamed tool", () => {
    const bad = call("bad", { step: 1, tool: "serch", valid: false });
    const run = [bad, call("fixed", { step: 2, tool: "search", correctsId: "bad" })];
    expect(attemptsUntilSuccess(bad, run)).toBe(2);
  });

  it("ignores other runs and other tools", () => {
    const bad = call("bad", { step: 1, valid: false });
    const run = [bad, call("other-run", { step: 2, runId: "run-2" }), call("other-tool", { step: 2, tool: "fetch" })];
    expect(attemptsUntilSuccess(bad, run)).toBeNull();
  });

  it("survives a correctsId cycle", () => {
    const a = call("a", { step: 1, valid: false, correctsId: "b" });
    const b = call("b", { step: 2, valid: false, correctsId: "a" });
    expect(attemptsUntilSuccess(a, [a, b])).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { attemptsUntilSuccess, type LinkedCall } from "./run-order";

// The links themselves are made by ingestion; server/services/calls/pairing.integration.test.ts
// runs the table of pairing cases through it. Here: the walk along stored links.

const call = (id: string, valid: boolean | null, correctionId: string | null = null): LinkedCall => ({ id, valid, correctionId });

describe("attemptsUntilSuccess", () => {
  const run = [call("ok-before", true), call("f1", false, "f2"), call("other", true), call("f2", false, "f3"), call("f3", false, "ok"), call("ok", true)];

  it("counts a chain of failures up to the first valid call, from any failure in it", () => {
    for (const id of ["f1", "f2", "f3"])
      expect(
        attemptsUntilSuccess(
          run.find((c) => c.id === id)!,
          run,
        ),
      ).toBe(4);
  });

  it("corrected at once takes 2 attempts", () => {
    const bad = call("bad", false, "good");
    expect(attemptsUntilSuccess(bad, [bad, call("good", true)])).toBe(2);
  });

  it("counts parallel calls that share a correction once: two invalid siblings, then their correction", () => {
    const [a1, a2, a3] = [call("a1", false, "a3"), call("a2", false, "a3"), call("a3", false, "ok")];
    const parallel = [a1, a2, a3, call("ok", true)];
    for (const c of [a1, a2, a3]) expect(attemptsUntilSuccess(c, parallel)).toBe(3);
  });

  it("is null when the chain ends without a valid call", () => {
    const bad = call("bad", false, "bad2");
    expect(attemptsUntilSuccess(bad, [bad, call("bad2", false)])).toBeNull();
    expect(attemptsUntilSuccess(call("alone", false), [call("alone", false)])).toBeNull();
  });

  it("counts an unknown verdict as an attempt, never as the success", () => {
    const bad = call("bad", false, "unknown");
    expect(attemptsUntilSuccess(bad, [bad, call("unknown", null, "good"), call("good", true)])).toBe(3);
    expect(attemptsUntilSuccess(bad, [bad, call("unknown", null)])).toBeNull();
  });

  it("takes the latest earlier attempt when two calls name the same correction", () => {
    const a = call("a", false, "ok");
    const b = call("b", false, "ok");
    expect(attemptsUntilSuccess(b, [a, b, call("ok", true)])).toBe(2);
  });

  it("survives a cycle of links", () => {
    const a = call("a", false, "b");
    const b = call("b", false, "a");
    expect(attemptsUntilSuccess(a, [a, b])).toBeNull();
  });

  it("from the valid call counts back through the failures it corrected, valid calls not among them", () => {
    expect(
      attemptsUntilSuccess(
        run.find((c) => c.id === "ok")!,
        run,
      ),
    ).toBe(4);
    expect(attemptsUntilSuccess(call("ok-before", true), run)).toBe(1);
    // a valid call that names a correction is no failed attempt of it
    const stray = call("stray", true, "good");
    expect(attemptsUntilSuccess(call("good", true), [stray, call("good", true)])).toBe(1);
    // a failure already counted is not counted again going forward
    const a = call("a", false, "b");
    const b = call("b", false, "a");
    expect(attemptsUntilSuccess(b, [a, b])).toBeNull();
  });
});

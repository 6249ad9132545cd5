import { describe, it, expect } from "vitest";
import {
  checkedCalls,
  countVerdicts,
  checkedInvalidRate,
  expectedAttempts,
  expectedTaskAttempts,
  extraCallsPer1000Tasks,
  invalidRate,
  normalCdf,
  observedAttemptsFromCounts,
  observedAttemptsPerSuccess,
  retryCostWithContextGrowth,
  twoProportionTest,
  validCalls,
  verdictOf,
  wilsonInterval,
} from "./stats";

describe("wilsonInterval", () => {
  it("0 of 10 gives [0, 0.2775]", () => {
    const { low, high } = wilsonInterval(0, 10);
    expect(low).toBe(0);
    expect(high).toBeCloseTo(0.2775, 4);
  });

  it("6 of 100 gives about [0.0278, 0.1247]", () => {
    const { low, high, center } = wilsonInterval(6, 100);
    expect(low).toBeCloseTo(0.0278, 4);
    expect(high).toBeCloseTo(0.1248, 4); // 0.12477
    expect(center).toBeGreaterThan(0.06);
  });

  it("10 of 10 mirrors 0 of 10", () => {
    const { low, high } = wilsonInterval(10, 10);
    expect(low).toBeCloseTo(1 - 0.2775, 4);
    expect(high).toBe(1);
  });

  it("knows nothing with n = 0", () => {
    expect(wilsonInterval(0, 0)).toMatchObject({ low: 0, high: 1 });
  });

  it("rejects impossible counts", () => {
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(0.5, 2)).toThrow(RangeError);
  });
});

describe("normalCdf", () => {
  it("matches table values", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 4);
    expect(normalCdf(-1.96)).toBeCloseTo(0.025, 4);
  });
});

describe("twoProportionTest", () => {
  it("2 bad of 3 against 6 of 100 is not significant (too few calls)", () => {
    const r = twoProportionTest(2, 3, 6, 100);
    expect(r.sufficient).toBe(false);
    expect(r.significant).toBe(false);
  });

  it("200/1000 against 60/1000 is significant", () => {
    const r = twoProportionTest(200, 1000, 60, 1000);
    expect(r.diff).toBeCloseTo(-0.14, 10);
    expect(r.z).toBeCloseTo(-9.31, 2);
    expect(r.pValue).toBeLessThan(1e-10);
    expect(r.sufficient).toBe(true);
    expect(r.significant).toBe(true);
  });

  it("gives the textbook p-value", () => {
    // 30/100 vs 45/100: pooled 0.375, z = 0.15 / sqrt(0.375·0.625·0.02) ≈ 2.191, p ≈ 0.0285
    const r = twoProportionTest(30, 100, 45, 100);
    expect(r.z).toBeCloseTo(2.191, 3);
    expect(r.pValue).toBeCloseTo(0.0285, 3);
    expect(r.significant).toBe(true);
    expect(twoProportionTest(30, 100, 45, 100, { alpha: 0.01 }).significant).toBe(false);
  });

  it("refuses a verdict when expected counts are below 5", () => {
    // 0/100 vs 4/100: pooled 0.02 → expected 2 per group
    const r = twoProportionTest(0, 100, 4, 100);
    expect(r.sufficient).toBe(false);
    expect(r.significant).toBe(false);
  });

  it("respects minN", () => {
    expect(twoProportionTest(10, 40, 30, 40).significant).toBe(true);
    expect(twoProportionTest(10, 40, 30, 40, { minN: 50 }).significant).toBe(false);
  });

  it("handles identical all-or-nothing groups", () => {
    expect(twoProportionTest(0, 100, 0, 100)).toMatchObject({ diff: 0, z: 0, pValue: 1, significant: false });
  });
});

describe("attempt inflation", () => {
  it("1000 requests with 60 invalid → p = 0.06", () => {
    expect(invalidRate(60, 1000)).toBe(0.06);
    expect(invalidRate(0, 0)).toBeNull();
  });

  it("6% invalid: 1.064 attempts per call, 6.38 for a six-call task", () => {
    expect(expectedAttempts(0.06)).toBeCloseTo(1.064, 3);
    expect(expectedTaskAttempts(0.06, 6)).toBeCloseTo(6.38, 2);
    expect(expectedTaskAttempts(0.06, 6)).toBeCloseTo(6.383, 3);
  });

  it("20% invalid: 7.5 attempts for six calls", () => {
    expect(expectedTaskAttempts(0.2, 6)).toBeCloseTo(7.5, 10);
  });

  it("25 of 500 invalid, 8 calls → 8.4 attempts", () => {
    expect(expectedTaskAttempts(invalidRate(25, 500)!, 8)).toBeCloseTo(8.42, 2);
  });

  it("rejects rates outside [0, 1)", () => {
    expect(() => expectedAttempts(1)).toThrow(RangeError);
    expect(() => expectedAttempts(-0.1)).toThrow(RangeError);
    expect(() => expectedAttempts(Number.NaN)).toThrow(RangeError);
    expect(expectedAttempts(0)).toBe(1);
  });

  it("counts extra calls per 1000 tasks", () => {
    expect(extraCallsPer1000Tasks(0.06, 6)).toBeCloseTo(383.0, 1);
    expect(extraCallsPer1000Tasks(0.2, 6)).toBeCloseTo(1500, 8);
    expect(extraCallsPer1000Tasks(0, 6)).toBe(0);
  });

  it("observed attempts per success", () => {
    expect(observedAttemptsPerSuccess(640, 600)).toBeCloseTo(1.0667, 4);
    expect(observedAttemptsPerSuccess(5, 0)).toBeNull();
  });
});

describe("retryCostWithContextGrowth", () => {
  it("without context growth cost is proportional to attempts", () => {
    const r = retryCostWithContextGrowth({ p: 0.06, callsPerTask: 6, costPerCall: 1, contextGrowthPerCall: 0 });
    expect(r.attempts).toBeCloseTo(6.383, 3);
    expect(r.costWithoutRetries).toBe(6);
    expect(r.costWithRetries).toBeCloseTo(6.383, 3);
    expect(r.extraCost).toBeCloseTo(0.383, 3);
  });

  it("with whole attempts it equals the explicit sum of growing calls", () => {
    // p = 0.25, k = 6 → exactly 8 attempts
    const r = retryCostWithContextGrowth({ p: 0.25, callsPerTask: 6, costPerCall: 2, contextGrowthPerCall: 0.1 });
    const sum = (n: number) => Array.from({ length: n }, (_, i) => 2 * 1.1 ** i).reduce((a, b) => a + b, 0);
    expect(r.attempts).toBe(8);
    expect(r.costWithoutRetries).toBeCloseTo(sum(6), 10);
    expect(r.costWithRetries).toBeCloseTo(sum(8), 10);
    expect(r.extraCost).toBeCloseTo(sum(8) - sum(6), 10);
  });

  it("growing context makes invalid calls cost more than their share", () => {
    const r = retryCostWithContextGrowth({ p: 0.2, callsPerTask: 6, costPerCall: 1, contextGrowthPerCall: 0.1 });
    expect(r.attempts).toBeCloseTo(7.5, 10);
    // S(7.5) = (1.1^7.5 − 1)/0.1
    expect(r.costWithRetries).toBeCloseTo((1.1 ** 7.5 - 1) / 0.1, 10);
    expect(r.extraCost / r.costWithoutRetries).toBeGreaterThan(1.5 / 6);
  });

  it("validates its input", () => {
    expect(() => retryCostWithContextGrowth({ p: 1, callsPerTask: 6, costPerCall: 1, contextGrowthPerCall: 0 })).toThrow(RangeError);
    expect(() => retryCostWithContextGrowth({ p: 0.1, callsPerTask: 6, costPerCall: 1, contextGrowthPerCall: -0.5 })).toThrow(RangeError);
  });
});

describe("statistics at their edges", () => {
  it("the Wilson center and the width follow z", () => {
    // center = (p + z²/2n) / (1 + z²/n) = (0.06 + 0.019208) / 1.038416
    expect(wilsonInterval(6, 100).center).toBeCloseTo(0.079208 / 1.038416, 10);
    const narrow = wilsonInterval(6, 100, 1);
    expect(narrow.center).toBeCloseTo((0.06 + 1 / 200) / (1 + 1 / 100), 10);
    expect(narrow.high - narrow.low).toBeLessThan(wilsonInterval(6, 100).high - wilsonInterval(6, 100).low);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1, center: 0.5 });
    expect(wilsonInterval(5, 5).low).toBeGreaterThan(0);
  });

  it("the normal CDF to six places across the table", () => {
    const table: [number, number][] = [
      [0.5, 0.691462],
      [1, 0.841345],
      [2, 0.97725],
      [3, 0.99865],
      [-1, 0.158655],
      [-2.5, 0.00621],
      [4, 0.999968],
    ];
    for (const [z, p] of table) expect(normalCdf(z)).toBeCloseTo(p, 6);
  });

  it("says which count is wrong and what was sent", () => {
    expect(() => wilsonInterval(3, 2)).toThrow("successes (3) exceeds n (2)");
    expect(() => wilsonInterval(0, -1)).toThrow("n must be a non-negative integer, got -1");
    expect(() => wilsonInterval(-1, 2)).toThrow("successes must be a non-negative integer, got -1");
    expect(() => invalidRate(5, 4)).toThrow("invalid (5) exceeds total (4)");
    expect(() => invalidRate(-1, 4)).toThrow("invalid must be a non-negative integer");
    expect(() => invalidRate(1, 1.5)).toThrow("total must be a non-negative integer, got 1.5");
    expect(() => expectedAttempts(1)).toThrow("invalid rate must be in [0, 1), got 1");
    expect(() => expectedTaskAttempts(0.1, -1)).toThrow("k must be a finite number ≥ 0, got -1");
    expect(() => expectedTaskAttempts(0.1, Infinity)).toThrow(RangeError);
    expect(() => extraCallsPer1000Tasks(0.1, -1)).toThrow("k must be a finite number ≥ 0, got -1");
    expect(() => extraCallsPer1000Tasks(1, 1)).toThrow(RangeError);
    expect(() => observedAttemptsPerSuccess(-1, 1)).toThrow("attempts must be a finite number ≥ 0, got -1");
    expect(() => observedAttemptsPerSuccess(1, -1)).toThrow("successes must be a finite number ≥ 0, got -1");
    expect(() => retryCostWithContextGrowth({ p: 0.1, callsPerTask: 6, costPerCall: -1, contextGrowthPerCall: 0 })).toThrow(
      "costPerCall must be a finite number ≥ 0, got -1",
    );
    expect(() => retryCostWithContextGrowth({ p: 0.1, callsPerTask: 6, costPerCall: 1, contextGrowthPerCall: -1 })).toThrow(
      "contextGrowthPerCall must be a finite number ≥ 0, got -1",
    );
    for (const [x1, n1, x2, n2] of [
      [-1, 10, 0, 10],
      [0, 10.5, 0, 10],
      [0, 10, -1, 10],
      [0, 10, 0, -10],
    ])
      expect(() => twoProportionTest(x1!, n1!, x2!, n2!)).toThrow(RangeError);
    expect(() => twoProportionTest(11, 10, 0, 10)).toThrow("successes exceed the group size");
    expect(() => twoProportionTest(0, 10, 11, 10)).toThrow("successes exceed the group size");
    expect(twoProportionTest(10, 10, 10, 10).pValue).toBe(1);
  });

  it("an empty group gives no test: rate 0, p-value 1", () => {
    expect(twoProportionTest(0, 0, 5, 50)).toEqual({ diff: 0.1, z: 0, pValue: 1, sufficient: false, significant: false });
    expect(twoProportionTest(5, 50, 0, 0)).toMatchObject({ diff: -0.1, z: 0, pValue: 1, sufficient: false });
    expect(twoProportionTest(0, 0, 0, 0)).toMatchObject({ diff: 0, pValue: 1 });
  });

  it("minN and minExpected are bounds that may be met exactly", () => {
    // 10/40 vs 30/40: pooled 0.5, expected 20 per cell
    expect(twoProportionTest(10, 40, 30, 40, { minN: 40 }).sufficient).toBe(true);
    expect(twoProportionTest(10, 40, 30, 40, { minN: 41 }).sufficient).toBe(false);
    expect(twoProportionTest(10, 40, 30, 40, { minExpected: 20 }).sufficient).toBe(true);
    expect(twoProportionTest(10, 40, 30, 40, { minExpected: 20.5 }).sufficient).toBe(false);
    // each group must reach minN, whichever is the small one
    expect(twoProportionTest(10, 39, 30, 40, { minN: 40 }).sufficient).toBe(false);
    expect(twoProportionTest(10, 40, 30, 39, { minN: 40 }).sufficient).toBe(false);
    // each of the four expected counts must reach minExpected: 30 calls against 1000, pooled 0.1 or 0.9
    expect(twoProportionTest(3, 30, 100, 1000).sufficient).toBe(false); // 30 · 0.1 = 3
    expect(twoProportionTest(27, 30, 900, 1000).sufficient).toBe(false); // 30 · (1 − 0.9) = 3
    expect(twoProportionTest(100, 1000, 3, 30).sufficient).toBe(false);
    expect(twoProportionTest(900, 1000, 27, 30).sufficient).toBe(false);
    expect(twoProportionTest(6, 60, 100, 1000).sufficient).toBe(true); // 60 · 0.1 = 6
    // 5/100 vs 5/100: pooled 0.05, expected 5 and 95 per group
    expect(twoProportionTest(5, 100, 5, 100).sufficient).toBe(true);
    expect(twoProportionTest(4, 100, 5, 100).sufficient).toBe(false);
  });

  it("a p-value equal to alpha is not significant", () => {
    const r = twoProportionTest(30, 100, 45, 100);
    expect(twoProportionTest(30, 100, 45, 100, { alpha: r.pValue }).significant).toBe(false);
    expect(twoProportionTest(30, 100, 45, 100, { alpha: r.pValue * 1.000001 }).significant).toBe(true);
    // the sign of z follows the difference
    expect(twoProportionTest(45, 100, 30, 100).z).toBeCloseTo(-r.z, 10);
  });

  it("observed attempts from counts: retried failures count, abandoned ones do not", () => {
    expect(observedAttemptsFromCounts({ calls: 100, invalid: 20, corrected: 16 })).toBeCloseTo(96 / 80, 10);
    expect(observedAttemptsFromCounts({ calls: 100, invalid: 20, corrected: 0 })).toBe(1);
    expect(observedAttemptsFromCounts({ calls: 5, invalid: 5, corrected: 5 })).toBeNull();
    expect(observedAttemptsPerSuccess(0, 3)).toBe(0);
  });

  it("observed attempts leave unchecked calls out: they are no successes", () => {
    expect(observedAttemptsFromCounts({ calls: 120, invalid: 20, unchecked: 20, corrected: 16 })).toBeCloseTo(96 / 80, 10);
    expect(observedAttemptsFromCounts({ calls: 3, invalid: 0, unchecked: 3, corrected: 0 })).toBeNull();
  });
});

describe("verdict counts: an unchecked call is neither valid nor invalid", () => {
  it("the invalid rate's denominator is the checked calls", () => {
    const c = { calls: 130, invalid: 10, unchecked: 30 };
    expect(checkedCalls(c)).toBe(100);
    expect(validCalls(c)).toBe(90);
    expect(checkedInvalidRate(c)).toBe(0.1);
  });
  it("only unchecked calls: no rate at all, not 0%", () => {
    expect(checkedInvalidRate({ calls: 1, invalid: 0, unchecked: 1 })).toBeNull();
    expect(validCalls({ calls: 1, invalid: 0, unchecked: 1 })).toBe(0);
  });
  it("refuses counts that do not add up", () => {
    expect(() => checkedCalls({ calls: 3, invalid: 2, unchecked: 2 })).toThrow("invalid (2) and unchecked (2) exceed calls (3)");
    expect(() => checkedCalls({ calls: 3, invalid: 0, unchecked: -1 })).toThrow("unchecked must be a non-negative integer");
  });
});

describe("a call's verdict", () => {
  it("is decided from its valid column once: true valid, false invalid, null unchecked (neither)", () => {
    expect([true, false, null].map(verdictOf)).toEqual(["valid", "invalid", "unchecked"]);
    const counts = countVerdicts([{ valid: true }, { valid: null }, { valid: false }, { valid: null }]);
    expect(counts).toEqual({ calls: 4, invalid: 1, unchecked: 2 });
    expect([checkedCalls(counts), validCalls(counts)]).toEqual([2, 1]);
  });
});

import { describe, expect, it } from "vitest";
import { checkWindow, evaluationTimes, metricValue, nextTransition, previewRule, previewTimes, regressionCheck, ruleState, type RuleSpec } from "./alert-rules";

const rule = (over: Partial<RuleSpec> = {}): RuleSpec => ({
  metric: "invalid_rate",
  condition: { kind: "threshold", threshold: 0.1 },
  windowMinutes: 15,
  minCalls: 50,
  ...over,
});
const t = (minute: number) => new Date(Date.UTC(2026, 10, 30, 12, minute));

describe("checkWindow", () => {
  it("breaches above the threshold only", () => {
    expect(checkWindow(rule(), { calls: 100, invalid: 11, corrected: 0 })).toMatchObject({ breach: true, value: 0.11, threshold: 0.1 });
    expect(checkWindow(rule(), { calls: 100, invalid: 10, corrected: 0 }).breach).toBe(false);
  });

  it("stays quiet below the minimum number of calls", () => {
    expect(checkWindow(rule(), { calls: 3, invalid: 2, corrected: 0 })).toMatchObject({ breach: false, quiet: true });
  });

  it("compares with a baseline window by a factor", () => {
    const r = rule({ condition: { kind: "baseline_factor", factor: 2 } });
    const baseline = { calls: 1000, invalid: 50, corrected: 0 };
    expect(checkWindow(r, { calls: 100, invalid: 11, corrected: 0 }, baseline)).toMatchObject({ breach: true, threshold: 0.1 });
    expect(checkWindow(r, { calls: 100, invalid: 9, corrected: 0 }, baseline).breach).toBe(false);
    expect(checkWindow(r, { calls: 100, invalid: 50, corrected: 0 }, { calls: 10, invalid: 0, corrected: 0 }).breach).toBe(false);
  });

  it("computes each metric", () => {
    expect(metricValue("attempts_per_success", { calls: 100, invalid: 20, corrected: 16 })).toBeCloseTo(1.2);
    expect(metricValue("category_rate", { calls: 200, invalid: 20, corrected: 0, categoryCalls: 10 })).toBe(0.05);
    expect(metricValue("call_volume", { calls: 7, invalid: 0, corrected: 0 })).toBe(7);
  });
});

describe("nextTransition", () => {
  const breach = checkWindow(rule(), { calls: 100, invalid: 30, corrected: 0 });
  const clear = checkWindow(rule(), { calls: 100, invalid: 1, corrected: 0 });

  it("fires once, then holds while the condition stays", () => {
    expect(nextTransition(breach, { open: false, clearSince: null }, t(0), 15).action).toBe("fire");
    expect(nextTransition(breach, { open: true, clearSince: null }, t(1), 15)).toEqual({ action: "none", clearSince: null });
  });

  it("resolves only after a whole clean window, and a relapse restarts the clock (no flapping)", () => {
    let state = { open: true, clearSince: null as Date | null };
    const step = (check: typeof clear, minute: number) => {
      const tr = nextTransition(check, state, t(minute), 15);
      if (tr.action !== "fire") state = { open: tr.action !== "resolve", clearSince: tr.clearSince };
      return tr.action;
    };
    expect(step(clear, 0)).toBe("none");
    expect(step(clear, 10)).toBe("none");
    expect(step(breach, 12)).toBe("none");
    expect(step(clear, 13)).toBe("none");
    expect(step(clear, 27)).toBe("none");
    expect(step(clear, 28)).toBe("resolve");
  });
});

describe("evaluationTimes", () => {
  it("evaluates now on a first run, and each missed window after a restart", () => {
    expect(evaluationTimes(null, t(30), 5)).toEqual([t(30)]);
    expect(evaluationTimes(t(29), t(30), 5)).toEqual([t(30)]);
    expect(evaluationTimes(t(0), t(17), 5)).toEqual([t(5), t(10), t(15), t(17)]);
  });
});

describe("regressionCheck", () => {
  it("does not alert on 2 bad calls out of 3", () => {
    expect(regressionCheck({ invalid: 60, calls: 1000 }, { invalid: 2, calls: 3 })).toMatchObject({ breach: false, quiet: true });
  });
  it("alerts on a large, clear regression and not on an improvement or noise", () => {
    expect(regressionCheck({ invalid: 60, calls: 1000 }, { invalid: 200, calls: 1000 }).breach).toBe(true);
    expect(regressionCheck({ invalid: 200, calls: 1000 }, { invalid: 60, calls: 1000 }).breach).toBe(false);
    expect(regressionCheck({ invalid: 60, calls: 1000 }, { invalid: 70, calls: 1000 }).breach).toBe(false);
  });
});

describe("alert rules at their edges", () => {
  it("a rate over no calls is no value; a missing category count is none", () => {
    expect(metricValue("invalid_rate", { calls: 0, invalid: 0, corrected: 0 })).toBeNull();
    expect(metricValue("category_rate", { calls: 0, invalid: 0, corrected: 0, categoryCalls: 0 })).toBeNull();
    expect(metricValue("category_rate", { calls: 10, invalid: 3, corrected: 0 })).toBe(0);
    expect(metricValue("invalid_rate", { calls: 8, invalid: 2, corrected: 0 })).toBe(0.25);
    expect(metricValue("attempts_per_success", { calls: 5, invalid: 5, corrected: 0 })).toBeNull();
  });

  it("unchecked calls are neither valid nor invalid: rates over the checked calls, all unchecked is no data (not 0 %)", () => {
    const mixed = { calls: 60, invalid: 12, unchecked: 48, corrected: 0, categoryCalls: 6 };
    expect(metricValue("invalid_rate", mixed)).toBe(1);
    expect(metricValue("category_rate", mixed)).toBe(0.5);
    expect(metricValue("call_volume", mixed)).toBe(60);
    const allUnchecked = { calls: 30, invalid: 0, unchecked: 30, corrected: 0 };
    expect(metricValue("invalid_rate", allUnchecked)).toBeNull();
    expect(checkWindow(rule({ minCalls: 0 }), allUnchecked)).toMatchObject({
      breach: false,
      value: null,
      calls: 0,
      missing: { state: "no_data", in: "window" },
    });
    // the minimum counts checked calls: 12 of them under 20, whatever the unchecked ones add
    expect(checkWindow(rule({ minCalls: 20 }), mixed)).toMatchObject({ breach: false, quiet: true, calls: 12, missing: { state: "not_enough_calls" } });
    expect(checkWindow(rule({ minCalls: 10 }), mixed)).toMatchObject({ breach: true, value: 1, calls: 12 });
  });

  it("minCalls calls are enough; call volume is never quiet", () => {
    expect(checkWindow(rule({ minCalls: 100 }), { calls: 100, invalid: 20, corrected: 0 })).toEqual({
      breach: true,
      value: 0.2,
      threshold: 0.1,
      calls: 100,
      quiet: false,
      missing: null,
    });
    expect(checkWindow(rule({ minCalls: 101 }), { calls: 100, invalid: 20, corrected: 0 })).toMatchObject({ breach: false, quiet: true, value: 0.2 });
    const volume = rule({ metric: "call_volume", condition: { kind: "threshold", threshold: 5 }, minCalls: 50 });
    expect(checkWindow(volume, { calls: 6, invalid: 0, corrected: 0 })).toMatchObject({ breach: true, quiet: false, value: 6 });
  });

  it("without a usable baseline there is no threshold, so no breach", () => {
    const doubled = (metric: RuleSpec["metric"]) => rule({ metric, condition: { kind: "baseline_factor", factor: 2 }, minCalls: 10 });
    const current = { calls: 100, invalid: 50, corrected: 0 };
    expect(checkWindow(doubled("invalid_rate"), current)).toMatchObject({ breach: false, threshold: null });
    expect(checkWindow(doubled("invalid_rate"), current, { calls: 9, invalid: 0, corrected: 0 })).toMatchObject({ breach: false, threshold: null });
    expect(checkWindow(doubled("invalid_rate"), current, { calls: 10, invalid: 1, corrected: 0 })).toMatchObject({ breach: true, threshold: 0.2 });
    // a baseline where nothing succeeded has no attempts per success: no threshold, rather than 0
    const attempts = rule({ metric: "attempts_per_success", condition: { kind: "baseline_factor", factor: 2 }, minCalls: 10 });
    expect(checkWindow(attempts, { calls: 100, invalid: 10, corrected: 5 }, { calls: 100, invalid: 100, corrected: 0 })).toMatchObject({
      breach: false,
      threshold: null,
    });
    // a volume baseline counts however small it is
    expect(checkWindow(doubled("call_volume"), current, { calls: 3, invalid: 0, corrected: 0 })).toMatchObject({ breach: true, threshold: 6 });
    expect(checkWindow(doubled("call_volume"), { calls: 6, invalid: 0, corrected: 0 }, { calls: 3, invalid: 0, corrected: 0 }).breach).toBe(false);
  });

  it("a closed rule that is clear stays closed; a fire carries its check", () => {
    const clear = checkWindow(rule(), { calls: 100, invalid: 1, corrected: 0 });
    const breach = checkWindow(rule(), { calls: 100, invalid: 30, corrected: 0 });
    expect(nextTransition(clear, { open: false, clearSince: null }, t(0), 15)).toEqual({ action: "none", clearSince: null });
    expect(nextTransition(breach, { open: false, clearSince: null }, t(0), 15)).toEqual({ action: "fire", check: breach });
    // clear since minute 0: still open at 14:59, resolved at 15:00 exactly
    const open = { open: true, clearSince: t(0) };
    expect(nextTransition(clear, open, new Date(t(15).getTime() - 1), 15)).toEqual({ action: "none", clearSince: t(0) });
    expect(nextTransition(clear, open, t(15), 15)).toEqual({ action: "resolve", clearSince: t(0) });
  });

  it("catches up at most 24 missed windows, and never evaluates the same instant twice", () => {
    const times = evaluationTimes(t(0), new Date(t(0).getTime() + 1000 * 60_000), 5);
    expect(times).toHaveLength(25);
    expect(times[23]).toEqual(new Date(t(0).getTime() + 24 * 5 * 60_000));
    expect(evaluationTimes(t(25), t(30), 5)).toEqual([t(30)]);
  });

  it("a regression check reports both rates and its p-value, and takes other options", () => {
    const check = regressionCheck({ invalid: 60, calls: 1000 }, { invalid: 200, calls: 1000 });
    expect(check).toMatchObject({ breach: true, value: 0.2, threshold: 0.06, calls: 1000, quiet: false });
    expect(check.pValue).toBeLessThan(1e-10);
    expect(regressionCheck({ invalid: 0, calls: 0 }, { invalid: 0, calls: 0 })).toMatchObject({
      breach: false,
      value: null,
      threshold: null,
      quiet: true,
      pValue: 1,
    });
    // 60/1000 → 80/1000: p ≈ 0.08, a regression only at alpha 0.1
    expect(regressionCheck({ invalid: 60, calls: 1000 }, { invalid: 80, calls: 1000 }).breach).toBe(false);
    expect(regressionCheck({ invalid: 60, calls: 1000 }, { invalid: 80, calls: 1000 }, { alpha: 0.1, minCalls: 100 }).breach).toBe(true);
    expect(regressionCheck({ invalid: 60, calls: 1000 }, { invalid: 200, calls: 1000 }, { alpha: 0.01, minCalls: 1001 })).toMatchObject({
      breach: false,
      quiet: true,
    });
  });
});

describe("ruleState", () => {
  const counts = (calls: number, invalid: number) => ({ calls, invalid, corrected: 0 });
  it("says ok, firing, pending, no data and not enough calls (with the minimum's window)", () => {
    expect(ruleState(checkWindow(rule(), counts(100, 1)), false)).toBe("ok");
    expect(ruleState(checkWindow(rule(), counts(100, 30)), true)).toBe("firing");
    expect(ruleState(checkWindow(rule(), counts(100, 1)), true)).toBe("pending");
    expect(ruleState(checkWindow(rule(), counts(0, 0)), false)).toBe("no_data");
    // the "getloan > 10 % over 1 h" rule: 40 % invalid but 20 calls under the 50-call minimum
    const few = checkWindow(rule(), counts(20, 8));
    expect(few).toMatchObject({ breach: false, missing: { state: "not_enough_calls", in: "window" } });
    expect(ruleState(few, false)).toBe("not_enough_calls");
  });
  it("names the baseline window when the baseline is what lacks calls", () => {
    const r = rule({ condition: { kind: "baseline_factor", factor: 2 } });
    expect(checkWindow(r, counts(100, 30), counts(10, 1)).missing).toEqual({ state: "not_enough_calls", in: "baseline" });
    expect(checkWindow(r, counts(100, 30), counts(0, 0)).missing).toEqual({ state: "no_data", in: "baseline" });
    expect(checkWindow(r, counts(100, 30), counts(1000, 10)).missing).toBeNull();
  });
  it("never reports missing data for call volume with no calls (zero is its value)", () => {
    const volume = rule({ metric: "call_volume", condition: { kind: "threshold", threshold: 5 } });
    expect(ruleState(checkWindow(volume, counts(0, 0)), false)).toBe("ok");
  });
});

describe("previewRule", () => {
  const HOUR = 3_600_000;
  const hourly = rule({ windowMinutes: 60 });
  // 12 hours: hours 3–4 and 8 bad (30 % invalid), the rest clean, 100 calls each
  const buckets = Array.from({ length: 12 }, (_, h) => ({ start: h * HOUR, counts: { calls: 100, invalid: [3, 4, 8].includes(h) ? 30 : 1, corrected: 0 } }));
  const series = { window: { buckets, bucketMs: HOUR } };
  const range = { from: HOUR, to: 12 * HOUR, stepMs: HOUR };

  it("counts each firing once, as the evaluator's transitions would", () => {
    const preview = previewRule(hourly, null, series, range);
    // fires at 4 h (the window 3–4 h), clear from 6 h, resolves at 7 h, fires again at 9 h
    expect(preview.fired).toBe(2);
    expect(preview.points.find((p) => p.at === 4 * HOUR)).toMatchObject({ value: 0.3, threshold: 0.1, state: "firing" });
    expect(preview.points.find((p) => p.at === 6 * HOUR)?.state).toBe("pending");
    expect(preview.points.find((p) => p.at === 7 * HOUR)?.state).toBe("ok");
  });

  it("stays silent under the call minimum and says so", () => {
    const few = buckets.map((b) => ({ ...b, counts: { ...b.counts, calls: 20, invalid: 8 } }));
    const preview = previewRule(hourly, null, { window: { buckets: few, bucketMs: HOUR } }, range);
    expect(preview.fired).toBe(0);
    expect(new Set(preview.points.map((p) => p.state))).toEqual(new Set(["not_enough_calls"]));
  });

  it("reads the baseline window just before the evaluation window", () => {
    const r = rule({ windowMinutes: 60, condition: { kind: "baseline_factor", factor: 2 } });
    const preview = previewRule(r, 120, series, { ...range, from: 3 * HOUR });
    // at 4 h: window 3–4 h (30 %) against the baseline 1–3 h (1 %): threshold 2 %
    expect(preview.points.find((p) => p.at === 4 * HOUR)).toMatchObject({ threshold: 0.02, state: "firing" });
  });

  it("adds up a sub-hour window from minute buckets and the baseline from hour buckets, as the evaluator reads them", () => {
    const MIN = 60_000;
    const r = rule({ windowMinutes: 15, condition: { kind: "baseline_factor", factor: 2 } });
    // 15 minutes at 40 % invalid, from 5 h 00 to 5 h 15; the hours before it at 5 %
    const minutes = Array.from({ length: 15 }, (_, m) => ({ start: 5 * HOUR + m * MIN, counts: { calls: 10, invalid: 4, corrected: 0 } }));
    const hours = Array.from({ length: 5 }, (_, h) => ({ start: h * HOUR, counts: { calls: 100, invalid: 5, corrected: 0 } }));
    const preview = previewRule(
      r,
      120,
      { window: { buckets: minutes, bucketMs: MIN }, baseline: { buckets: hours, bucketMs: HOUR } },
      {
        from: 5 * HOUR + 15 * MIN,
        to: 5 * HOUR + 15 * MIN,
        stepMs: 5 * MIN,
      },
    );
    // baseline 3 h 15 – 5 h 00 read as the hourly rollups do: hours 3 and 4 (200 calls, 5 %)
    expect(preview.points[0]).toMatchObject({ value: 0.4, threshold: 0.1, state: "firing" });
    expect(preview.fired).toBe(1);
  });
});

describe("alert rules, one mutant at a time", () => {
  const HOUR = 3_600_000;
  const counts = (calls: number, invalid: number, corrected = 0, categoryCalls?: number) => ({
    calls,
    invalid,
    corrected,
    ...(categoryCalls === undefined ? {} : { categoryCalls }),
  });
  const hours = (perHour: ReturnType<typeof counts>[]) => perHour.map((c, h) => ({ start: h * HOUR, counts: c }));

  it("attempts per success with no success at all is no data, not ok", () => {
    const attempts = rule({ metric: "attempts_per_success", condition: { kind: "threshold", threshold: 1.5 }, minCalls: 10 });
    const check = checkWindow(attempts, counts(100, 100));
    expect(check).toMatchObject({ breach: false, value: null, missing: { state: "no_data", in: "window" } });
    expect(ruleState(check, false)).toBe("no_data");
  });

  it("a regression check short of calls says which version is short, the new one first", () => {
    // 10 % invalid in both versions: enough failures for the test whenever both have enough calls
    const short = (previousCalls: number, nextCalls: number) =>
      regressionCheck({ invalid: previousCalls / 10, calls: previousCalls }, { invalid: nextCalls / 10, calls: nextCalls }).missing;
    expect(short(1000, 30)).toEqual({ state: "not_enough_calls", in: "window" });
    expect(short(1000, 90)).toEqual({ state: "not_enough_calls", in: "window" });
    expect(short(10, 100)).toEqual({ state: "not_enough_calls", in: "baseline" });
    expect(short(10, 30)).toEqual({ state: "not_enough_calls", in: "window" });
    expect(short(1000, 1000)).toBeNull();
    expect(ruleState(regressionCheck({ invalid: 0, calls: 10 }, { invalid: 50, calls: 1000 }), false)).toBe("not_enough_calls");
  });

  it("a preview counts the minutes an incident was open", () => {
    const bad = [3, 4, 8];
    const series = { window: { buckets: hours(Array.from({ length: 12 }, (_, h) => counts(100, bad.includes(h) ? 30 : 1))), bucketMs: HOUR } };
    const preview = previewRule(rule({ windowMinutes: 60 }), null, series, { from: HOUR, to: 12 * HOUR, stepMs: HOUR });
    // open at 4, 5 and 6 h (resolved at 7 h), and at 9 and 10 h (resolved at 11 h)
    expect(preview.points.filter((p) => p.state === "firing" || p.state === "pending").map((p) => p.at / HOUR)).toEqual([4, 5, 6, 9, 10]);
    expect(preview.firingMinutes).toBe(5 * 60);
    expect(preview.fired).toBe(2);
  });

  it("a preview takes each step once, and the end of the range when it falls between steps", () => {
    const series = { window: { buckets: hours(Array.from({ length: 6 }, () => counts(100, 1))), bucketMs: HOUR } };
    const onStep = previewRule(rule({ windowMinutes: 60 }), null, series, { from: HOUR, to: 4 * HOUR, stepMs: HOUR });
    expect(onStep.points.map((p) => p.at / HOUR)).toEqual([1, 2, 3, 4]);
    const between = previewRule(rule({ windowMinutes: 60 }), null, series, { from: HOUR, to: 4.5 * HOUR, stepMs: HOUR });
    expect(between.points.map((p) => p.at / HOUR)).toEqual([1, 2, 3, 4, 4.5]);
  });

  it("a preview reads buckets in any order", () => {
    const perHour = [counts(100, 1), counts(100, 1), counts(100, 30), counts(100, 1), counts(100, 1)];
    const sorted = hours(perHour);
    const range = { from: HOUR, to: 5 * HOUR, stepMs: HOUR };
    const expected = previewRule(rule({ windowMinutes: 60 }), null, { window: { buckets: sorted, bucketMs: HOUR } }, range);
    expect(expected.points.map((p) => p.value)).toEqual([0.01, 0.01, 0.3, 0.01, 0.01]);
    for (const order of [
      [4, 3, 2, 1, 0],
      [2, 0, 4, 1, 3],
      [1, 4, 0, 3, 2],
    ]) {
      const shuffled = order.map((i) => sorted[i]!);
      expect(previewRule(rule({ windowMinutes: 60 }), null, { window: { buckets: shuffled, bucketMs: HOUR } }, range)).toEqual(expected);
    }
  });

  it("a preview adds up corrected calls and category calls over the window", () => {
    // two-hour windows: attempts per success (100 + 20 attempts for 100 successes per hour) and a category's share
    const perHour = Array.from({ length: 4 }, (_, h) => counts(120, 20, h === 3 ? 20 : 10, h === 3 ? 60 : 12));
    const series = { window: { buckets: hours(perHour), bucketMs: HOUR } };
    const range = { from: 4 * HOUR, to: 4 * HOUR, stepMs: HOUR };
    const attempts = rule({ metric: "attempts_per_success", condition: { kind: "threshold", threshold: 1.5 }, windowMinutes: 120, minCalls: 10 });
    // hours 2 and 3: (100 + 10 + 100 + 20) attempts for 200 successes
    expect(previewRule(attempts, null, series, range).points[0]!.value).toBeCloseTo(230 / 200);
    const category = rule({ metric: "category_rate", condition: { kind: "threshold", threshold: 0.1 }, windowMinutes: 120, minCalls: 10 });
    expect(previewRule(category, null, series, range).points[0]).toMatchObject({ value: 72 / 240, state: "firing" });
    // a bucket without a category count adds none
    const unnamed = { window: { buckets: hours([counts(100, 0), counts(100, 0, 0, 30)]), bucketMs: HOUR } };
    expect(previewRule(category, null, unnamed, { from: 2 * HOUR, to: 2 * HOUR, stepMs: HOUR }).points[0]!.value).toBe(30 / 200);
  });

  it("a preview reads a baseline of the rule's length, and none when the rule has no baseline length", () => {
    // baseline hours 1 and 2 at 5 % and 1 %: 3 % over both, so twice that is 6 %
    const perHour = [counts(100, 0), counts(100, 5), counts(100, 1), counts(100, 5)];
    const series = { window: { buckets: hours(perHour), bucketMs: HOUR } };
    const doubled = rule({ windowMinutes: 60, condition: { kind: "baseline_factor", factor: 2 }, minCalls: 10 });
    const at4 = previewRule(doubled, 120, series, { from: 4 * HOUR, to: 4 * HOUR, stepMs: HOUR }).points[0];
    expect(at4).toMatchObject({ value: 0.05, threshold: 0.06, state: "ok" });
    // a volume rule by a factor with no baseline length has no threshold (0 calls would make every call a breach)
    const volume = rule({ metric: "call_volume", windowMinutes: 60, condition: { kind: "baseline_factor", factor: 2 } });
    const preview = previewRule(volume, null, series, { from: 4 * HOUR, to: 4 * HOUR, stepMs: HOUR });
    expect(preview.points[0]).toMatchObject({ value: 100, threshold: null, state: "no_data" });
    expect(preview.fired).toBe(0);
  });
});

describe("the tool error rate, latency p95 and spirals rules", () => {
  const spec = (metric: RuleSpec["metric"], threshold: number, minCalls = 50): RuleSpec => ({
    metric,
    condition: { kind: "threshold", threshold },
    windowMinutes: 60,
    minCalls,
  });
  const base = { calls: 500, invalid: 0, corrected: 0 };

  it("the tool error rate is failed results over results, and its minimum counts results", () => {
    expect(checkWindow(spec("tool_error_rate", 0.1), { ...base, results: 100, failedResults: 20 })).toMatchObject({ breach: true, value: 0.2, calls: 100 });
    expect(checkWindow(spec("tool_error_rate", 0.1), { ...base, results: 100, failedResults: 5 })).toMatchObject({ breach: false, value: 0.05 });
    // 500 calls but 10 results: under the minimum of 50, quiet whatever the rate
    expect(checkWindow(spec("tool_error_rate", 0.1), { ...base, results: 10, failedResults: 10 })).toMatchObject({
      breach: false,
      quiet: true,
      missing: { state: "not_enough_calls", in: "window" },
    });
    expect(checkWindow(spec("tool_error_rate", 0.1), { ...base, results: 0 }).missing).toEqual({ state: "no_data", in: "window" });
  });

  it("the empty result rate is empty results over results, with the same minimum of results", () => {
    expect(checkWindow(spec("empty_result_rate", 0.1), { ...base, results: 100, emptyResults: 30, failedResults: 50 })).toMatchObject({
      breach: true,
      value: 0.3,
      calls: 100,
    });
    expect(checkWindow(spec("empty_result_rate", 0.1), { ...base, results: 10, emptyResults: 10 }).missing).toEqual({
      state: "not_enough_calls",
      in: "window",
    });
    expect(checkWindow(spec("empty_result_rate", 0.1), { ...base, results: 0 }).missing).toEqual({ state: "no_data", in: "window" });
  });

  it("latency p95 compares milliseconds and needs 20 timed results whatever the minimum", () => {
    expect(checkWindow(spec("latency_p95", 1000, 0), { ...base, timed: 200, p95: 1500 })).toMatchObject({ breach: true, value: 1500, calls: 200 });
    expect(checkWindow(spec("latency_p95", 1000, 0), { ...base, timed: 200, p95: 800 }).breach).toBe(false);
    expect(checkWindow(spec("latency_p95", 1000, 0), { ...base, timed: 19, p95: null })).toMatchObject({
      breach: false,
      missing: { state: "not_enough_calls", in: "window" },
    });
  });

  it("spirals are a count: no minimum, no data only without calls", () => {
    expect(checkWindow(spec("spirals", 0), { ...base, calls: 3, spirals: 1 })).toMatchObject({ breach: true, value: 1, quiet: false, missing: null });
    expect(checkWindow(spec("spirals", 2), { ...base, spirals: 2 }).breach).toBe(false);
    expect(checkWindow(spec("spirals", 0), { calls: 0, invalid: 0, corrected: 0, spirals: 0 }).missing).toEqual({ state: "no_data", in: "window" });
  });

  it("the preview adds up results per bucket and takes what does not add up from `apart`", () => {
    const hour = 3_600_000;
    const buckets = [0, 1, 2, 3].map((h) => ({
      start: h * hour,
      counts: { calls: 100, invalid: 0, corrected: 0, results: 100, failedResults: h === 2 ? 30 : 0 },
    }));
    const errors = previewRule(spec("tool_error_rate", 0.2), null, { window: { buckets, bucketMs: hour } }, { from: hour, to: 4 * hour, stepMs: hour });
    expect(errors.points.map((p) => p.value)).toEqual([0, 0, 0.3, 0]);
    expect(errors.fired).toBe(1);
    // every count that adds up is summed: the empty results too
    const withEmpty = buckets.map((b) => ({ ...b, counts: { ...b.counts, emptyResults: b.start === 3 * hour ? 40 : 0 } }));
    const empty = previewRule(
      spec("empty_result_rate", 0.2),
      null,
      { window: { buckets: withEmpty, bucketMs: hour } },
      { from: hour, to: 4 * hour, stepMs: hour },
    );
    expect(empty.points.map((p) => p.value)).toEqual([0, 0, 0, 0.4]);
    const spirals = previewRule(spec("spirals", 1), null, { window: { buckets, bucketMs: hour } }, { from: hour, to: 4 * hour, stepMs: hour }, (from) => ({
      spirals: from === hour ? 2 : 0,
    }));
    expect(spirals.points.map((p) => p.value)).toEqual([0, 2, 0, 0]);
    expect(previewTimes({ from: 0, to: 150, stepMs: 60 })).toEqual([0, 60, 120, 150]);
  });
});

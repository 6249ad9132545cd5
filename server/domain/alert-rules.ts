import { COUNT_METRICS, type AlertMetricName, type RuleState } from "../../contracts/alerts";
import { MIN_TIMED_RESULTS } from "../../isomorphic/latency-histogram";
import { checkedCalls, observedAttemptsFromCounts, twoProportionTest } from "../../isomorphic/stats";

/**
 * Alert rule logic, pure: metric values in, state changes out; the clock is a parameter.
 * An incident fires once when the condition holds, and resolves only after the condition
 * has been clear for a whole window, so a value hovering at the threshold cannot flap.
 */

type RuleCondition = { kind: "threshold"; threshold: number } | { kind: "baseline_factor"; factor: number };

export type RuleSpec = { metric: AlertMetricName; condition: RuleCondition; windowMinutes: number; minCalls: number };

/**
 * Totals over one window: the rollups' counts (calls, invalid, corrected, unchecked, the
 * category's calls, the results, the failed ones and the empty ones), and what is read apart: the latency p95 of
 * `timed` results (ms, null below MIN_TIMED_RESULTS) and the number of retry spirals. `unchecked`
 * calls (no schema, no harness verdict) are neither valid nor invalid: the rates of calls are over
 * the checked calls (isomorphic/stats.ts checkedCalls).
 */
export type WindowCounts = {
  calls: number;
  invalid: number;
  corrected: number;
  unchecked?: number;
  categoryCalls?: number;
  results?: number;
  failedResults?: number;
  emptyResults?: number;
  timed?: number;
  p95?: number | null;
  spirals?: number;
};

/**
 * What a metric is computed over, and a rule's minimum counts: results for the tool error and empty result rates,
 * timed results for latency, all calls for the counts (volume, spirals), else the checked calls.
 */
function sampleSize(metric: AlertMetricName, c: WindowCounts): number {
  if (metric === "tool_error_rate" || metric === "empty_result_rate") return c.results ?? 0;
  if (metric === "latency_p95") return c.timed ?? 0;
  if (COUNT_METRICS.includes(metric)) return c.calls;
  return checkedCalls({ calls: c.calls, invalid: c.invalid, unchecked: c.unchecked ?? 0 });
}

/** The smallest sample a rule judges: its minimum, and for latency never fewer than a p95 needs. */
const minimumOf = (rule: RuleSpec) => (rule.metric === "latency_p95" ? Math.max(rule.minCalls, MIN_TIMED_RESULTS) : rule.minCalls);
const hasMinimum = (metric: AlertMetricName) => !COUNT_METRICS.includes(metric);

export function metricValue(metric: AlertMetricName, c: WindowCounts): number | null {
  const checked = sampleSize(metric, c);
  switch (metric) {
    case "tool_error_rate":
      return c.results ? (c.failedResults ?? 0) / c.results : null;
    case "empty_result_rate":
      return c.results ? (c.emptyResults ?? 0) / c.results : null;
    case "latency_p95":
      return c.p95 ?? null;
    case "spirals":
      return c.spirals ?? 0;
    case "invalid_rate":
      return checked > 0 ? c.invalid / checked : null;
    case "category_rate":
      return checked > 0 ? (c.categoryCalls ?? 0) / checked : null;
    case "attempts_per_success":
      return observedAttemptsFromCounts(c);
    case "call_volume":
      return c.calls;
  }
}

/**
 * Why a window could not be judged: no value at all (no calls, none of them checked, or a
 * baseline without checked calls), or fewer (checked) calls than the rule's minimum, in the
 * evaluation window or in the baseline window.
 */
type Missing = { state: "no_data" | "not_enough_calls"; in: "window" | "baseline" } | null;

/** `calls`: the calls the value is computed over (the checked ones for a rate rule). */
export type Check = { breach: boolean; value: number | null; threshold: number | null; calls: number; quiet: boolean; missing: Missing };

function missingIn(rule: RuleSpec, counts: WindowCounts | undefined, where: "window" | "baseline"): Missing {
  if (!counts || (rule.metric !== "call_volume" && sampleSize(rule.metric, counts) === 0)) return { state: "no_data", in: where };
  if (hasMinimum(rule.metric) && sampleSize(rule.metric, counts) < minimumOf(rule)) return { state: "not_enough_calls", in: where };
  if (metricValue(rule.metric, counts) === null) return { state: "no_data", in: where };
  return null;
}

/**
 * Whether the window breaches the rule. Below its minimum (of checked calls; of results for the
 * tool error rate, of timed results for latency) a rule stays quiet (no breach); counts (volume,
 * spirals) have none. A window whose calls are all unchecked has no value: no data, never 0 %.
 * `calls` is the sample (sampleSize).
 */
export function checkWindow(rule: RuleSpec, current: WindowCounts, baseline?: WindowCounts): Check {
  const value = metricValue(rule.metric, current);
  const quiet = hasMinimum(rule.metric) && sampleSize(rule.metric, current) < minimumOf(rule);
  let threshold: number | null;
  let missing = missingIn(rule, current, "window");
  if (rule.condition.kind === "threshold") threshold = rule.condition.threshold;
  else {
    const base = baseline ? metricValue(rule.metric, baseline) : null;
    const baselineMissing = missingIn(rule, baseline, "baseline");
    threshold = base === null || baselineMissing ? null : base * rule.condition.factor;
    missing ??= baselineMissing;
  }
  const breach = !quiet && value !== null && threshold !== null && value > threshold;
  return { breach, value, threshold, calls: sampleSize(rule.metric, current), quiet, missing };
}

/**
 * A rule's state after an evaluation, from its check and whether an incident is open after
 * it: firing while the condition holds with an incident open; pending while an open incident
 * waits for its condition to stay clear for a whole window (nextTransition); otherwise
 * no data or not enough calls when the window could not be judged, else ok.
 */
export function ruleState(check: Check, openAfter: boolean): RuleState {
  if (openAfter) return check.breach ? "firing" : "pending";
  return check.missing?.state ?? "ok";
}

export type OpenState = { open: boolean; clearSince: Date | null };
export type Transition = { action: "fire"; check: Check } | { action: "resolve"; clearSince: Date } | { action: "none"; clearSince: Date | null };

export function nextTransition(check: Check, state: OpenState, now: Date, windowMinutes: number): Transition {
  if (!state.open) return check.breach ? { action: "fire", check } : { action: "none", clearSince: null };
  if (check.breach) return { action: "none", clearSince: null };
  const clearSince = state.clearSince ?? now;
  return now.getTime() - clearSince.getTime() >= windowMinutes * 60_000 ? { action: "resolve", clearSince } : { action: "none", clearSince };
}

/**
 * The times at which to evaluate a rule: after a restart, one evaluation per window that
 * was missed (at most 24), then now — nothing is evaluated twice, no window is skipped.
 */
export function evaluationTimes(lastEvaluatedAt: Date | null, now: Date, windowMinutes: number): Date[] {
  const step = windowMinutes * 60_000;
  const times: Date[] = [];
  if (lastEvaluatedAt) {
    for (let t = lastEvaluatedAt.getTime() + step; t < now.getTime() && times.length < 24; t += step) times.push(new Date(t));
  }
  times.push(now);
  return times;
}

/**
 * The regression guard: is the new version's invalid rate worse than the previous
 * version's with statistical significance? Two-proportion z-test (pooled, two-sided),
 * p < alpha, both versions with at least minCalls calls.
 */
export const REGRESSION_TEST = { alpha: 0.01, minCalls: 100 } as const;
export const REGRESSION_TEST_DESCRIPTION =
  "two-proportion z-test (pooled, two-sided), flagged when p < 0.01, the new version's rate is higher, and both versions have at least 100 calls";

export function regressionCheck(
  previous: { invalid: number; calls: number },
  next: { invalid: number; calls: number },
  options: { alpha: number; minCalls: number } = REGRESSION_TEST,
): Check & { pValue: number } {
  const test = twoProportionTest(previous.invalid, previous.calls, next.invalid, next.calls, { alpha: options.alpha, minN: options.minCalls });
  const value = next.calls > 0 ? next.invalid / next.calls : null;
  const threshold = previous.calls > 0 ? previous.invalid / previous.calls : null;
  const missing: Missing = test.sufficient ? null : { state: "not_enough_calls", in: next.calls < options.minCalls ? "window" : "baseline" };
  return { breach: test.significant && test.diff > 0, value, threshold, calls: next.calls, quiet: !test.sufficient, missing, pValue: test.pValue };
}

/** Counts of one time bucket (start in ms) for a preview. */
export type CountsBucket = { start: number; counts: WindowCounts };
/** Buckets of one size (ms), as one read gives them: minutes of raw calls, or hours of rollups. */
export type BucketSeries = { buckets: readonly CountsBucket[]; bucketMs: number };

type PreviewPoint = { at: number; value: number | null; threshold: number | null; state: RuleState };
export type Preview = { points: PreviewPoint[]; fired: number; firingMinutes: number };

/**
 * The counts that add up over buckets (the rollups' and the raw calls' counts), each named: a new
 * count of WindowCounts does not build until it is said here whether it adds up (the latency p95
 * and the spirals do not: they are read per window).
 */
const ADDS_UP: Record<keyof WindowCounts, boolean> = {
  calls: true,
  invalid: true,
  corrected: true,
  unchecked: true,
  categoryCalls: true,
  results: true,
  failedResults: true,
  emptyResults: true,
  timed: false,
  p95: false,
  spirals: false,
};
const ADDITIVE = (Object.keys(ADDS_UP) as (keyof WindowCounts)[]).filter((k) => ADDS_UP[k]);
type Additive = Record<(typeof ADDITIVE)[number], number>;

/** Sums of the buckets that start in [from rounded down to a bucket, to): the reads' own rule (rollup-range.ts). */
function bucketSums({ buckets, bucketMs }: BucketSeries) {
  const sorted = [...buckets].sort((a, b) => a.start - b.start);
  const starts = sorted.map((b) => b.start);
  // prefix sums: sums[i] = total of the first i buckets
  const sums: Additive[] = [Object.fromEntries(ADDITIVE.map((k) => [k, 0])) as Additive];
  for (const { counts } of sorted) {
    const last = sums[sums.length - 1]!;
    sums.push(Object.fromEntries(ADDITIVE.map((k) => [k, last[k] + (counts[k] ?? 0)])) as Additive);
  }
  const firstAtOrAfter = (t: number) => {
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return (from: number, to: number): WindowCounts => {
    const a = sums[firstAtOrAfter(Math.floor(from / bucketMs) * bucketMs)]!;
    const b = sums[firstAtOrAfter(to)]!;
    return Object.fromEntries(ADDITIVE.map((k) => [k, b[k] - a[k]])) as Additive;
  };
}

/** The times a preview evaluates at: every step from `from`, then `to` itself when it falls between steps (the current hour counts, as it does for the evaluator). */
export function previewTimes(range: { from: number; to: number; stepMs: number }): number[] {
  const times: number[] = [];
  for (let at = range.from; at <= range.to; at += range.stepMs) times.push(at);
  if (times.at(-1) !== range.to) times.push(range.to);
  return times;
}

/**
 * What a rule would have done over the past: at each step from `from` to `to`, the same
 * checkWindow and nextTransition as the evaluator, over the sums of the buckets its reads would
 * have covered (the evaluation window from `series.window`, the baseline window just before it
 * from `series.baseline`), at each step and at `to`. What does not add up over buckets (the
 * latency p95, the spirals) comes from `apart`, read for each window [from, to) on its own.
 * Starts with no incident open.
 */
export function previewRule(
  spec: RuleSpec,
  baselineMinutes: number | null,
  series: { window: BucketSeries; baseline?: BucketSeries },
  range: { from: number; to: number; stepMs: number },
  apart?: (from: number, to: number) => Partial<WindowCounts>,
): Preview {
  const windowOver = bucketSums(series.window);
  const baselineOver = bucketSums(series.baseline ?? series.window);
  const windowMs = spec.windowMinutes * 60_000;
  const points: PreviewPoint[] = [];
  let open = false;
  let clearSince: Date | null = null;
  let fired = 0;
  let firingMinutes = 0;
  for (const at of previewTimes(range)) {
    const from = at - windowMs;
    const baseline = spec.condition.kind === "baseline_factor" && baselineMinutes ? baselineOver(from - baselineMinutes * 60_000, from) : undefined;
    const check = checkWindow(spec, { ...windowOver(from, at), ...apart?.(from, at) }, baseline);
    const transition = nextTransition(check, { open, clearSince }, new Date(at), spec.windowMinutes);
    if (transition.action === "fire") {
      fired++;
      open = true;
      clearSince = null;
    } else if (transition.action === "resolve") {
      open = false;
      clearSince = null;
    } else clearSince = transition.clearSince;
    if (open) firingMinutes += range.stepMs / 60_000;
    points.push({ at, value: check.value, threshold: check.threshold, state: ruleState(check, open) });
  }
  return { points, fired, firingMinutes };
}

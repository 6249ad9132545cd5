import type { AlertMetricName } from "../../contracts/alerts";
import { observedAttemptsFromCounts, twoProportionTest } from "../../isomorphic/stats";

/**
 * Alert rule logic, pure: metric values in, state changes out; the clock is a parameter.
 * An incident fires once when the condition holds, and resolves only after the condition
 * has been clear for a whole window, so a value hovering at the threshold cannot flap.
 */

type RuleCondition = { kind: "threshold"; threshold: number } | { kind: "baseline_factor"; factor: number };

export type RuleSpec = { metric: AlertMetricName; condition: RuleCondition; windowMinutes: number; minCalls: number };

/** Rollup totals over one window. */
export type WindowCounts = { calls: number; invalid: number; corrected: number; categoryCalls?: number };

export function metricValue(metric: AlertMetricName, c: WindowCounts): number | null {
  switch (metric) {
    case "invalid_rate":
      return c.calls > 0 ? c.invalid / c.calls : null;
    case "category_rate":
      return c.calls > 0 ? (c.categoryCalls ?? 0) / c.calls : null;
    case "attempts_per_success":
      return observedAttemptsFromCounts(c);
    case "call_volume":
      return c.calls;
  }
}

export type Check = { breach: boolean; value: number | null; threshold: number | null; calls: number; quiet: boolean };

/** Whether the window breaches the rule. Below minCalls a rate rule stays quiet (no breach). */
export function checkWindow(rule: RuleSpec, current: WindowCounts, baseline?: WindowCounts): Check {
  const value = metricValue(rule.metric, current);
  const quiet = rule.metric !== "call_volume" && current.calls < rule.minCalls;
  let threshold: number | null;
  if (rule.condition.kind === "threshold") threshold = rule.condition.threshold;
  else {
    const base = baseline ? metricValue(rule.metric, baseline) : null;
    const baselineQuiet = !baseline || (rule.metric !== "call_volume" && baseline.calls < rule.minCalls);
    threshold = base === null || baselineQuiet ? null : base * rule.condition.factor;
  }
  const breach = !quiet && value !== null && threshold !== null && value > threshold;
  return { breach, value, threshold, calls: current.calls, quiet };
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
  return { breach: test.significant && test.diff > 0, value, threshold, calls: next.calls, quiet: !test.sufficient, pValue: test.pValue };
}

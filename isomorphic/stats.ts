// Pure statistics for invalid-rate monitoring: confidence intervals, a two-proportion test
// and the attempt-inflation arithmetic of docs/attempt-inflation.md (6% invalid → 6.38 attempts
// for a six-call task). No I/O.

import type { CallVerdictName } from "../contracts/metrics";

export interface Interval {
  low: number;
  high: number;
  center: number;
}

function assertCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}

function assertNonNegative(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number ≥ 0, got ${value}`);
  }
}

/** Wilson score interval for a binomial proportion. With n = 0 nothing is known: [0, 1]. */
export function wilsonInterval(successes: number, n: number, z = 1.96): Interval {
  assertCount("n", n);
  assertCount("successes", successes);
  if (successes > n) throw new RangeError(`successes (${successes}) exceeds n (${n})`);
  if (n === 0) return { low: 0, high: 1, center: 0.5 };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, center - half), high: Math.min(1, center + half), center };
}

/** Complementary error function (Numerical Recipes `erfcc`, fractional error < 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Standard normal cumulative distribution function. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

export interface TwoProportionResult {
  /** p2 − p1: negative when the second group has the lower rate. */
  diff: number;
  z: number;
  /** Two-sided p-value. */
  pValue: number;
  /** Both groups are large enough for the normal approximation (see twoProportionTest). */
  sufficient: boolean;
  /** sufficient && pValue < alpha. */
  significant: boolean;
}

export interface TwoProportionOptions {
  alpha?: number;
  /** Smallest group size for which a verdict is given. */
  minN?: number;
  /** Smallest expected count in each of the four cells. */
  minExpected?: number;
}

/**
 * Two-sided pooled two-proportion z-test of x1/n1 against x2/n2.
 *
 * The normal approximation is only trusted (`sufficient`) when both n1 and n2 are ≥ minN
 * (default 30) and every expected count under the null hypothesis — n1·p̂, n1·(1−p̂),
 * n2·p̂, n2·(1−p̂) with p̂ the pooled rate — is ≥ minExpected (default 5). Otherwise
 * `significant` is false whatever the p-value says.
 */
export function twoProportionTest(
  x1: number,
  n1: number,
  x2: number,
  n2: number,
  { alpha = 0.05, minN = 30, minExpected = 5 }: TwoProportionOptions = {},
): TwoProportionResult {
  for (const [name, value] of [
    ["x1", x1],
    ["n1", n1],
    ["x2", x2],
    ["n2", n2],
  ] as const)
    assertCount(name, value);
  if (x1 > n1 || x2 > n2) throw new RangeError("successes exceed the group size");

  const p1 = n1 > 0 ? x1 / n1 : 0;
  const p2 = n2 > 0 ? x2 / n2 : 0;
  const diff = p2 - p1;
  const pooled = n1 + n2 > 0 ? (x1 + x2) / (n1 + n2) : 0;
  const se = n1 > 0 && n2 > 0 ? Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2)) : 0;
  const z = se > 0 ? diff / se : 0;
  const pValue = se > 0 ? erfc(Math.abs(z) / Math.SQRT2) : 1;

  const expected = [n1 * pooled, n1 * (1 - pooled), n2 * pooled, n2 * (1 - pooled)];
  const sufficient = n1 >= minN && n2 >= minN && expected.every((e) => e >= minExpected);
  return { diff, z, pValue, sufficient, significant: sufficient && pValue < alpha };
}

// ---- Attempt inflation -------------------------------------------------------------------

function assertRate(p: number): void {
  if (!(p >= 0 && p < 1)) throw new RangeError(`invalid rate must be in [0, 1), got ${p}`);
}

/** Share of invalid requests, or null when there were none. 60 of 1,000 → 0.06. */
export function invalidRate(invalid: number, total: number): number | null {
  assertCount("invalid", invalid);
  assertCount("total", total);
  if (invalid > total) throw new RangeError(`invalid (${invalid}) exceeds total (${total})`);
  return total === 0 ? null : invalid / total;
}

/**
 * Calls by verdict, the way every page, export and answer counts them: all calls, the invalid
 * ones and the unchecked ones (no schema to check against and no harness verdict: stored with
 * `valid` null). An unchecked call is neither valid nor invalid; the rest are valid.
 */
export type VerdictCounts = { calls: number; invalid: number; unchecked: number };

/** A stored call's verdict from its `valid` column: true valid, false invalid, null unchecked. */
export const verdictOf = (valid: boolean | null): CallVerdictName => (valid === null ? "unchecked" : valid ? "valid" : "invalid");

/** Calls counted by verdict (verdictOf), as the rollups count them. */
export function countVerdicts(calls: readonly { valid: boolean | null }[]): VerdictCounts {
  const counts: VerdictCounts = { calls: calls.length, invalid: 0, unchecked: 0 };
  for (const call of calls) {
    const verdict = verdictOf(call.valid);
    if (verdict !== "valid") counts[verdict]++;
  }
  return counts;
}

/** Calls with a verdict (valid or invalid): the denominator of every invalid rate. */
export function checkedCalls(c: VerdictCounts): number {
  assertCount("unchecked", c.unchecked);
  if (c.invalid + c.unchecked > c.calls) throw new RangeError(`invalid (${c.invalid}) and unchecked (${c.unchecked}) exceed calls (${c.calls})`);
  return c.calls - c.unchecked;
}

/** Calls judged valid: neither invalid nor unchecked. */
export const validCalls = (c: VerdictCounts) => checkedCalls(c) - c.invalid;

/** invalid / checked calls, or null when no call was checked (none, or all unchecked). */
export const checkedInvalidRate = (c: VerdictCounts) => invalidRate(c.invalid, checkedCalls(c));

/** Expected attempts per successful call when each attempt is invalid with probability p. */
export function expectedAttempts(p: number): number {
  assertRate(p);
  return 1 / (1 - p);
}

/** Expected attempts for a task of k successful calls: k/(1−p). */
export function expectedTaskAttempts(p: number, k: number): number {
  assertNonNegative("k", k);
  return k * expectedAttempts(p);
}

/** Wasted (invalid) calls per 1,000 tasks of k calls: 1000·k·p/(1−p). */
export function extraCallsPer1000Tasks(p: number, k: number): number {
  assertNonNegative("k", k);
  assertRate(p);
  return (1000 * k * p) / (1 - p);
}

/** Measured attempts per successful call, or null when nothing succeeded. */
export function observedAttemptsPerSuccess(attempts: number, successes: number): number | null {
  assertNonNegative("attempts", attempts);
  assertNonNegative("successes", successes);
  return successes === 0 ? null : attempts / successes;
}

/**
 * Observed attempts per successful call from counts (rollups, alert windows):
 * (successes + corrected) / successes, with successes = calls − unchecked − invalid. An invalid call that
 * the model followed with a retry is an attempt toward a success; one never retried (the run
 * gave up) is not. The one definition used by the dashboards and the alert rules.
 */
export function observedAttemptsFromCounts(c: { calls: number; invalid: number; corrected: number; unchecked?: number }): number | null {
  // unchecked calls are no successes (nor failures): only checked calls count
  const successes = c.calls - (c.unchecked ?? 0) - c.invalid;
  return observedAttemptsPerSuccess(successes + c.corrected, successes);
}

export interface RetryCostInput {
  /** Invalid rate in [0, 1). */
  p: number;
  /** Successful calls a task needs (k). */
  callsPerTask: number;
  /** Cost of the first model call of the task. */
  costPerCall: number;
  /** g: each model call costs this fraction more than the previous one (0.1 = +10%). */
  contextGrowthPerCall: number;
}

export interface RetryCost {
  /** A = k/(1−p). */
  attempts: number;
  costWithoutRetries: number;
  costWithRetries: number;
  extraCost: number;
}

/**
 * Cost of a task whose context grows with every model call, invalid ones included.
 *
 * Attempt i (1-based, counted over the whole task) costs c·(1+g)^(i−1), so N attempts cost
 *   S(N) = c·((1+g)^N − 1)/g   (c·N when g = 0),
 * the geometric sum, which we evaluate at real N so fractional attempt counts interpolate
 * smoothly. costWithoutRetries = S(k); costWithRetries = S(A) with A = k/(1−p).
 * This is the cost at the expected number of attempts, not the expected cost: S is convex,
 * so with g > 0 the true mean is somewhat higher (Jensen).
 */
export function retryCostWithContextGrowth({ p, callsPerTask, costPerCall, contextGrowthPerCall: g }: RetryCostInput): RetryCost {
  assertNonNegative("costPerCall", costPerCall);
  assertNonNegative("contextGrowthPerCall", g);
  const attempts = expectedTaskAttempts(p, callsPerTask);
  const cost = (n: number) => (g === 0 ? costPerCall * n : (costPerCall * ((1 + g) ** n - 1)) / g);
  const costWithoutRetries = cost(callsPerTask);
  const costWithRetries = cost(attempts);
  return { attempts, costWithoutRetries, costWithRetries, extraCost: costWithRetries - costWithoutRetries };
}

// Comparing invalid rates between two versions (of a model, or of a tool's schema).
// Browser-safe: the models page and the server's metrics both use it.

import { twoProportionTest } from "./stats";

export interface VersionCounts {
  key: string;
  invalid: number;
  total: number;
}

type Verdict = "better" | "worse" | "no clear difference" | "insufficient data";

export interface VersionComparison {
  key: string;
  a: { rate: number | null; n: number };
  b: { rate: number | null; n: number };
  /** b's invalid rate − a's; null when either side has no calls. */
  diff: number | null;
  pValue: number | null;
  verdict: Verdict;
}

/**
 * Compares invalid rates per key (tool, category, …) between version a (before) and b (after).
 * "better": b's rate is lower and the difference is significant; "insufficient data" when
 * twoProportionTest does not trust its normal approximation (too few calls or failures).
 * Sorted by calls in both versions, largest first, ties by key.
 */
export function compareVersions(a: readonly VersionCounts[], b: readonly VersionCounts[], options?: { alpha?: number; minN?: number }): VersionComparison[] {
  const sumByKey = (rows: readonly VersionCounts[]) => {
    const sums = new Map<string, { invalid: number; total: number }>();
    for (const { key, invalid, total } of rows) {
      const s = sums.get(key) ?? { invalid: 0, total: 0 };
      sums.set(key, { invalid: s.invalid + invalid, total: s.total + total });
    }
    return sums;
  };
  const sumsA = sumByKey(a);
  const sumsB = sumByKey(b);
  const keys = [...new Set([...sumsA.keys(), ...sumsB.keys()])];

  return keys
    .map((key): VersionComparison => {
      const x = sumsA.get(key) ?? { invalid: 0, total: 0 };
      const y = sumsB.get(key) ?? { invalid: 0, total: 0 };
      const rateA = x.total > 0 ? x.invalid / x.total : null;
      const rateB = y.total > 0 ? y.invalid / y.total : null;
      const side = (rate: number | null, n: number) => ({ rate, n });
      if (rateA === null || rateB === null) {
        return { key, a: side(rateA, x.total), b: side(rateB, y.total), diff: null, pValue: null, verdict: "insufficient data" };
      }
      const test = twoProportionTest(x.invalid, x.total, y.invalid, y.total, options);
      const verdict: Verdict = !test.sufficient ? "insufficient data" : !test.significant ? "no clear difference" : test.diff < 0 ? "better" : "worse";
      return { key, a: side(rateA, x.total), b: side(rateB, y.total), diff: test.diff, pValue: test.pValue, verdict };
    })
    .sort((p, q) => q.a.n + q.b.n - (p.a.n + p.b.n) || compareText(p.key, q.key));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

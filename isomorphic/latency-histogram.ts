// Latency as a fixed log-scale histogram: the form the rollups keep it in (docs/rollups.md), so
// that percentiles come from rollup rows at any range and stay right when rows are summed.
//
// Bucket 0 holds 0 ms; bucket b ≥ 1 holds the latencies in (G^(b-2), G^(b-1)] ms, so 1 ms is
// bucket 1. A bucket's value is the point whose relative distance to both its ends is
// (G − 1) / (G + 1): every latency in the bucket is within that of it. With G = 21/19 that is 5 %,
// and 217 buckets (0…216) reach 2^31 ms. Histograms are arrays of counts, trimmed of trailing zeros.

/** The growth factor of the buckets. */
const G = 21 / 19;
const LN_G = Math.log(G);

/** How far a percentile read from the histogram may be from the exact one, relative to it. */
export const LATENCY_RELATIVE_ERROR = (G - 1) / (G + 1);

/** The bucket of a latency in whole milliseconds. */
export function latencyBucket(ms: number): number {
  if (!(ms > 0)) return 0;
  return 1 + Math.max(0, Math.ceil(Math.log(ms) / LN_G));
}

/** The SQL expression of a latency column's bucket as a 1-based array index (this module's bucket + 1). */
export const latencyBucketSql = (column: string) =>
  `CASE WHEN ${column} <= 0 THEN 1 ELSE 2 + greatest(0, ceil(ln(${column}::float8) / ${LN_G}::float8))::int END`;

/** The value that stands for bucket `b`: 0 for bucket 0, else within LATENCY_RELATIVE_ERROR of every latency in it. */
export function bucketValue(b: number): number {
  if (b === 0) return 0;
  return (2 * G ** (b - 1)) / (G + 1);
}

/** The histogram of some latencies (for tests and demo data; the rollups build theirs in SQL). */
export function histogramOf(latencies: Iterable<number>): number[] {
  const counts: number[] = [];
  for (const ms of latencies) {
    const b = latencyBucket(ms);
    while (counts.length <= b) counts.push(0);
    counts[b]! += 1;
  }
  return counts;
}

/** The sum of histograms, bucket by bucket. */
export function addHistograms(...histograms: readonly (readonly number[])[]): number[] {
  const sum: number[] = [];
  for (const h of histograms) h.forEach((n, b) => (sum[b] = (sum[b] ?? 0) + n));
  while (sum.length && sum.at(-1) === 0) sum.pop();
  return sum;
}

/**
 * The q-quantile (0 < q ≤ 1) of the latencies counted in a histogram, by nearest rank (the
 * ceil(q·n)-th smallest), as its bucket's value; null when the histogram is empty.
 */
export function histogramPercentile(histogram: readonly number[], q: number): number | null {
  if (!(q > 0 && q <= 1)) throw new RangeError(`q must be in (0, 1], got ${q}`);
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let b = 0; b < histogram.length; b++) {
    seen += histogram[b]!;
    if (seen >= rank) return bucketValue(b);
  }
  return bucketValue(histogram.length - 1);
}

/** Fewer timed results than this give no percentiles ("insufficient data"): p95 of 19 values is their maximum. */
export const MIN_TIMED_RESULTS = 20;

/** What the dashboards show of a histogram: how many latencies it holds, and p50/p95/p99 (null below MIN_TIMED_RESULTS). */
export type LatencySummary = { timed: number; p50: number | null; p95: number | null; p99: number | null };

export function latencySummary(histogram: readonly number[]): LatencySummary {
  const timed = histogram.reduce((a, b) => a + b, 0);
  const at = (q: number) => (timed >= MIN_TIMED_RESULTS ? histogramPercentile(histogram, q) : null);
  return { timed, p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

// Chart preparation: rows → series a chart can draw as they are. Pure and browser-safe.
// A bucket without data is null (a gap in the line), never 0.

import { CATEGORIES } from "../../contracts/categories";
import { twoProportionTest } from "../../isomorphic/stats";

export type Bucket = "hour" | "day";
export type BucketInput = number | Date | string;

export interface Range {
  from: Date;
  to: Date;
  bucket: Bucket;
}

const BUCKET_MS: Record<Bucket, number> = { hour: 3_600_000, day: 86_400_000 };
const MAX_BUCKETS = 10_000;

function toMs(value: BucketInput): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${String(value)}`);
  return ms;
}

function floorTo(ms: number, bucket: Bucket): number {
  const size = BUCKET_MS[bucket];
  return Math.floor(ms / size) * size;
}

/** Start (ms, UTC) of every bucket that overlaps [from, to); the first may start before `from`. */
export function bucketStarts(from: Date, to: Date, bucket: Bucket): number[] {
  const start = floorTo(toMs(from), bucket);
  const end = toMs(to);
  const size = BUCKET_MS[bucket];
  if ((end - start) / size > MAX_BUCKETS) throw new RangeError(`more than ${MAX_BUCKETS} ${bucket} buckets`);
  const starts: number[] = [];
  for (let t = start; t < end; t += size) starts.push(t);
  return starts;
}

/** Hourly buckets up to 3 days, daily beyond. */
export function chooseBucket(from: Date, to: Date): Bucket {
  return toMs(to) - toMs(from) <= 3 * BUCKET_MS.day ? "hour" : "day";
}

/** Index of each bucket start, and a lookup that drops times outside the range. */
function bucketIndex(range: Range) {
  const labels = bucketStarts(range.from, range.to, range.bucket);
  const index = new Map(labels.map((t, i) => [t, i]));
  const end = toMs(range.to);
  return {
    labels,
    indexOf(value: BucketInput): number | undefined {
      const ms = toMs(value);
      return ms < end ? index.get(floorTo(ms, range.bucket)) : undefined;
    },
  };
}

export interface RateRow {
  bucket: BucketInput;
  series: string;
  numerator: number;
  denominator: number;
}

export interface RateSeries {
  key: string;
  /** numerator / denominator per bucket; null where the bucket has no row or a zero denominator. */
  values: (number | null)[];
  /** Denominator per bucket (0 where no row). */
  totals: number[];
}

export interface TimeSeries {
  labels: number[];
  series: RateSeries[];
}

/**
 * Rates per series per bucket. Rows of a finer granularity are summed into their bucket;
 * rows outside [from, to) are dropped. Series are sorted by key.
 */
export function timeSeries(rows: readonly RateRow[], range: Range): TimeSeries {
  const { labels, indexOf } = bucketIndex(range);
  const sums = new Map<string, { numerators: number[]; totals: number[] }>();
  for (const row of rows) {
    const i = indexOf(row.bucket);
    if (i === undefined) continue;
    let sum = sums.get(row.series);
    if (!sum) {
      sum = { numerators: labels.map(() => 0), totals: labels.map(() => 0) };
      sums.set(row.series, sum);
    }
    sum.numerators[i] = (sum.numerators[i] ?? 0) + row.numerator;
    sum.totals[i] = (sum.totals[i] ?? 0) + row.denominator;
  }
  const series = [...sums.keys()].sort(compareText).map((key) => {
    const { numerators, totals } = sums.get(key)!;
    const values = totals.map((total, i) => (total > 0 ? (numerators[i] ?? 0) / total : null));
    return { key, values, totals };
  });
  return { labels, series };
}

export interface CategoryRow {
  bucket: BucketInput;
  category: string;
  count: number;
}

export interface CountSeries {
  key: string;
  /** Count per bucket; null where the category has no row in that bucket. */
  values: (number | null)[];
  total: number;
}

/**
 * Counts per category per bucket for stacked bars. A bucket without a row for a category is
 * null rather than 0: the rows say nothing about it (chart.js skips nulls in a stack).
 * Only categories with rows appear: known categories in CHART_CATEGORIES order, others after by key.
 */
export function stackedCategorySeries(rows: readonly CategoryRow[], range: Range): { labels: number[]; series: CountSeries[] } {
  const { labels, indexOf } = bucketIndex(range);
  const counts = new Map<string, (number | null)[]>();
  for (const row of rows) {
    const i = indexOf(row.bucket);
    if (i === undefined) continue;
    let values = counts.get(row.category);
    if (!values) {
      values = labels.map(() => null);
      counts.set(row.category, values);
    }
    values[i] = (values[i] ?? 0) + row.count;
  }
  const rank = (key: string) => {
    const i = (CHART_CATEGORIES as readonly string[]).indexOf(key);
    return i < 0 ? CHART_CATEGORIES.length : i;
  };
  const keys = [...counts.keys()].sort((a, b) => rank(a) - rank(b) || compareText(a, b));
  return {
    labels,
    series: keys.map((key) => {
      const values = counts.get(key)!;
      return { key, values, total: values.reduce<number>((sum, v) => sum + (v ?? 0), 0) };
    }),
  };
}

export interface TopN {
  top: string[];
  rest: string[];
  /** "8 of 23 tools", or "" when everything is shown. */
  note: string;
}

/** The n keys with the largest volume (duplicate keys summed; ties by key). */
export function topN(items: readonly { key: string; volume: number }[], n = 8, noun = "series"): TopN {
  const volumes = new Map<string, number>();
  for (const { key, volume } of items) volumes.set(key, (volumes.get(key) ?? 0) + volume);
  const keys = [...volumes.keys()].sort((a, b) => volumes.get(b)! - volumes.get(a)! || compareText(a, b));
  const top = keys.slice(0, Math.max(0, n));
  const rest = keys.slice(top.length);
  return { top, rest, note: rest.length > 0 ? `${top.length} of ${keys.length} ${noun}` : "" };
}

// ---- Colours ------------------------------------------------------------------------------

/** Paul Tol's "muted" qualitative palette: distinguishable with common colour-vision deficiencies. */
export const PALETTE = [
  "#332288", // indigo
  "#88CCEE", // cyan
  "#44AA99", // teal
  "#117733", // green
  "#999933", // olive
  "#DDCC77", // sand
  "#CC6677", // rose
  "#882255", // wine
  "#AA4499", // purple
] as const;

/** FNV-1a 32-bit hash of the UTF-16 code units. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The colour of a series key: the same key gets the same colour in every chart. */
export function seriesColor(key: string): string {
  return PALETTE[hash(key) % PALETTE.length]!;
}

/**
 * Colours for the series of one chart, all different while there are no more series than
 * palette colours: each key starts at its seriesColor and takes the next free colour when
 * that one is taken. Pass keys most important first (e.g. the default top N by volume, then
 * the rest): earlier keys keep their colour whatever is added after them.
 */
export function assignColors(keys: readonly string[]): Record<string, string> {
  const used = new Set<number>();
  const colors: Record<string, string> = {};
  for (const key of keys) {
    if (Object.hasOwn(colors, key)) continue;
    let i = hash(key) % PALETTE.length;
    for (let tries = 0; used.has(i) && tries < PALETTE.length; tries++) i = (i + 1) % PALETTE.length;
    used.add(i);
    colors[key] = PALETTE[i]!;
  }
  return colors;
}

/** Failure categories in first-match order. */
export const CHART_CATEGORIES = CATEGORIES;

/** One fixed, distinct colour per failure category. */
export const CATEGORY_COLORS: Readonly<Record<string, string>> = Object.fromEntries(CHART_CATEGORIES.map((category, i) => [category, PALETTE[i]!]));

/** A category's colour; unknown categories fall back to seriesColor. */
export function categoryColor(category: string): string {
  return CATEGORY_COLORS[category] ?? seriesColor(category);
}

// ---- Version comparison -----------------------------------------------------------------

export interface VersionCounts {
  key: string;
  invalid: number;
  total: number;
}

export type Verdict = "better" | "worse" | "no clear difference" | "insufficient data";

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

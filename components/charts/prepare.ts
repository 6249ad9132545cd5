// Chart preparation: rows → series a chart can draw as they are. Pure and browser-safe.
// A bucket without data is null (a gap in the line), never 0.

import { CATEGORIES } from "../../contracts/categories";
import { bucketStarts, floorTo, toMs, type BucketInput, type Range } from "../../isomorphic/buckets";

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

/**
 * The series colours, as CSS variables: app/globals.css gives them Paul Tol's "muted" palette
 * (distinguishable with common colour-vision deficiencies) in light and his "light" palette
 * in dark. HTML uses them as they are; a chart resolves them (components/charts/theme.ts).
 */
export const PALETTE = Array.from({ length: 9 }, (_, i) => `var(--chart-series-${i + 1})`);

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

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A label written on a chart, cut with "…" to what fits `widthPx` at about `charPx` per
 * character (11 px text); the whole text stays in the list below the chart. A phone's chart is
 * narrower than a long marker label, which would otherwise be clipped at both ends.
 */
export function fitLabel(text: string, widthPx: number, charPx = 6.5): string {
  const fits = Math.max(4, Math.floor((widthPx - 12) / charPx)); // 12 px: the label's padding
  return text.length <= fits ? text : `${text.slice(0, fits - 1).trimEnd()}…`;
}

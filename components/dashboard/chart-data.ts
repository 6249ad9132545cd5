// Rollup rows → chart input, for the dashboards' server components (pure; the charts only draw).
import { BUCKET_MS, type Bucket } from "../../isomorphic/buckets";
import { stackedCategorySeries, timeSeries } from "../charts/prepare";
import { checkedCalls } from "../../isomorphic/stats";
import type { ResolvedRange } from "../../contracts/range";
import type { Marker } from "../charts/chart-setup";
import type { ExplorerQuery } from "../calls/explorer-params";

type SeriesRow = { bucket: string; key: string; calls: number; invalid: number; unchecked: number };

const rangeOf = (range: Pick<ResolvedRange, "from" | "to">, bucket: Bucket) => ({ from: new Date(range.from), to: new Date(range.to), bucket });

/** The still-open bucket (the current hour or day) is drawn only from this many calls on. */
export const OPEN_BUCKET_MIN_CALLS = 20;

/**
 * Invalid rate per bucket (of its checked calls), one series per key (only `keys` when given); `rename` labels a key.
 * A bucket without checked calls is a gap. So is the bucket still in progress while it holds fewer than
 * OPEN_BUCKET_MIN_CALLS calls of that series: at 04:00 the day's handful of night calls would
 * otherwise draw every line to 0% or 50% at the right edge.
 */
export function rateSeries(
  rows: readonly SeriesRow[],
  range: Pick<ResolvedRange, "from" | "to">,
  bucket: Bucket,
  keys?: readonly string[],
  rename?: (key: string) => string,
  now = Date.now(),
) {
  const wanted = keys ? new Set(keys) : null;
  const result = timeSeries(
    rows
      .filter((r) => !wanted || wanted.has(r.key))
      .map((r) => ({ bucket: r.bucket, series: rename ? rename(r.key) : r.key, numerator: r.invalid, denominator: checkedCalls(r) })),
    rangeOf(range, bucket),
  );
  const open = result.labels.map((start) => start + BUCKET_MS[bucket] > now);
  return {
    labels: result.labels,
    series: result.series.map((s) => ({ ...s, values: s.values.map((v, i) => (open[i] && (s.totals[i] ?? 0) < OPEN_BUCKET_MIN_CALLS ? null : v)) })),
  };
}

/** Invalid calls per failure category per bucket, for the stacked bars. */
export function categorySeries(rows: readonly SeriesRow[], range: Pick<ResolvedRange, "from" | "to">, bucket: Bucket) {
  return stackedCategorySeries(
    rows.map((r) => ({ bucket: r.bucket, category: r.key, count: r.invalid })),
    rangeOf(range, bucket),
  );
}

/** The range's invalid calls per category, largest first. */
export function categoryBreakdown(rows: readonly { key: string; invalid: number }[]) {
  return rows
    .filter((r) => r.invalid > 0)
    .map((r) => ({ key: r.key, count: r.invalid }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
}

/** Total volume per key over the range (for top N). */
export function volumes(rows: readonly SeriesRow[]) {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.key, (sums.get(r.key) ?? 0) + r.calls);
  return [...sums].map(([key, volume]) => ({ key, volume }));
}

type MarkerIncident = { firedAt: Date | string; scopeTool: string | null; rule: { name: string } };
type MarkerVersion = { name: string; version: string; firstSeenAt: Date | string };

/**
 * What the time charts mark: incidents that fired in the range and schema versions first seen
 * in it (only those of `tools` when given: the tools a chart draws), oldest first.
 */
export function timeMarkers(
  range: Pick<ResolvedRange, "from" | "to">,
  { incidents = [], versions = [], tools }: { incidents?: readonly MarkerIncident[]; versions?: readonly MarkerVersion[]; tools?: readonly string[] },
): Marker[] {
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  const wanted = tools ? new Set(tools) : null;
  const inRange = (m: Marker) => m.at >= from && m.at < to;
  return [
    ...incidents.map((i) => ({ at: new Date(i.firedAt).getTime(), label: `${i.rule.name} fired`, kind: "incident" as const })),
    ...versions
      .filter((v) => !wanted || wanted.has(v.name))
      .map((v) => ({ at: new Date(v.firstSeenAt).getTime(), label: `${v.name} schema ${v.version.slice(0, 7)}`, kind: "schema" as const })),
  ]
    .filter(inRange)
    .sort((a, b) => a.at - b.at);
}

/**
 * The explorer's filter of a "model version" series key ("acme-large 2026-11", as the metrics
 * name them): the model and, after the last space, the version. A key without a space is a
 * model without a version.
 */
export function modelVersionParams(key: string): Pick<ExplorerQuery, "model" | "modelVersion"> {
  const space = key.lastIndexOf(" ");
  return space < 0 ? { model: key } : { model: key.slice(0, space), modelVersion: key.slice(space + 1) };
}

// Where a chart leads: the calls explorer filtered to a bucket and a series, and the range a
// drag over buckets selects. Pure and browser-safe; the charts call these on click and drag.

import { BUCKET_MS, type Bucket } from "../../isomorphic/buckets";
import { withParams } from "../../contracts/range";
import { explorerUrl, type ExplorerParam, type ExplorerQuery } from "../calls/explorer-params";

/**
 * The explorer a chart opens: the project's (`slug`). `params` hold what every point shares (the
 * page's scope: a tool, a model); `series` what a series adds, by series key (its tool, model
 * version or category). A series missing from `series` adds nothing.
 */
export type Explore = {
  slug: string;
  params?: ExplorerQuery;
  series?: Record<string, ExplorerQuery>;
};

/** The explorer filtered to one series' calls in one bucket [start, start + bucket). */
export function bucketHref(explore: Explore, seriesKey: string | undefined, start: number, bucket: Bucket): string {
  return explorerUrl(explore.slug, {
    ...explore.params,
    ...(seriesKey === undefined ? {} : explore.series?.[seriesKey]),
    ...bucketRange(start, start, bucket),
  });
}

/** The explorer filtered to one series over a whole range (charts without a time axis). */
export function rangeHref(explore: Explore, seriesKey: string, range: { from: string; to: string }): string {
  return explorerUrl(explore.slug, { ...explore.params, ...explore.series?.[seriesKey], from: range.from, to: range.to });
}

/** From the start of the first bucket to the end of the last, as ISO dates (either order). */
export function bucketRange(a: number, b: number, bucket: Bucket): { from: string; to: string } {
  return { from: new Date(Math.min(a, b)).toISOString(), to: new Date(Math.max(a, b) + BUCKET_MS[bucket]).toISOString() };
}

/** The same page with a custom range instead of a preset (a drag over a time chart). */
export function zoomedHref(path: string, search: string, range: { from: string; to: string }): string {
  const current = Object.fromEntries(new URLSearchParams(search));
  return withParams(path, current, { range: undefined, from: range.from, to: range.to, cursor: undefined });
}

/** The explorer's `series` for charts whose series are keyed by their value of one parameter. */
export const seriesParam = (param: ExplorerParam, keys: readonly string[]): Record<string, ExplorerQuery> =>
  Object.fromEntries(keys.map((key) => [key, { [param]: key }]));

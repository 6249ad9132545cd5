import type { SeriesDimension } from "../../../contracts/metrics";
import { analytics } from "../analytics";
import { modelVersionKey, type Bucket as AnalyticsBucket, type CallScope, type Range as AnalyticsRange } from "../analytics/port";
import { addHistograms, latencySummary, type LatencySummary } from "../../../isomorphic/latency-histogram";

/** Dashboards read only the aggregates (the analytics port: whole UTC days and hours), never raw calls. */
export type Range = AnalyticsRange;
/** `runIdPrefix`: only the calls of runs whose id starts with it (read from the raw calls, not the rollups). */
export type Scope = Omit<CallScope, "category">;
export type Bucket = AnalyticsBucket;

/**
 * The latencies of the results per key (`tool`, or '' for all), as percentiles of the summed
 * histograms (isomorphic/latency-histogram.ts).
 */
export async function latencies(projectId: string, range: Range, dimension: "tool" | "none", scope?: Scope): Promise<Map<string, LatencySummary>> {
  const histograms = await analytics.latencyHistograms(projectId, range, dimension, scope);
  return new Map([...histograms].map(([key, histogram]) => [key, latencySummary(histogram)]));
}

export const totals = (projectId: string, range: Range, scope?: Scope) => analytics.totals(projectId, range, scope);

/** Per time bucket and series key: calls and invalid calls (and the rest of the totals). */
export const series = (projectId: string, range: Range, bucket: Bucket, dimension: SeriesDimension, scope?: Scope) =>
  analytics.series(projectId, range, bucket, dimension, scope);

/** Totals per key over the whole range, largest first. */
export const breakdown = (projectId: string, range: Range, dimension: Exclude<SeriesDimension, "none"> | "model", scope?: Scope) =>
  analytics.breakdown(projectId, range, dimension, scope);

/**
 * Per tool: totals, its most common failure category (of two as common, the first by name, so
 * that every read agrees) and the percentiles of its results' latencies.
 */
export async function toolTable(projectId: string, range: Range, scope?: Scope) {
  const [rows, byTool] = await Promise.all([analytics.toolTotals(projectId, range, scope), latencies(projectId, range, "tool", scope)]);
  return rows.map((row) => ({ ...row, latency: byTool.get(row.tool) ?? latencySummary([]) }));
}

/**
 * Per model version: totals (as `breakdown` by model gives them) and the percentiles of its
 * results' latencies; and per model of several versions, the percentiles over all of them (its
 * versions' histograms summed: the model's own). Two reads side by side, whatever the number of models.
 */
export async function modelTable(projectId: string, range: Range) {
  const [rows, histograms] = await Promise.all([breakdown(projectId, range, "model"), analytics.latencyHistograms(projectId, range, "modelVersion")]);
  const versions = rows.map((r) => ({ ...r, latency: latencySummary(histograms.get(modelVersionKey(r.key, r.version)) ?? []) }));
  const several = [...new Set(rows.map((r) => r.key))].filter((model) => rows.filter((r) => r.key === model).length > 1);
  const models = several.map((model) => ({
    model,
    latency: latencySummary(addHistograms(...rows.filter((r) => r.key === model).map((r) => histograms.get(modelVersionKey(r.key, r.version)) ?? []))),
  }));
  return { versions, models };
}

/** Two model versions side by side, per `dimension` (tool or category); `total` counts checked calls only (the invalid rate's denominator). */
export async function versionCounts(projectId: string, range: Range, model: string, version: string, dimension: "tool" | "category") {
  const rows = await analytics.checkedCounts(projectId, range, { model, modelVersion: version }, dimension);
  return dimension === "category" ? rows.filter((row) => row.key !== "") : rows;
}

// Alerts in words and numbers: labels, scopes, ages, and the time windows of an incident. Pure.

import { ALERT_METRIC_LABELS, alertMetricSchema, formatMetric, type AlertMetricName } from "../../contracts/alerts";
import { CATEGORY_LABELS, type Category } from "../../contracts/categories";
import { formatDuration, MISSING } from "../../contracts/format-number";
import { DAY_MS, HOUR_MS } from "../../contracts/metrics";
import { checkedCalls } from "../../isomorphic/stats";
import type { ExplorerQuery } from "../calls/explorer-params";

export const REGRESSION_METRIC = "regression";

export const isRateMetric = (metric: string) =>
  metric === "invalid_rate" || metric === "category_rate" || metric === "tool_error_rate" || metric === "empty_result_rate" || metric === REGRESSION_METRIC;

/** "Invalid rate", "Rate of one category: Wrong type", "Invalid rate of a new version (model or tool schema)". */
export function metricLabel(metric: string, category?: string | null): string {
  if (metric === REGRESSION_METRIC) return "Invalid rate of a new version (model or tool schema)";
  const known = alertMetricSchema.safeParse(metric);
  const label = known.success ? ALERT_METRIC_LABELS[known.data] : metric;
  return metric === "category_rate" && category ? `Rate of ${CATEGORY_LABELS[category as Category] ?? category}` : label;
}

/** A metric's value as the rules state it (formatMetric): "14.29%" for rates, "3.50" for attempts, "1,200" for volumes, "2,500 ms" for latencies. */
export function formatMetricValue(metric: string, value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  if (metric === REGRESSION_METRIC) return formatMetric("invalid_rate", value);
  const known = alertMetricSchema.safeParse(metric);
  return known.success ? formatMetric(known.data, value) : String(value);
}

export type IncidentScope = { tool?: string | null; model?: string | null; modelVersion?: string | null };

/** "tool get_loan · model acme-large 2026-11", or "whole project". */
export function scopeText(scope: IncidentScope): string {
  const parts: string[] = [];
  if (scope.tool) parts.push(`tool ${scope.tool}`);
  if (scope.model) parts.push(`model ${scope.model}${scope.modelVersion ? ` ${scope.modelVersion}` : ""}`);
  else if (scope.modelVersion) parts.push(`model version ${scope.modelVersion}`);
  return parts.length ? parts.join(" · ") : "whole project";
}

/** How old an incident is: open ones count to now, resolved ones to their resolution. */
export function incidentAge(incident: { firedAt: Date | string; resolvedAt?: Date | string | null }, now: Date): string {
  const fired = new Date(incident.firedAt).getTime();
  if (incident.resolvedAt) return `lasted ${formatDuration(Math.max(0, new Date(incident.resolvedAt).getTime() - fired))}`;
  return `${formatDuration(Math.max(0, now.getTime() - fired))} ago`;
}

/** Minutes of a rule's window in words: "5 min", "1 h", "1 h 30 min", "1 d". */
export const formatWindow = (minutes: number) => formatDuration(minutes * 60_000);

export const severityTone = (severity: string) => (severity === "critical" ? "red" : severity === "warning" ? "amber" : "indigo") as "red" | "amber" | "indigo";
export const stateTone = (state: string) => (state === "firing" ? "red" : state === "acknowledged" ? "amber" : "green") as "red" | "amber" | "green";

/** ISO 8601 without milliseconds: "2026-11-30T04:00:00Z". */
export const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
const ceilHour = (ms: number) => Math.ceil(ms / HOUR_MS) * HOUR_MS;

export type IncidentWindows = {
  /** what the incident is about: the rule's window, or a new version's life until it fired */
  window: { from: number; to: number };
  /** the same in whole hours, as the hourly rollups can answer it */
  rollupWindow: { from: number; to: number };
  /** the chart's range around it */
  chart: { from: number; to: number };
};

/**
 * The windows of an incident. A rule's incident is about [windowStart, firedAt]; the chart
 * shows six windows either side (at least 12 h each side), never past now. A regression is
 * about the new version since it first appeared (`since`); its chart starts as long before.
 */
export function incidentWindows(incident: { windowStart: Date | string; firedAt: Date | string }, now: Date, since?: number | null): IncidentWindows {
  const fired = new Date(incident.firedAt).getTime();
  const start = since ?? new Date(incident.windowStart).getTime();
  const length = Math.max(fired - start, 60_000);
  const end = Math.min(ceilHour(fired + 1), ceilHour(now.getTime()));
  const rollupWindow = { from: floorHour(start), to: Math.max(ceilHour(fired + 1), floorHour(start) + HOUR_MS) };
  if (since != null) {
    const from = floorHour(Math.min(start - length, fired - 14 * DAY_MS));
    return { window: { from: start, to: fired }, rollupWindow, chart: { from, to: end } };
  }
  const pad = Math.max(6 * length, 12 * HOUR_MS);
  return {
    window: { from: start, to: fired },
    rollupWindow,
    chart: { from: floorHour(start - pad), to: Math.max(Math.min(ceilHour(fired + pad), ceilHour(now.getTime())), end) },
  };
}

/**
 * The calls an incident of each kind is about, as the explorer's filter and the link's words: the
 * gate's kinds link to the invalid calls, the tool error rate to the failed results, and the kinds
 * that count every call (latency, volume, spirals) to all the calls of the window. Keyed by every
 * kind, so a new one does not build until it says which calls it is about.
 */
export const MATCHING_CALLS: Record<AlertMetricName | typeof REGRESSION_METRIC, { filter: ExplorerQuery; label: string }> = {
  invalid_rate: { filter: { valid: "invalid" }, label: "Invalid calls" },
  category_rate: { filter: { valid: "invalid" }, label: "Invalid calls" },
  attempts_per_success: { filter: { valid: "invalid" }, label: "Invalid calls" },
  [REGRESSION_METRIC]: { filter: { valid: "invalid" }, label: "Invalid calls" },
  tool_error_rate: { filter: { outcome: "failed" }, label: "Failed results" },
  empty_result_rate: { filter: { outcome: "empty" }, label: "Empty results" },
  latency_p95: { filter: {}, label: "Calls" },
  call_volume: { filter: {}, label: "Calls" },
  spirals: { filter: {}, label: "Calls" },
};

/** What an incident's kind links to: its MATCHING_CALLS entry; an unknown kind (a rule stored by a newer release) links to the invalid calls. */
export const matchingCalls = (metric: string) => MATCHING_CALLS[metric as keyof typeof MATCHING_CALLS] ?? MATCHING_CALLS.invalid_rate;

/**
 * The explorer's query for an incident (`explorerUrl` makes the link): its window and scope,
 * filtered to the calls its kind is about (`metric`, default the invalid calls) and, for a
 * category, to that category.
 */
export function incidentCalls(
  scope: IncidentScope,
  window: { from: number; to: number },
  category?: string | null,
  metric: string = "invalid_rate",
): ExplorerQuery {
  return {
    ...matchingCalls(metric).filter,
    from: isoSeconds(window.from),
    to: isoSeconds(window.to),
    tool: scope.tool ?? undefined,
    model: scope.model ?? undefined,
    modelVersion: scope.modelVersion ?? undefined,
    category: category ?? undefined,
  };
}

/** The series key of a model version in metrics.series by "modelVersion": "acme-large 2026-11". */
export const versionKey = (model: string, version?: string | null) => (version ? `${model} ${version}` : model);

/** When a series key first has calls (bucket start, ms), or null. */
export function firstSeen(rows: readonly { bucket: string; key: string; calls: number }[], key: string): number | null {
  let first: number | null = null;
  for (const row of rows) {
    if (row.key !== key || row.calls <= 0) continue;
    const t = Date.parse(row.bucket);
    if (first === null || t < first) first = t;
  }
  return first;
}

/** Rows for timeSeries: one category's calls over the checked calls of the same bucket (unchecked ones are neither valid nor invalid). */
export function categoryRateRows(
  all: readonly { bucket: string; calls: number; invalid: number; unchecked: number }[],
  byCategory: readonly { bucket: string; key: string; calls: number }[],
  category: string,
  series = "rate",
) {
  const numerators = new Map<string, number>();
  for (const row of byCategory) if (row.key === category) numerators.set(row.bucket, (numerators.get(row.bucket) ?? 0) + row.calls);
  return all.map((row) => ({ bucket: row.bucket, series, numerator: numerators.get(row.bucket) ?? 0, denominator: checkedCalls(row) }));
}

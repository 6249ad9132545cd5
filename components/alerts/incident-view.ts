// The incident page's data: which metrics to ask for, and what each of its cards shows, shaped
// from the answers of alerts.incident, metrics.series and metrics.breakdown. Pure and tested;
// the page only loads, prepares and composes.

import type { Marker } from "../charts";
import { timeSeries, type RateRow, type TimeSeries } from "../charts/prepare";
import { formatCount, formatDuration, formatPercent } from "../../contracts/format-number";
import { checkedCalls, checkedInvalidRate } from "../../isomorphic/stats";
import { formatDateTimeZoned, zoneName } from "../../isomorphic/time-zone";
import type { Bucket } from "../../isomorphic/buckets";
import { CATEGORY_LABELS, type Category } from "../../contracts/categories";
import { DAY_MS, HOUR_MS } from "../../contracts/metrics";
import { regressionRate } from "../../contracts/alerts";
import { failures, type ResultCounts } from "../../isomorphic/outcome";
import { hasRole, type Role } from "../../contracts/roles";
import { explorerUrl } from "../calls/explorer-params";
import {
  categoryRateRows,
  firstSeen,
  formatMetricValue,
  formatWindow,
  incidentAge,
  incidentCalls,
  incidentWindows,
  isoSeconds,
  isRateMetric,
  matchingCalls,
  metricLabel,
  REGRESSION_METRIC,
  scopeText,
  versionKey,
  type IncidentWindows,
} from "./format";

/** Rows of the top-N tables. */
export const TOP = 6;
/** How far back a regression looks for the day its new version first appeared. */
const LOOKBACK_DAYS = 90;

type Time = Date | string;

/** The parts of alerts.incident the page reads. */
export interface IncidentInput {
  id: string;
  state: string;
  severity: string;
  summary: string;
  value: number | null;
  threshold: number | null;
  calls: number;
  firedAt: Time;
  windowStart: Time;
  resolvedAt: Time | null;
  scopeTool: string | null;
  scopeModel: string | null;
  scopeVersion: string | null;
  /** the subject inside the rule's scope: for the regression guard, the version and the rate (contracts/alerts.ts regressionSubject) */
  subject?: string;
  rule: { name: string; metric: string; category: string | null; windowMinutes: number };
  /** endsAt: a silence's or snooze's end (silenced and snoozed events) */
  events: readonly { kind: string; actor: string | null; at: Time; note: string | null; endsAt: Time | null }[];
  deliveries: readonly {
    endpoint: { name: string; url: string };
    attempt: number;
    statusCode: number | null;
    error: string | null;
    durationMs: number | null;
    at: Time;
  }[];
}

/** metrics.series answers: rows per bucket (and key). */
export interface SeriesInput {
  bucket: Bucket;
  rows: readonly ({ bucket: string; key: string; calls: number; invalid: number; unchecked: number } & Partial<ResultCounts>)[];
}

/** metrics.breakdown answers: one row per key over the whole range. */
export type BreakdownInput = readonly { key: string; calls: number; invalid: number; unchecked: number }[];

type Range = { from: string; to: string };
type Scope = { tool?: string; model?: string; modelVersion?: string };

export interface IncidentPlan {
  /** a regression of a model's new version (charted per version) rather than a rule's rate */
  regression: boolean;
  scope: Scope;
  /** for a regression: the model's versions over the 90 days before it fired, to find when the new one appeared */
  lookback: { from: number; range: Range; model: string } | null;
}

/** What to load before anything else: the incident's scope, and for a regression the versions' history. */
export function planIncident(incident: IncidentInput): IncidentPlan {
  const regression = incident.rule.metric === REGRESSION_METRIC && !!incident.scopeModel;
  const scope: Scope = {
    ...(incident.scopeTool ? { tool: incident.scopeTool } : {}),
    ...(incident.scopeModel ? { model: incident.scopeModel } : {}),
    ...(incident.scopeVersion ? { modelVersion: incident.scopeVersion } : {}),
  };
  const fired = new Date(incident.firedAt).getTime();
  const from = fired - LOOKBACK_DAYS * DAY_MS;
  const lookback = regression
    ? { from, range: { from: isoSeconds(from), to: isoSeconds(Math.ceil((fired + 1) / HOUR_MS) * HOUR_MS) }, model: incident.scopeModel! }
    : null;
  return { regression, scope, lookback };
}

export interface IncidentRanges {
  /** when a regression's new version first had calls (ms), or null */
  since: number | null;
  windows: IncidentWindows;
  /** the chart's range (ms) */
  chart: { from: number; to: number };
  /** the same, for metrics.series */
  chartQuery: Range;
  /** the incident's window in whole hours, for metrics.breakdown */
  rollup: Range;
  /** the rule watches one category's rate: chart it from the category series */
  category: string | null;
}

/** The ranges to ask for, once the versions' history (for a regression) is known. */
export function incidentRanges(incident: IncidentInput, plan: IncidentPlan, lookback: SeriesInput | null, now: Date): IncidentRanges {
  const since = plan.regression && lookback ? firstSeen(lookback.rows, versionKey(incident.scopeModel!, incident.scopeVersion)) : null;
  const windows = incidentWindows(incident, now, since);
  const chart = { from: Math.max(windows.chart.from, plan.lookback?.from ?? -Infinity), to: windows.chart.to };
  const { rule } = incident;
  return {
    since,
    windows,
    chart,
    chartQuery: { from: isoSeconds(chart.from), to: isoSeconds(chart.to) },
    rollup: { from: isoSeconds(windows.rollupWindow.from), to: isoSeconds(windows.rollupWindow.to) },
    category: rule.metric === "category_rate" && rule.category ? rule.category : null,
  };
}

interface IncidentChart extends TimeSeries {
  title: string;
  description: string;
  label: string;
  bucket: Bucket;
  markers: Marker[];
  /** the rule's threshold, drawn when the chart shows the watched rate */
  threshold: number | undefined;
  explorerHref: string;
  /** the link's words: which calls it shows ("Failed results in the explorer →") */
  explorerLabel: string;
  /** the zone of its axis, tooltips and table */
  zone: string;
}

interface FailingTool {
  key: string;
  href: string;
  invalid: string;
  /** its checked calls (valid or invalid): the rate's denominator */
  checked: string;
  rate: string;
}

interface FailingCategory {
  key: string;
  label: string;
  href: string;
  invalid: string;
  share: string;
}

interface TimelineEvent {
  kind: string;
  title: string;
  /** the colour of its dot */
  dot: string;
  at: string;
  note: string | null;
}

interface Delivery {
  endpoint: string;
  url: string;
  attempt: string;
  /** an HTTP status (ok when 2xx), or the error of an attempt that got no answer */
  status: { text: string; answered: boolean; ok: boolean; title: string | undefined };
  duration: string | null;
  at: string;
}

export interface IncidentView {
  title: string;
  state: string;
  severity: string;
  /** "fired 3 h ago · 2026-11-30 14:05 UTC" (in the viewer's zone) */
  age: string;
  /** acknowledge / resolve */
  canAct: boolean;
  /** may add webhook endpoints (told where when there are no deliveries) */
  canAddWebhooks: boolean;
  whatFired: {
    summary: string;
    valueLabel: string;
    value: string;
    thresholdLabel: string;
    threshold: string;
    calls: string;
    scope: string;
    window: string;
  };
  chart: IncidentChart;
  tools: { description: string; rows: FailingTool[]; more: string | null };
  categories: FailingCategory[];
  timeline: TimelineEvent[];
  deliveries: Delivery[];
}

export interface IncidentData {
  slug: string;
  role: Role;
  incident: IncidentInput;
  now: Date;
  plan: IncidentPlan;
  ranges: IncidentRanges;
  /** the model's versions (regression only) */
  lookback: SeriesInput | null;
  /** all calls of the scope per bucket (not for a regression) */
  series: SeriesInput | null;
  /** per category (category_rate rules only) */
  categorySeries: SeriesInput | null;
  tools: BreakdownInput;
  categories: BreakdownInput;
  /** the viewer's time zone (pageTimeZone): every time the page shows is in it */
  zone: string;
}

const EVENT_DOT: Record<string, string> = {
  fired: "bg-red-500",
  notified: "bg-indigo-500",
  acknowledged: "bg-amber-500",
  resolved: "bg-emerald-500",
  silenced: "bg-slate-500",
  snoozed: "bg-slate-500",
  assigned: "bg-indigo-500",
  noted: "bg-indigo-500",
};

function eventTitle(event: { kind: string; actor: string | null }): string {
  switch (event.kind) {
    case "fired":
      return "Fired";
    case "notified":
      return "Notified";
    case "acknowledged":
      return `Acknowledged by ${event.actor ?? "someone"}`;
    case "resolved":
      return event.actor ? `Resolved by ${event.actor}` : "Resolved automatically";
    case "silenced":
      return `Silenced by ${event.actor ?? "someone"}`;
    case "snoozed":
      return `Snoozed by ${event.actor ?? "someone"}`;
    case "assigned":
      return `Assigned by ${event.actor ?? "someone"}`;
    case "noted":
      return `Note by ${event.actor ?? "someone"}`;
    default:
      return event.kind;
  }
}

/**
 * The line under an event. A silence's or snooze's end is kept as a time (endsAt) and shown here
 * in the viewer's zone, with the reason or note stored beside it; an event without one shows its
 * note as it is.
 */
function eventNote(event: { kind: string; note: string | null; endsAt: Time | null }, zone: string): string | null {
  // an assignment keeps the assignee's email, a note the text (none: cleared)
  if (event.kind === "assigned") return `to ${event.note ?? "nobody"}`;
  if (event.kind === "noted") return event.note ?? "cleared the note";
  if (!event.endsAt) return event.note || null;
  const until = formatDateTimeZoned(event.endsAt, zone);
  return event.kind === "silenced"
    ? `no webhooks: silenced until ${until}${event.note ? ` (${event.note})` : ""}`
    : `until ${until}${event.note ? `: ${event.note}` : ""}`;
}

/** Keys with invalid calls, most first (ties by key). */
const failing = (rows: BreakdownInput) => rows.filter((r) => r.invalid > 0).sort((a, b) => b.invalid - a.invalid || a.key.localeCompare(b.key));

const share = (n: number, d: number) => formatPercent(d > 0 ? n / d : null);

/** Everything the incident page shows, from what it loaded. */
export function prepareIncident(data: IncidentData): IncidentView {
  const { slug, role, incident, now, plan, ranges, zone } = data;
  const { rule } = incident;
  const { regression, scope } = plan;
  const window = ranges.windows.window;
  const fired = new Date(incident.firedAt).getTime();

  // the chart: the watched rate with its threshold; other metrics get the invalid rate as context
  const rateChart = isRateMetric(rule.metric);
  // a regression (of a model version, charted per version, or of a tool's schema version) is on the
  // invalid rate or on the tool error rate: its subject says which
  const regressionOn = rule.metric === REGRESSION_METRIC ? regressionRate(incident.subject ?? "") : null;
  const linked = regressionOn ?? rule.metric;
  const label =
    regressionOn === "tool_error_rate"
      ? `Tool error rate of a new ${regression ? "model" : "schema"} version`
      : rateChart
        ? metricLabel(rule.metric, rule.category)
        : "Invalid rate";
  let rows: RateRow[];
  let bucket: Bucket;
  if (regression) {
    rows = (data.lookback?.rows ?? []).map((r) =>
      regressionOn === "tool_error_rate"
        ? { bucket: r.bucket, series: r.key, numerator: failures(r), denominator: r.results ?? 0 }
        : { bucket: r.bucket, series: r.key, numerator: r.invalid, denominator: checkedCalls(r) },
    );
    bucket = data.lookback?.bucket ?? "day";
  } else if (ranges.category && data.categorySeries) {
    rows = categoryRateRows(data.series?.rows ?? [], data.categorySeries.rows, ranges.category, label);
    bucket = data.series?.bucket ?? data.categorySeries.bucket;
  } else if (linked === "tool_error_rate") {
    rows = (data.series?.rows ?? []).map((r) => ({ bucket: r.bucket, series: label, numerator: failures(r), denominator: r.results ?? 0 }));
    bucket = data.series?.bucket ?? "hour";
  } else if (rule.metric === "empty_result_rate") {
    rows = (data.series?.rows ?? []).map((r) => ({ bucket: r.bucket, series: label, numerator: r.emptyResults ?? 0, denominator: r.results ?? 0 }));
    bucket = data.series?.bucket ?? "hour";
  } else {
    rows = (data.series?.rows ?? []).map((r) => ({ bucket: r.bucket, series: label, numerator: r.invalid, denominator: checkedCalls(r) }));
    bucket = data.series?.bucket ?? "hour";
  }
  const markers: Marker[] = [
    ...(regression && ranges.since !== null && ranges.since > ranges.chart.from ? [{ at: ranges.since, label: `${incident.scopeVersion} first seen` }] : []),
    { at: fired, label: "fired" },
  ];
  const description = [
    regression ? `${incident.scopeModel}, one line per version; the dashed red line is the previous version's rate` : scopeText(scope),
    rateChart && !regression ? " · the dashed red line is the threshold" : "",
    !rateChart ? ` · the rule watches ${metricLabel(rule.metric).toLowerCase()}, shown above; this is the invalid rate for context` : "",
    // days are UTC days in every zone (the daily rollups are)
    bucket === "hour" ? ` · per hour, ${zoneName(zone, fired)}` : " · per day (UTC days)",
  ].join("");

  const tools = failing(data.tools);
  const windowChecked = data.tools.reduce((n, t) => n + checkedCalls(t), 0);
  const windowInvalid = data.tools.reduce((n, t) => n + t.invalid, 0);
  const windowUnchecked = data.tools.reduce((n, t) => n + t.unchecked, 0);
  const windowText = regression ? `since ${incident.scopeVersion} first appeared` : `${formatWindow(rule.windowMinutes)} before it fired`;

  return {
    title: rule.name,
    state: incident.state,
    severity: incident.severity,
    age: `${incident.state === "resolved" ? incidentAge(incident, now) : `fired ${incidentAge(incident, now)}`} · ${formatDateTimeZoned(incident.firedAt, zone)}`,
    canAct: hasRole(role, "member") && incident.state !== "resolved",
    canAddWebhooks: hasRole(role, "admin"),
    whatFired: {
      summary: incident.summary,
      valueLabel: regressionOn === "tool_error_rate" ? "New version's tool error rate" : regression ? "New version" : metricLabel(rule.metric, rule.category),
      value: formatMetricValue(rule.metric, incident.value),
      thresholdLabel: regression ? "Previous version" : "Threshold",
      threshold: formatMetricValue(rule.metric, incident.threshold),
      calls: formatCount(incident.calls),
      scope: scopeText(scope),
      window: `${formatDateTimeZoned(window.from, zone)} – ${formatDateTimeZoned(window.to, zone)} (${windowText})`,
    },
    chart: {
      ...timeSeries(rows, { from: new Date(ranges.chart.from), to: new Date(ranges.chart.to), bucket }),
      title: `${label} around the incident`,
      description,
      label,
      bucket,
      markers,
      threshold: rateChart ? (incident.threshold ?? undefined) : undefined,
      zone,
      explorerHref: explorerUrl(slug, incidentCalls(scope, window, rule.metric === "category_rate" ? rule.category : null, linked)),
      explorerLabel: `${matchingCalls(linked).label} in the explorer →`,
    },
    tools: {
      description: `In the window: ${formatCount(windowInvalid)} of ${formatCount(windowChecked)} checked calls invalid${windowUnchecked > 0 ? ` (${formatCount(windowUnchecked)} unchecked left out)` : ""}`,
      rows: tools.slice(0, TOP).map((t) => ({
        key: t.key,
        href: explorerUrl(slug, incidentCalls({ ...scope, tool: t.key }, window)),
        invalid: formatCount(t.invalid),
        checked: formatCount(checkedCalls(t)),
        // of its checked calls: unchecked ones are neither valid nor invalid
        rate: formatPercent(checkedInvalidRate(t)),
      })),
      more: tools.length > TOP ? `${TOP} of ${tools.length} failing tools.` : null,
    },
    categories: failing(data.categories)
      .slice(0, TOP)
      .map((c) => ({
        key: c.key,
        label: CATEGORY_LABELS[c.key as Category] ?? c.key,
        href: explorerUrl(slug, incidentCalls(scope, window, c.key)),
        invalid: formatCount(c.invalid),
        share: share(c.invalid, windowInvalid),
      })),
    timeline: incident.events.map((event) => ({
      kind: event.kind,
      title: eventTitle(event),
      dot: EVENT_DOT[event.kind] ?? "bg-slate-400",
      at: formatDateTimeZoned(event.at, zone),
      note: eventNote(event, zone),
    })),
    deliveries: incident.deliveries.map((d) => ({
      endpoint: d.endpoint.name,
      url: d.endpoint.url,
      attempt: `#${d.attempt}`,
      status:
        d.statusCode !== null
          ? { text: `HTTP ${d.statusCode}`, answered: true, ok: d.statusCode >= 200 && d.statusCode < 300, title: undefined }
          : { text: d.error ?? "no answer", answered: false, ok: false, title: d.error ?? undefined },
      duration: d.durationMs !== null ? formatDuration(d.durationMs) : null,
      at: formatDateTimeZoned(d.at, zone),
    })),
  };
}

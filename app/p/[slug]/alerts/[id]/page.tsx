import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { SeverityBadge, StateBadge } from "@/components/alerts/badges";
import {
  categoryRateRows,
  explorerHref,
  firstSeen,
  formatMetricValue,
  formatWindow,
  incidentAge,
  incidentWindows,
  isoSeconds,
  isRateMetric,
  metricLabel,
  REGRESSION_METRIC,
  scopeText,
  versionKey,
} from "@/components/alerts/format";
import { IncidentActions } from "@/components/alerts/incident-actions";
import { formatUtc } from "@/components/dashboard/format";
import { RateLineChart, type Marker } from "@/components/charts";
import { timeSeries, type RateRow } from "@/components/charts/prepare";
import type { Bucket } from "@/isomorphic/buckets";
import { buttonClass, Card, PageHeader, Table, td, th } from "@/components/ui";
import { CATEGORY_LABELS, type Category } from "@/contracts/categories";
import { hasRole } from "@/contracts/roles";
import { pageCaller, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Incident" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = 86_400_000;
const TOP = 6;

const count = (n: number) => Math.round(n).toLocaleString("en");
const pct = (n: number, d: number) => (d > 0 ? `${((n / d) * 100).toFixed(1)}%` : "–");

export default async function IncidentPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  const { project, role } = await requireProject(slug);
  if (!UUID.test(id)) notFound();
  const api = await pageCaller();
  const incident = await api.alerts.incident({ project: slug, id }).catch((e: unknown) => {
    if (e instanceof TRPCError && e.code === "NOT_FOUND") notFound();
    throw e;
  });

  const now = new Date();
  const rule = incident.rule;
  const metric = rule.metric;
  const regression = metric === REGRESSION_METRIC && !!incident.scopeModel;
  const scope = {
    ...(incident.scopeTool ? { tool: incident.scopeTool } : {}),
    ...(incident.scopeModel ? { model: incident.scopeModel } : {}),
    ...(incident.scopeVersion ? { modelVersion: incident.scopeVersion } : {}),
  };
  const firedMs = new Date(incident.firedAt).getTime();

  // A regression is about the new version since it appeared: find when, from the model's versions.
  let since: number | null = null;
  let versionRows: { bucket: string; key: string; calls: number; invalid: number }[] = [];
  let versionBucket: Bucket = "day";
  const lookbackFrom = firedMs - 90 * DAY;
  if (regression) {
    const lookback = await api.metrics.series({
      project: slug,
      range: { from: isoSeconds(lookbackFrom), to: isoSeconds(Math.ceil((firedMs + 1) / 3_600_000) * 3_600_000) },
      scope: { model: incident.scopeModel! },
      dimension: "modelVersion",
    });
    versionRows = lookback.rows;
    versionBucket = lookback.bucket;
    since = firstSeen(lookback.rows, versionKey(incident.scopeModel!, incident.scopeVersion));
  }
  const windows = incidentWindows(incident, now, since);
  const chartRange = { from: Math.max(windows.chart.from, regression ? lookbackFrom : -Infinity), to: windows.chart.to };
  const rollupRange = { from: isoSeconds(windows.rollupWindow.from), to: isoSeconds(windows.rollupWindow.to) };

  const [series, categorySeries, tools, categories] = await Promise.all([
    regression
      ? null
      : api.metrics.series({ project: slug, range: { from: isoSeconds(chartRange.from), to: isoSeconds(chartRange.to) }, scope, dimension: "none" }),
    metric === "category_rate" && rule.category
      ? api.metrics.series({ project: slug, range: { from: isoSeconds(chartRange.from), to: isoSeconds(chartRange.to) }, scope, dimension: "category" })
      : null,
    api.metrics.breakdown({ project: slug, range: rollupRange, scope, dimension: "tool" }),
    api.metrics.breakdown({ project: slug, range: rollupRange, scope, dimension: "category" }),
  ]);

  // the chart: the watched rate with its threshold; other metrics get the invalid rate as context
  const rateChart = isRateMetric(metric);
  const seriesLabel = rateChart ? metricLabel(metric, rule.category) : "Invalid rate";
  let rows: RateRow[];
  let bucket: Bucket;
  if (regression) {
    rows = versionRows.map((r) => ({ bucket: r.bucket, series: r.key, numerator: r.invalid, denominator: r.calls }));
    bucket = versionBucket;
  } else if (categorySeries && rule.category) {
    rows = categoryRateRows(series!.rows, categorySeries.rows, rule.category, seriesLabel);
    bucket = series!.bucket;
  } else {
    rows = series!.rows.map((r) => ({ bucket: r.bucket, series: seriesLabel, numerator: r.invalid, denominator: r.calls }));
    bucket = series!.bucket;
  }
  const chart = timeSeries(rows, { from: new Date(chartRange.from), to: new Date(chartRange.to), bucket });
  const markers: Marker[] = [
    ...(regression && since !== null && since > chartRange.from ? [{ at: since, label: `${incident.scopeVersion} first seen` }] : []),
    { at: firedMs, label: "fired" },
  ];

  const failingTools = tools.filter((t) => t.invalid > 0).sort((a, b) => b.invalid - a.invalid || a.key.localeCompare(b.key));
  const windowCalls = tools.reduce((n, t) => n + t.calls, 0);
  const windowInvalid = tools.reduce((n, t) => n + t.invalid, 0);
  const failingCategories = categories.filter((c) => c.invalid > 0).sort((a, b) => b.invalid - a.invalid || a.key.localeCompare(b.key));
  const explorer = explorerHref(project.slug, scope, windows.window, metric === "category_rate" ? rule.category : null);
  const windowText = regression ? `since ${incident.scopeVersion} first appeared` : `${formatWindow(rule.windowMinutes)} before it fired`;
  const base = `/p/${project.slug}/alerts`;
  const canAct = hasRole(role, "member") && incident.state !== "resolved";

  return (
    <>
      <PageHeader
        title={rule.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <StateBadge state={incident.state} />
            <SeverityBadge severity={incident.severity} />
            <span data-testid="incident-age">
              {incident.state === "resolved" ? incidentAge(incident, now) : `fired ${incidentAge(incident, now)}`} · {formatUtc(incident.firedAt)}
            </span>
          </span>
        }
        actions={
          <Link href={base} className={buttonClass("secondary")}>
            All incidents
          </Link>
        }
      />

      <div className="space-y-6">
        <div className="grid gap-6 lg:grid-cols-3">
          <Card title="What fired" className={canAct ? "lg:col-span-2" : "lg:col-span-3"}>
            <p className="text-slate-700" data-testid="incident-summary">
              {incident.summary}
            </p>
            <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3">
              <div>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">
                  {regression ? "New version" : metricLabel(metric, rule.category)}
                </dt>
                <dd className="mt-0.5 text-2xl font-semibold tabular-nums text-red-700" data-testid="incident-value">
                  {formatMetricValue(metric, incident.value)}
                </dd>
              </div>
              <div>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{regression ? "Previous version" : "Threshold"}</dt>
                <dd className="mt-0.5 text-2xl font-semibold tabular-nums text-slate-700">{formatMetricValue(metric, incident.threshold)}</dd>
              </div>
              <div>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Calls in the window</dt>
                <dd className="mt-0.5 text-2xl font-semibold tabular-nums text-slate-700">{count(incident.calls)}</dd>
              </div>
              <div className="col-span-2 sm:col-span-3">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Scope</dt>
                <dd className="mt-0.5 text-slate-800" data-testid="incident-scope">
                  {scopeText(scope)}
                </dd>
              </div>
              <div className="col-span-2 sm:col-span-3">
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Window</dt>
                <dd className="mt-0.5 text-slate-800">
                  {formatUtc(windows.window.from)} – {formatUtc(windows.window.to)} ({windowText})
                </dd>
              </div>
            </dl>
          </Card>
          {canAct && (
            <Card
              title="Respond"
              description="Acknowledge to tell the team you are on it; resolve when it is fixed (rules also resolve on their own once clear for a window)."
            >
              <IncidentActions slug={project.slug} id={incident.id} state={incident.state} />
            </Card>
          )}
        </div>

        <Card
          title={`${seriesLabel} around the incident`}
          description={
            <>
              {regression ? `${incident.scopeModel}, one line per version; the dashed red line is the previous version's rate` : scopeText(scope)}
              {rateChart && !regression ? " · the dashed red line is the threshold" : ""}
              {!rateChart ? ` · the rule watches ${metricLabel(metric).toLowerCase()}, shown above; this is the invalid rate for context` : ""}
              {` · per ${bucket}, UTC`}
            </>
          }
          actions={
            <Link href={explorer} className={buttonClass("secondary", "sm")} data-testid="explorer-link">
              Invalid calls in the explorer →
            </Link>
          }
        >
          {chart.series.length ? (
            <RateLineChart
              labels={chart.labels}
              series={chart.series}
              bucket={bucket}
              markers={markers}
              threshold={rateChart ? incident.threshold : undefined}
              label={seriesLabel}
              height={280}
            />
          ) : (
            <p className="py-10 text-center text-slate-500">No calls in this scope around the incident.</p>
          )}
        </Card>

        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Top failing tools" description={`In the window: ${count(windowInvalid)} of ${count(windowCalls)} calls invalid`}>
            {failingTools.length === 0 ? (
              <p className="text-slate-500">No invalid calls in the window.</p>
            ) : (
              <Table label="Top failing tools">
                <thead>
                  <tr>
                    <th className={th}>Tool</th>
                    <th className={`${th} text-right`}>Invalid</th>
                    <th className={`${th} text-right`}>Calls</th>
                    <th className={`${th} text-right`}>Rate</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {failingTools.slice(0, TOP).map((t) => (
                    <tr key={t.key} data-testid="failing-tool">
                      <td className={`${td} font-mono text-xs`}>
                        <Link href={explorerHref(project.slug, { ...scope, tool: t.key }, windows.window)} className="text-indigo-700 hover:underline">
                          {t.key}
                        </Link>
                      </td>
                      <td className={`${td} text-right tabular-nums`}>{count(t.invalid)}</td>
                      <td className={`${td} text-right tabular-nums`}>{count(t.calls)}</td>
                      <td className={`${td} text-right tabular-nums`}>{pct(t.invalid, t.calls)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
            {failingTools.length > TOP && (
              <p className="mt-2 text-xs text-slate-500">
                {TOP} of {failingTools.length} failing tools.
              </p>
            )}
          </Card>
          <Card title="Top failure categories" description="Share of the window's invalid calls">
            {failingCategories.length === 0 ? (
              <p className="text-slate-500">No invalid calls in the window.</p>
            ) : (
              <Table label="Top failure categories">
                <thead>
                  <tr>
                    <th className={th}>Category</th>
                    <th className={`${th} text-right`}>Invalid</th>
                    <th className={`${th} text-right`}>Share</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {failingCategories.slice(0, TOP).map((c) => (
                    <tr key={c.key} data-testid="failing-category">
                      <td className={td}>
                        <Link href={explorerHref(project.slug, scope, windows.window, c.key)} className="text-indigo-700 hover:underline">
                          {CATEGORY_LABELS[c.key as Category] ?? c.key}
                        </Link>
                      </td>
                      <td className={`${td} text-right tabular-nums`}>{count(c.invalid)}</td>
                      <td className={`${td} text-right tabular-nums`}>{pct(c.invalid, windowInvalid)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Card>
        </div>

        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Timeline">
            <ol className="relative space-y-4 border-l border-slate-200 pl-5" aria-label="Timeline">
              {incident.events.map((event, i) => (
                <li key={i} data-testid="timeline-event" data-kind={event.kind} className="relative">
                  <span className={`absolute -left-[1.64rem] top-1.5 h-2.5 w-2.5 rounded-full ring-4 ring-white ${EVENT_DOT[event.kind] ?? "bg-slate-400"}`} />
                  <p className="font-medium text-slate-900">{eventTitle(event)}</p>
                  <p className="text-xs text-slate-500">{formatUtc(event.at)}</p>
                  {event.note && <p className="mt-1 text-slate-600">{event.note}</p>}
                </li>
              ))}
            </ol>
          </Card>
          <Card title="Webhook deliveries" description="Every attempt to notify this project's endpoints about this incident.">
            {incident.deliveries.length === 0 ? (
              <p className="text-slate-500" data-testid="no-deliveries">
                No deliveries.{" "}
                {hasRole(role, "admin") ? (
                  <>
                    Add an endpoint in{" "}
                    <Link href={`/p/${project.slug}/settings/webhooks`} className="font-medium text-indigo-700 hover:underline">
                      Settings → Webhooks
                    </Link>{" "}
                    to be notified of new incidents.
                  </>
                ) : (
                  "An admin can add webhook endpoints in the project's settings."
                )}
              </p>
            ) : (
              <Table label="Webhook deliveries">
                <thead>
                  <tr>
                    <th className={th}>Endpoint</th>
                    <th className={th}>Attempt</th>
                    <th className={th}>Status</th>
                    <th className={th}>Time</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {incident.deliveries.map((d, i) => (
                    <tr key={i} data-testid="delivery-row">
                      <td className={`${td} max-w-48 truncate`} title={d.endpoint.url}>
                        {d.endpoint.name}
                      </td>
                      <td className={`${td} tabular-nums`}>#{d.attempt}</td>
                      <td className={td}>
                        {d.statusCode !== null ? (
                          <span className={d.statusCode >= 200 && d.statusCode < 300 ? "font-medium text-emerald-700" : "font-medium text-red-700"}>
                            HTTP {d.statusCode}
                          </span>
                        ) : (
                          <span className="text-red-700" title={d.error ?? undefined}>
                            {d.error ?? "no answer"}
                          </span>
                        )}
                        {d.durationMs !== null && <span className="text-xs text-slate-400"> · {d.durationMs} ms</span>}
                      </td>
                      <td className={`${td} text-slate-500`}>{formatUtc(d.at)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Card>
        </div>
      </div>
    </>
  );
}

const EVENT_DOT: Record<string, string> = {
  fired: "bg-red-500",
  notified: "bg-indigo-500",
  acknowledged: "bg-amber-500",
  resolved: "bg-emerald-500",
};

function eventTitle(event: { kind: string; actor: string | null }) {
  switch (event.kind) {
    case "fired":
      return "Fired";
    case "notified":
      return "Notified";
    case "acknowledged":
      return `Acknowledged by ${event.actor ?? "someone"}`;
    case "resolved":
      return event.actor ? `Resolved by ${event.actor}` : "Resolved automatically";
    default:
      return event.kind;
  }
}

import type { Metadata } from "next";
import Link from "next/link";
import { AlertsTabs } from "@/components/alerts/alerts-tabs";
import { MuteBadges, SeverityBadge, StateBadge } from "@/components/alerts/badges";
import { EvaluateNowButton } from "@/components/alerts/evaluate-now-button";
import { formatMetricValue, incidentAge, metricLabel, scopeText } from "@/components/alerts/format";
import { formatDateTimeZoned } from "@/isomorphic/time-zone";
import { IncidentFilters } from "@/components/alerts/incident-filters";
import { Alert, Card, PageHeader } from "@/components/ui";
import { INCIDENT_STATES } from "@/contracts/alerts";
import { hasRole } from "@/contracts/roles";
import { filterText } from "@/contracts/text-limits";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Alerts" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const text = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

/** A tool or model filter from the address: kept when the API would take it, else ignored with the reason (never cut). */
function nameFilter(what: "tool" | "model", value: string | undefined, problems: string[]): string | undefined {
  if (value === undefined) return undefined;
  const checked = filterText(what).safeParse(value);
  if (checked.success) return value;
  problems.push(`Ignored ${what}: ${checked.error.issues[0]?.message ?? "not a valid filter"}.`);
  return undefined;
}

export default async function AlertsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  const { zone } = await pageTimeZone();
  const raw = await searchParams;
  const state = text(raw.state);
  const ruleId = text(raw.ruleId);
  const problems: string[] = [];
  const filter = {
    state: (INCIDENT_STATES as readonly string[]).includes(state ?? "") ? (state as (typeof INCIDENT_STATES)[number]) : undefined,
    ruleId: ruleId && UUID.test(ruleId) ? ruleId : undefined,
    tool: nameFilter("tool", text(raw.tool), problems),
    model: nameFilter("model", text(raw.model), problems),
  };
  const filtered = Object.values(filter).some(Boolean);
  const api = await pageCaller();
  const [incidents, all, { rules }] = await Promise.all([
    api.alerts.incidents({ project: slug, ...filter }),
    filtered ? api.alerts.incidents({ project: slug }) : null,
    api.alerts.rules({ project: slug }),
  ]);
  const everything = all ?? incidents;
  const now = new Date();
  const open = everything.filter((i) => i.state !== "resolved").length;
  const firing = everything.filter((i) => i.state === "firing").length;
  const base = `/p/${project.slug}/alerts`;

  return (
    <>
      <PageHeader
        title="Alerts"
        description={everything.length === 0 ? "No incidents yet." : `${firing} firing, ${open - firing} acknowledged, ${everything.length - open} resolved.`}
        actions={hasRole(role, "admin") ? <EvaluateNowButton slug={project.slug} /> : undefined}
      />
      <AlertsTabs slug={project.slug} showWebhooks={hasRole(role, "admin")} />
      <div className="space-y-6">
        {problems.length > 0 && (
          <Alert tone="warning">
            <ul className="list-inside list-disc space-y-0.5" data-testid="filter-problems">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </Alert>
        )}
        <IncidentFilters
          key={JSON.stringify(filter)}
          action={base}
          current={filter}
          rules={rules.map((r) => ({ value: r.id, label: r.name }))}
          tools={everything.map((i) => i.scopeTool)}
          models={everything.map((i) => i.scopeModel)}
        />
        <Card>
          {incidents.length === 0 ? (
            <div className="py-6 text-center text-slate-500" data-testid="no-incidents">
              {filtered ? (
                <>
                  No incidents match these filters.{" "}
                  <Link href={base} className="font-medium text-indigo-700 hover:underline">
                    Show all
                  </Link>
                </>
              ) : (
                <>
                  Nothing has fired. Rules are evaluated every minute;{" "}
                  <Link href={`${base}/rules`} className="font-medium text-indigo-700 hover:underline">
                    see the rules
                  </Link>
                  .
                </>
              )}
            </div>
          ) : (
            <ul className="-my-4 divide-y divide-slate-100" aria-label="Incidents">
              {incidents.map((incident) => {
                const metric = incident.rule.metric;
                return (
                  <li
                    key={incident.id}
                    data-testid="incident-row"
                    data-state={incident.state}
                    className="flex flex-col gap-2 py-4 sm:flex-row sm:items-start sm:gap-4"
                  >
                    <div className="flex flex-wrap items-start gap-1.5 pt-0.5 sm:w-28 sm:shrink-0 sm:flex-col">
                      <StateBadge state={incident.state} />
                      <SeverityBadge severity={incident.severity} />
                      <MuteBadges silenced={incident.silenced} snoozedUntil={incident.snoozedUntil} now={now} zone={zone} />
                    </div>
                    <div className="min-w-0 flex-1">
                      <Link
                        href={`${base}/${incident.id}`}
                        className="font-medium text-slate-900 [overflow-wrap:anywhere] hover:text-indigo-700 hover:underline"
                        data-testid="incident-title"
                      >
                        {incident.rule.name}
                      </Link>
                      <p className="mt-0.5 text-slate-600 [overflow-wrap:anywhere]">{incident.summary}</p>
                      <p className="mt-1 text-xs text-slate-500 [overflow-wrap:anywhere]">
                        Scope:{" "}
                        <span className="font-medium text-slate-700">
                          {scopeText({ tool: incident.scopeTool, model: incident.scopeModel, modelVersion: incident.scopeVersion })}
                        </span>
                      </p>
                      {(incident.assignee || incident.note) && (
                        <p className="mt-1 text-xs text-slate-600 [overflow-wrap:anywhere]" data-testid="incident-triage">
                          {incident.assignee && (
                            <>
                              Assigned to <span className="font-medium text-slate-800">{incident.assignee.name || incident.assignee.email}</span>
                            </>
                          )}
                          {incident.note && (
                            <span className="line-clamp-2 block" title={incident.note}>
                              Note: {incident.note}
                            </span>
                          )}
                        </p>
                      )}
                    </div>
                    <div className="flex flex-wrap items-baseline gap-x-3 sm:block sm:shrink-0 sm:text-right" data-testid="incident-when">
                      <p className="font-medium tabular-nums text-slate-900" title={metricLabel(metric, incident.rule.category)}>
                        {formatMetricValue(metric, incident.value)}
                        <span className="font-normal text-slate-500"> / {formatMetricValue(metric, incident.threshold)}</span>
                      </p>
                      <p className="mt-0.5 text-xs text-slate-500" title={`fired ${formatDateTimeZoned(incident.firedAt, zone)}`}>
                        {incident.state === "resolved" ? incidentAge(incident, now) : `fired ${incidentAge(incident, now)}`}
                      </p>
                      <p className="text-xs text-slate-500">{formatDateTimeZoned(incident.firedAt, zone)}</p>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}

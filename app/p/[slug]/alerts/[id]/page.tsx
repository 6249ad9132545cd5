import type { Metadata } from "next";
import Link from "next/link";
import { MuteBadges, SeverityBadge, StateBadge } from "@/components/alerts/badges";
import { SilenceForm, SnoozeForm, TriageForm } from "@/components/alerts/mute-forms";
import { pageError } from "@/components/form-errors";
import { DeliveriesCard, FailingToolsCard, FailureCategoriesCard, IncidentChartCard, TimelineCard, WhatFiredCard } from "@/components/alerts/incident-cards";
import { IncidentActions } from "@/components/alerts/incident-actions";
import { incidentRanges, planIncident, prepareIncident } from "@/components/alerts/incident-view";
import { Alert, Card, PageHeader } from "@/components/ui";
import { loadByIdOr404 } from "@/components/alerts/load-by-id";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Incident" };

export default async function IncidentPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; id: string }>;
  searchParams: Promise<{ error?: string | string[] }>;
}) {
  const { slug, id } = await params;
  const { project, role } = await requireProject(slug);
  const { zone } = await pageTimeZone();
  const api = await pageCaller();
  const incident = await loadByIdOr404(id, (id) => api.alerts.incident({ project: slug, id }));

  // a regression is about the new version since it appeared: find when, from the model's versions
  const now = new Date();
  const plan = planIncident(incident);
  const lookback = plan.lookback
    ? await api.metrics.series({ project: slug, range: plan.lookback.range, scope: { model: plan.lookback.model }, dimension: "modelVersion" })
    : null;
  const ranges = incidentRanges(incident, plan, lookback, now);
  const { scope } = plan;
  const [series, categorySeries, tools, categories] = await Promise.all([
    plan.regression ? null : api.metrics.series({ project: slug, range: ranges.chartQuery, scope, dimension: "none" }),
    ranges.category ? api.metrics.series({ project: slug, range: ranges.chartQuery, scope, dimension: "category" }) : null,
    api.metrics.breakdown({ project: slug, range: ranges.rollup, scope, dimension: "tool" }),
    api.metrics.breakdown({ project: slug, range: ranges.rollup, scope, dimension: "category" }),
  ]);
  const view = prepareIncident({ slug: project.slug, role, incident, now, plan, ranges, lookback, series, categorySeries, tools, categories, zone });
  const members = view.canAct ? await api.members.list({ project: slug }) : [];
  const back = `/p/${project.slug}/alerts/${incident.id}`;
  const error = pageError((await searchParams).error);
  const link = "font-medium text-indigo-700 hover:underline";

  // On a phone the first screen holds what a responder needs at once: the whole title, the state,
  // the value against the threshold, the way to the rule, and Acknowledge / Silence.
  return (
    <>
      <PageHeader
        wrap
        title={view.title}
        description={
          <span className="flex flex-col gap-1.5">
            <span className="inline-flex flex-wrap items-center gap-2">
              <StateBadge state={view.state} />
              <SeverityBadge severity={view.severity} />
              <MuteBadges silenced={incident.silenced} snoozedUntil={incident.snoozedUntil} now={now} zone={zone} />
              <span data-testid="incident-age">{view.age}</span>
            </span>
            <span className="text-slate-700" data-testid="incident-headline">
              {view.whatFired.valueLabel}: <span className="font-semibold tabular-nums text-red-700">{view.whatFired.value}</span> ·{" "}
              {view.whatFired.thresholdLabel.toLowerCase()} <span className="tabular-nums">{view.whatFired.threshold}</span>
            </span>
            <span className="inline-flex flex-wrap gap-x-4">
              <Link href={`/p/${project.slug}/alerts/rules/${incident.rule.id}`} className={link} data-testid="incident-rule-link">
                The rule →
              </Link>
              <Link href={`/p/${project.slug}/alerts`} className={link}>
                All incidents
              </Link>
            </span>
          </span>
        }
      />

      <div className="space-y-6">
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <WhatFiredCard view={view.whatFired} assignee={incident.assignee} note={incident.note} className={view.canAct ? "lg:col-span-2" : "lg:col-span-3"} />
          {view.canAct && (
            <Card className="order-first lg:order-none">
              {/* no card header on a phone: its height would push Silence below the first screen */}
              <h2 className="sr-only sm:not-sr-only sm:mb-3 sm:text-base sm:font-semibold sm:text-slate-900">Respond</h2>
              {error && (
                <Alert tone="error" className="mb-3">
                  {error}
                </Alert>
              )}
              <IncidentActions slug={project.slug} id={incident.id} state={incident.state} />
              <details className="mt-3" data-testid="incident-silence">
                <summary className="inline-flex cursor-pointer list-none items-center rounded-md px-3.5 py-2 font-medium text-slate-700 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 [&::-webkit-details-marker]:hidden">
                  Silence this rule…
                </summary>
                <div className="mt-3">
                  <SilenceForm slug={project.slug} back={back} ruleId={incident.rule.id} />
                </div>
              </details>
              <div className="mt-5 border-t border-slate-100 pt-4">
                <TriageForm
                  slug={project.slug}
                  back={back}
                  id={incident.id}
                  assigneeId={incident.assignee?.id ?? null}
                  note={incident.note}
                  members={members}
                />
              </div>
              <div className="mt-5 border-t border-slate-100 pt-4">
                <p className="mb-2 text-xs text-slate-600">Snooze: it stays open but leaves the firing count until then.</p>
                <SnoozeForm slug={project.slug} back={back} id={incident.id} />
              </div>
            </Card>
          )}
        </div>

        <IncidentChartCard chart={view.chart} />

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <FailingToolsCard tools={view.tools} />
          <FailureCategoriesCard categories={view.categories} />
        </div>

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <TimelineCard events={view.timeline} />
          <DeliveriesCard
            deliveries={view.deliveries}
            none={
              view.canAddWebhooks ? (
                <>
                  Add an endpoint in{" "}
                  <Link href={`/p/${project.slug}/settings/webhooks`} className="font-medium text-indigo-700 hover:underline">
                    Settings → Webhooks
                  </Link>{" "}
                  to be notified of new incidents.
                </>
              ) : (
                "An admin can add webhook endpoints in the project's settings."
              )
            }
          />
        </div>
      </div>
    </>
  );
}

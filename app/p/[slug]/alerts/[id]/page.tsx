import type { Metadata } from "next";
import Link from "next/link";
import { MuteBadges, SeverityBadge, StateBadge } from "@/components/alerts/badges";
import { SnoozeForm } from "@/components/alerts/mute-forms";
import { pageError } from "@/components/form-errors";
import { DeliveriesCard, FailingToolsCard, FailureCategoriesCard, IncidentChartCard, TimelineCard, WhatFiredCard } from "@/components/alerts/incident-cards";
import { IncidentActions } from "@/components/alerts/incident-actions";
import { incidentRanges, planIncident, prepareIncident } from "@/components/alerts/incident-view";
import { buttonClass, Card, PageHeader } from "@/components/ui";
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

  return (
    <>
      <PageHeader
        title={view.title}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <StateBadge state={view.state} />
            <SeverityBadge severity={view.severity} />
            <MuteBadges silenced={incident.silenced} snoozedUntil={incident.snoozedUntil} now={now} zone={zone} />
            <span data-testid="incident-age">{view.age}</span>
          </span>
        }
        actions={
          <Link href={`/p/${project.slug}/alerts`} className={buttonClass("secondary")}>
            All incidents
          </Link>
        }
      />

      <div className="space-y-6">
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <WhatFiredCard view={view.whatFired} className={view.canAct ? "lg:col-span-2" : "lg:col-span-3"} />
          {view.canAct && (
            <Card
              title="Respond"
              description="Acknowledge to tell the team you are on it; resolve when it is fixed (rules also resolve on their own once clear for a window)."
            >
              <IncidentActions slug={project.slug} id={incident.id} state={incident.state} />
              <div className="mt-5 border-t border-slate-100 pt-4">
                <p className="mb-2 text-xs text-slate-600">Snooze: it stays open but leaves the firing count until then.</p>
                <SnoozeForm
                  slug={project.slug}
                  back={`/p/${project.slug}/alerts/${incident.id}`}
                  id={incident.id}
                  error={pageError((await searchParams).error)}
                />
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

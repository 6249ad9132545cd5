import type { Metadata } from "next";
import { CategoryBreakdownChart, CategoryStackedChart, RateLineChart } from "@/components/charts";
import { explorerUrl } from "@/components/calls/explorer-params";
import { seriesParam } from "@/components/charts/explore";
import {
  categoryBreakdown,
  categorySeries,
  modelVersionParams,
  OPEN_BUCKET_MIN_CALLS,
  rateSeries,
  timeMarkers,
  volumes,
} from "@/components/dashboard/chart-data";
import { DashboardActions } from "@/components/dashboard/dashboard-actions";
import { FiringBanner } from "@/components/dashboard/firing-banner";
import {
  allUnchecked,
  expectedAttemptsOrNull,
  observedAttempts,
  rateChange,
  rateText,
  relativeChange,
  selectSeries,
  verdictSplit,
} from "@/components/dashboard/derive";
import { formatChange, formatCount, formatNumber, formatPercent, formatPp, formatUsd } from "@/contracts/format-number";
import { LoadDemoButton } from "@/components/dashboard/load-demo-button";
import { OpenDemoProjectButton } from "@/components/dashboard/open-demo-project";
import { apiRange, dashboardRange, includesNow, previousLabel, rangeParams, readParams, type SearchParams } from "@/components/dashboard/params";
import { SegmentedLinks } from "@/components/dashboard/segmented";
import { SeriesPicker } from "@/components/dashboard/series-picker";
import { StatTile, type Delta } from "@/components/dashboard/stat-tile";
import { UncheckedNotice } from "@/components/dashboard/unchecked-notice";
import { EmptyProject } from "@/components/empty-project";
import { FirstCalls } from "@/components/first-calls";
import { FirstEventWatcher } from "@/components/first-event-watcher";
import { ExecutionCard } from "@/components/tools/execution-card";
import { Card, PageHeader } from "@/components/ui";
import { withParams } from "@/contracts/range";
import { hasRole } from "@/contracts/roles";
import { pageCaller, pageOrigin, pageTimeZone, requireProject } from "@/server/page-session";
import { DAY_MS, MAX_RANGE_DAYS } from "@/contracts/metrics";

export const metadata: Metadata = { title: "Overview" };

const TOP = 8;

export default async function OverviewPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  const query = await readParams(searchParams);
  const { zone } = await pageTimeZone();
  const range = dashboardRange(query, zone);
  const api = await pageCaller();
  const input = { project: slug, range: apiRange(range) };
  const byModel = query.by === "model";

  const [totals, lines, categoryRows, categories, incidents, definitions] = await Promise.all([
    api.metrics.totals(input),
    api.metrics.series({ ...input, dimension: byModel ? "modelVersion" : "tool" }),
    api.metrics.series({ ...input, dimension: "category" }),
    api.metrics.breakdown({ ...input, dimension: "category" }),
    api.alerts.incidents({ project: slug }),
    api.tools.list({ project: slug }),
  ]);

  if (totals.current.calls === 0 && totals.previous.calls === 0) {
    // nothing here or just before: has this project ever had a call (up to now, also after a past range)?
    const to = new Date(Math.max(Date.parse(range.to), Date.now())).toISOString();
    const ever = await api.metrics.totals({ project: slug, range: { from: new Date(Date.parse(to) - MAX_RANGE_DAYS * DAY_MS).toISOString(), to } });
    if (ever.current.calls === 0 && ever.previous.calls === 0) {
      const hasDemoProject = (await api.projects.list()).some((p) => p.demo && p.slug !== project.slug);
      return (
        <>
          <PageHeader title={project.name} description="Overview" />
          <div className="space-y-6">
            <FirstEventWatcher slug={project.slug} zone={zone} />
            <EmptyProject origin={await pageOrigin()} slug={project.slug} now={new Date()} />
            <Card
              title="Or explore with demo data"
              description="30 days of a loan-servicing agent's tool calls: eight tools, four model versions, one of them a regression. They go through the same ingestion as your events."
            >
              <div className="space-y-4">
                {hasRole(role, "admin") ? (
                  <LoadDemoButton project={project.slug} />
                ) : (
                  <p className="text-slate-600">An admin of this project can load demo data here.</p>
                )}
                <div className="space-y-2 border-t border-slate-100 pt-4">
                  <p className="text-slate-600">
                    {hasDemoProject
                      ? "Or open your demo project, with its demo data brought up to now (loading again adds only the calls since its last load)."
                      : "Or keep this project for your own events and load the demo into a separate demo project of yours (also from the project switcher)."}
                  </p>
                  <OpenDemoProjectButton hasDemoProject={hasDemoProject} label={hasDemoProject ? "Open my demo project" : "Load into a demo project"} />
                </div>
              </div>
            </Card>
          </div>
        </>
      );
    }
  }

  // the first run goes on until the project has a schema: where the calls landed, and why they are unchecked
  const [firstRun, newest] =
    definitions.length === 0 ? await Promise.all([api.tools.unregistered({ project: slug }), api.calls.list({ filter: {}, limit: 1, project: slug })]) : [];
  const path = `/p/${project.slug}`;
  const { current, previous } = totals;
  const change = rateChange(current, previous);
  const p = change.current;
  const checked = current.calls - current.unchecked;
  const invalidCost = categories.reduce((sum, c) => sum + c.costUsd, 0);
  const versus = `vs ${previousLabel(range)}`;

  const rateDelta: Delta | undefined =
    change.diff === null
      ? undefined
      : {
          text: `${change.direction === "up" ? "▲" : change.direction === "down" ? "▼" : "■"} ${formatPp(change.diff)} ${versus}`,
          tone: change.direction === "up" ? "bad" : change.direction === "down" ? "good" : "neutral",
        };
  const callsChange = relativeChange(current.calls, previous.calls);

  const param = byModel ? "versions" : "tools";
  const noun = byModel ? "model versions" : "tools";
  const selection = selectSeries(volumes(lines.rows), query[param], TOP, noun);
  const rates = rateSeries(lines.rows, range, lines.bucket, selection.shown);
  const stacked = categorySeries(categoryRows.rows, range, categoryRows.bucket);
  const breakdown = categoryBreakdown(categories);
  const firing = incidents.filter((i) => i.state === "firing");
  const lineExplore = {
    slug: project.slug,
    series: byModel ? Object.fromEntries(selection.shown.map((key) => [key, modelVersionParams(key)])) : seriesParam("tool", selection.shown),
  };
  const lineMarkers = timeMarkers(range, { incidents, versions: byModel ? [] : definitions, tools: selection.shown });
  const allMarkers = timeMarkers(range, { incidents, versions: definitions });

  return (
    <>
      <PageHeader
        title={project.name}
        description={`Overview · ${range.label}`}
        actions={<DashboardActions path={path} params={query} range={range} zone={zone} renderedAt={Date.now()} />}
      />
      <FiringBanner slug={project.slug} incidents={firing} zone={zone} now={new Date()} />

      <div className="space-y-6">
        {firstRun && newest?.calls[0] && (
          <FirstCalls slug={project.slug} newest={newest.calls[0]} range={range} unregistered={firstRun} canRegister={hasRole(role, "admin")} zone={zone} />
        )}
        {allUnchecked(current) && <UncheckedNotice slug={project.slug} calls={current.calls} canRegister={hasRole(role, "admin")} />}
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          <StatTile
            testId="tile-calls"
            label="Tool calls"
            value={formatCount(current.calls)}
            delta={callsChange === null ? undefined : { text: `${formatChange(callsChange)} ${versus}`, tone: "neutral" }}
            detail={`${verdictSplit(current)} · ${formatCount(current.invalid)} invalid`}
          />
          <StatTile
            testId="tile-invalid-rate"
            label="Invalid rate"
            value={rateText(current)}
            delta={rateDelta}
            detail={
              checked === current.calls
                ? `${formatCount(current.invalid)} of ${formatCount(current.calls)} calls invalid`
                : checked === 0
                  ? `no call checked yet (${formatCount(current.unchecked)} unchecked)`
                  : `${formatCount(current.invalid)} of ${formatCount(checked)} checked calls invalid (${formatCount(current.unchecked)} unchecked left out)`
            }
          />
          <StatTile
            testId="tile-attempts"
            label="Attempts per successful call"
            value={formatNumber(expectedAttemptsOrNull(p), { digits: 3 })}
            unit="expected"
            delta={{ text: `${formatNumber(observedAttempts(current), { digits: 3 })} observed`, tone: "neutral" }}
            detail="Expected 1/(1−p); observed over runs (see below)"
          />
          <StatTile
            testId="tile-extra"
            label="Extra model calls"
            value={formatCount(current.invalid)}
            unit="invalid calls"
            delta={{ text: `${formatUsd(invalidCost)} spent on them`, tone: invalidCost > 0 ? "bad" : "neutral" }}
            detail={current.costUsd > 0 ? `${formatPercent(invalidCost / current.costUsd)} of all ${formatUsd(current.costUsd)}` : "no cost reported"}
          />
        </div>

        <ExecutionCard totals={current} latency={totals.latency} outcomeHref={(outcome) => explorerUrl(project.slug, { ...rangeParams(query), outcome })} />

        <Card
          title="Invalid rate over time"
          description={
            <>
              One line per {byModel ? "model version" : "tool"}
              {selection.note && <span data-testid="series-note"> · {selection.note}</span>}
              {" · "}
              {lines.bucket === "hour" ? "an hour" : "a day"} without calls is a gap
              {includesNow(range) && `; the current ${lines.bucket} shows from ${OPEN_BUCKET_MIN_CALLS} calls`}
            </>
          }
          actions={
            <div className="flex shrink-0 items-center gap-2">
              <SegmentedLinks
                label="Lines"
                testId="series-by"
                items={[
                  { label: "By tool", href: withParams(path, query, { by: undefined, versions: undefined }), active: !byModel },
                  { label: "By model version", href: withParams(path, query, { by: "model", tools: undefined }), active: byModel },
                ]}
              />
              {selection.options.length > 1 && (
                <SeriesPicker
                  key={param}
                  param={param}
                  noun={noun}
                  options={selection.options}
                  shown={selection.shown}
                  defaults={selection.defaults}
                  colors={selection.colors}
                />
              )}
            </div>
          }
        >
          {rates.series.length ? (
            <RateLineChart
              labels={rates.labels}
              series={rates.series}
              bucket={lines.bucket}
              colors={selection.colors}
              height={280}
              markers={lineMarkers}
              zone={zone}
              explore={lineExplore}
              zoom
            />
          ) : (
            <NoData />
          )}
        </Card>

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Card title="Failure categories over time" description={`Invalid calls per ${categoryRows.bucket}, by category`}>
            {stacked.series.length ? (
              <CategoryStackedChart
                labels={stacked.labels}
                series={stacked.series}
                bucket={categoryRows.bucket}
                markers={allMarkers}
                zone={zone}
                explore={{ slug: project.slug }}
                zoom
              />
            ) : (
              <NoData />
            )}
          </Card>
          <Card title="Failure categories" description={`${formatCount(current.invalid)} invalid calls in the range`}>
            {breakdown.length ? (
              <CategoryBreakdownChart
                rows={breakdown}
                height={Math.max(160, breakdown.length * 30 + 40)}
                explore={{ slug: project.slug }}
                range={apiRange(range)}
              />
            ) : (
              <NoData />
            )}
          </Card>
        </div>

        <p className="text-xs leading-relaxed text-slate-500">
          <strong className="font-medium text-slate-600">How attempts are counted.</strong> With invalid rate p, a successful call takes 1/(1−p) attempts on
          average (expected). Observed = (valid calls + invalid calls the model followed with a retry) ÷ valid calls: every invalid call that was retried counts
          as an attempt toward a success; one the run gave up on does not. Extra model calls are the invalid calls themselves, each a full model call; their
          cost is what those calls were reported to cost.
        </p>
      </div>
    </>
  );
}

function NoData() {
  return <p className="py-10 text-center text-slate-500">No calls in this range.</p>;
}

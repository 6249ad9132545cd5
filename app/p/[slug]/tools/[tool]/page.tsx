import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CategoryBreakdownChart, CategoryStackedChart, RateLineChart } from "@/components/charts";
import { assignColors } from "@/components/charts/prepare";
import { categoryBreakdown, categorySeries, modelVersionParams, rateSeries, volumes } from "@/components/dashboard/chart-data";
import type { Explore } from "@/components/charts/explore";
import { allUnchecked, expectedAttemptsOrNull, observedAttempts, rateChange, rateChangeLabel, rateText, verdictSplit } from "@/components/dashboard/derive";
import { formatCount, formatNumber, formatPercent, formatUsd } from "@/contracts/format-number";
import { formatDateTimeZoned } from "@/isomorphic/time-zone";
import { apiRange, dashboardRange, previousLabel, rangeParams, readParams, type SearchParams } from "@/components/dashboard/params";
import { RangePicker } from "@/components/dashboard/range-picker";
import { SegmentedLinks } from "@/components/dashboard/segmented";
import { prettySchema } from "@/components/dashboard/schema-format";
import { StatTile } from "@/components/dashboard/stat-tile";
import { UncheckedNotice } from "@/components/dashboard/unchecked-notice";
import { ConfusableList } from "@/components/tools/confusable-list";
import { asOfNote } from "@/components/dashboard/as-of";
import { ExecutionCard } from "@/components/tools/execution-card";
import { SpiralsCard } from "@/components/tools/spirals-card";
import { ParallelCallsCard } from "@/components/parallel/parallel-calls-card";
import { DryRunPanel } from "@/components/tools/dry-run-panel";
import { PatternsTable } from "@/components/tools/patterns-table";
import { RegisterToolsForm } from "@/components/tools/register-tools-form";
import { SuggestionsList } from "@/components/tools/suggestions-list";
import { VersionVerdict } from "@/components/tools/version-verdict";
import { sourceLabel, VersionList } from "@/components/tools/version-list";
import { PageSections } from "@/components/page-sections";
import { AwaitRead, awaitedLater } from "@/components/await-read";
import { Badge, Card, PageHeader } from "@/components/ui";
import { hasRole } from "@/contracts/roles";
import { explorerUrl } from "@/components/calls/explorer-params";
import { withParams } from "@/contracts/range";
import { RECOVERED_MEANING, recoveryTitle } from "@/isomorphic/recovery";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";
import { DAY_MS, MAX_RANGE_DAYS } from "@/contracts/metrics";
import { NOT_CHECKED_COUNTED } from "@/contracts/tools";

/** " · registered" after a version's first-seen time, or nothing for an unknown source. */
const sourceSuffix = (source: string) => (sourceLabel(source) ? `· ${sourceLabel(source)}` : "");

/**
 * What a tool without a schema of its own means for its calls: while the project has no schema
 * at all, ingestion stores every call unchecked; once it has some, a call naming this tool is an
 * unknown tool (calls stored before stay unchecked until re-checked).
 */
function schemaMissingText(projectHasSchemas: boolean, unchecked: number): { text: string; badge: string } {
  const stored = `${formatCount(unchecked)}${unchecked >= NOT_CHECKED_COUNTED ? "+" : ""} of its calls ${unchecked === 1 ? "is" : "are"} stored unchecked`;
  if (!projectHasSchemas) {
    return {
      text: "This project has no schema registered yet, so Toolgate stores every call unchecked (no verdict of its own): register this tool's schema to check its calls.",
      badge: "unchecked",
    };
  }
  return {
    text: `No schema is registered under this name: a new call naming it is checked as an unknown tool${unchecked > 0 ? `; ${stored} (from before the project had a schema: re-check them after registering this one)` : ""}.`,
    badge: "unknown tool",
  };
}

type Props = { params: Promise<{ slug: string; tool: string }>; searchParams: SearchParams };

/** Route segments may arrive percent-encoded; a name that is not valid encoding stays as it is. */
function decode(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: decode((await params).tool) };
}

export default async function ToolPage({ params, searchParams }: Props) {
  const { slug, tool: segment } = await params;
  const tool = decode(segment);
  const { project, role } = await requireProject(slug);
  if (tool.length > 200) notFound(); // longer than any tool name the API accepts
  const query = await readParams(searchParams);
  const { zone } = await pageTimeZone();
  const range = dashboardRange(query, zone);
  const api = await pageCaller();
  const input = { project: slug, range: apiRange(range), scope: { tool } };
  const byModel = query.by === "model";
  // Every read starts now; the page awaits the few that decide what it shows (a 404, the tabs' badges) and each card
  // awaits its own (AwaitRead), so that React renders the cards whose reads have answered while the others still run.
  const spiralsRead = api.metrics.spirals(input);
  const parallelRead = api.parallel.tool({ project: slug, range: apiRange(range), tool });
  const linesRead = api.metrics.series({ ...input, dimension: byModel ? "modelVersion" : "none" });
  const categoryRowsRead = api.metrics.series({ ...input, dimension: "category" });
  const categoriesRead = api.metrics.breakdown({ ...input, dimension: "category" });
  const errorsRead = api.metrics.errors({ project: slug, range: apiRange(range), tool });
  const impactRead = api.tools.versionImpact({ project: slug, tool, range: apiRange(range) });
  const confusableRead = api.tools.confusablePairs({ project: slug, tool, range: apiRange(range) });
  const emptyExamplesRead = api.tools.emptyResults({ project: slug, tool, range: apiRange(range) });
  awaitedLater(spiralsRead, parallelRead, linesRead, categoryRowsRead, categoriesRead, errorsRead, impactRead, confusableRead, emptyExamplesRead);

  const [totals, definitions, doctor] = await Promise.all([
    api.metrics.totals(input),
    api.tools.list({ project: slug }),
    api.tools.patterns({ project: slug, tool, range: apiRange(range) }),
  ]);
  const versions = definitions.filter((d) => d.name === tool); // newest first
  if (!versions.length && totals.current.calls === 0 && totals.previous.calls === 0) {
    const ever = await api.metrics.totals({ ...input, range: { from: new Date(Date.parse(range.to) - MAX_RANGE_DAYS * DAY_MS).toISOString(), to: range.to } });
    if (ever.current.calls === 0 && ever.previous.calls === 0) notFound();
  }

  const path = `/p/${project.slug}/tools/${encodeURIComponent(tool)}`;
  const { current, previous } = totals;
  const change = rateChange(current, previous);
  const changeLabel = rateChangeLabel(change);
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  const markers = versions
    .map((v) => ({ at: new Date(v.firstSeenAt).getTime(), label: `schema ${v.version.slice(0, 7)}` }))
    .filter((m) => m.at >= from && m.at < to)
    .sort((a, b) => a.at - b.at);
  const [latest, ...earlier] = versions;
  // without a schema of its own: are its calls unknown tools (the project has other schemas) or unchecked (none)?
  const withoutSchema = latest ? null : await api.tools.unregistered({ project: slug });
  const missing = withoutSchema && schemaMissingText(withoutSchema.anySchema, withoutSchema.tools.find((t) => t.tool === tool)?.notChecked ?? 0);
  const keep = rangeParams(query);
  const errorsHref = withParams(`/p/${project.slug}/errors`, keep, { tool });
  const callHref = (id: string) => `/p/${project.slug}/calls/${encodeURIComponent(id)}`;
  const patternFailures = doctor.patterns.reduce((sum, p) => sum + p.failures, 0);
  // a click opens this tool's calls of that bucket (and model version, by model); a drag zooms
  const explore: Explore = { slug: project.slug, params: { tool } };

  return (
    <>
      <nav className="mb-2 text-xs">
        <Link href={withParams(`/p/${project.slug}/tools`, keep, {})} className="text-slate-500 hover:text-slate-800 hover:underline">
          ← Tools
        </Link>
      </nav>
      <PageHeader
        title={<span className="font-mono">{tool}</span>}
        description={latest?.description || (versions.length ? range.label : `No schema registered under this name · ${range.label}`)}
        actions={<RangePicker path={path} params={query} range={range} zone={zone} />}
      />

      <PageSections
        label="Sections of this tool page"
        sections={[
          {
            id: "overview",
            label: "Overview",
            content: (
              <>
                {allUnchecked(current) && <UncheckedNotice slug={project.slug} calls={current.calls} tool={tool} canRegister={hasRole(role, "admin")} />}
                <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
                  <StatTile
                    testId="tile-calls"
                    label="Calls"
                    value={formatCount(current.calls)}
                    detail={`${verdictSplit(current)} · ${formatCount(previous.calls)} in the ${previousLabel(range)}`}
                  />
                  <StatTile
                    testId="tile-invalid-rate"
                    label="Invalid rate"
                    value={rateText(current)}
                    delta={changeLabel ? { text: `${changeLabel.text} vs ${previousLabel(range)}`, tone: changeLabel.tone } : undefined}
                    detail={`${formatCount(current.invalid)} invalid calls${current.unchecked > 0 ? ` of ${formatCount(current.calls - current.unchecked)} checked` : ""}`}
                  />
                  <StatTile
                    testId="tile-attempts"
                    label="Attempts per successful call"
                    value={formatNumber(expectedAttemptsOrNull(change.current), { digits: 3 })}
                    unit="expected"
                    delta={{ text: `${formatNumber(observedAttempts(current), { digits: 3 })} observed`, tone: "neutral" }}
                  />
                  <AwaitRead read={categoriesRead}>
                    {(categories) => {
                      const invalidCost = categories.reduce((sum, c) => sum + c.costUsd, 0);
                      return (
                        <StatTile
                          testId="tile-extra"
                          label="Cost of invalid calls"
                          value={formatUsd(invalidCost)}
                          detail={current.costUsd > 0 ? `${formatPercent(invalidCost / current.costUsd)} of ${formatUsd(current.costUsd)}` : "no cost reported"}
                        />
                      );
                    }}
                  </AwaitRead>
                </div>

                <AwaitRead read={emptyExamplesRead}>
                  {(emptyExamples) => (
                    <ExecutionCard
                      totals={current}
                      latency={totals.latency}
                      outcomeHref={(outcome) => explorerUrl(project.slug, { ...keep, tool, outcome })}
                      empty={{ tool, slug: project.slug, zone, examples: emptyExamples }}
                    />
                  )}
                </AwaitRead>

                <AwaitRead read={spiralsRead}>
                  {(spirals) => <SpiralsCard spirals={spirals} by="tool" runHref={(id) => `/p/${project.slug}/runs/${encodeURIComponent(id)}`} zone={zone} />}
                </AwaitRead>

                <AwaitRead read={parallelRead}>{(figures) => <ParallelCallsCard figures={figures} zone={zone} />}</AwaitRead>

                <AwaitRead read={linesRead}>
                  {(lines) => {
                    const rates = rateSeries(lines.rows, range, lines.bucket, undefined, byModel ? undefined : () => tool);
                    const colors = assignColors(
                      volumes(lines.rows)
                        .sort((x, y) => y.volume - x.volume)
                        .map((v) => v.key),
                    );
                    const lineExplore: Explore = byModel
                      ? { ...explore, series: Object.fromEntries(rates.series.map((s) => [s.key, modelVersionParams(s.key)])) }
                      : explore;
                    return (
                      <Card
                        title="Invalid rate over time"
                        description={
                          markers.length
                            ? "Dashed lines: a schema version was first seen"
                            : versions.length
                              ? `No new schema version in this range (current since ${formatDateTimeZoned(latest!.firstSeenAt, zone)})`
                              : "A gap is a bucket without calls"
                        }
                        actions={
                          <SegmentedLinks
                            label="Lines"
                            testId="series-by"
                            items={[
                              { label: "All calls", href: withParams(path, query, { by: undefined }), active: !byModel },
                              { label: "By model version", href: withParams(path, query, { by: "model" }), active: byModel },
                            ]}
                          />
                        }
                      >
                        {rates.series.length ? (
                          <RateLineChart
                            labels={rates.labels}
                            series={rates.series}
                            bucket={lines.bucket}
                            markers={markers}
                            colors={byModel ? colors : undefined}
                            height={260}
                            zone={zone}
                            explore={lineExplore}
                            zoom
                          />
                        ) : (
                          <p className="py-10 text-center text-slate-500">No calls in this range.</p>
                        )}
                      </Card>
                    );
                  }}
                </AwaitRead>

                <AwaitRead read={Promise.all([categoryRowsRead, categoriesRead])}>
                  {([categoryRows, categories]) => {
                    const stacked = categorySeries(categoryRows.rows, range, categoryRows.bucket);
                    const breakdown = categoryBreakdown(categories);
                    return (
                      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
                        <Card title="Failure categories over time" description={`Invalid calls per ${categoryRows.bucket}`}>
                          {stacked.series.length ? (
                            <CategoryStackedChart
                              labels={stacked.labels}
                              series={stacked.series}
                              bucket={categoryRows.bucket}
                              height={240}
                              markers={markers}
                              zone={zone}
                              explore={explore}
                              zoom
                            />
                          ) : (
                            <p className="py-10 text-center text-slate-500">No invalid calls in this range.</p>
                          )}
                        </Card>
                        <Card title="Failure categories" description={`${formatCount(current.invalid)} invalid calls in the range`}>
                          {breakdown.length ? (
                            <CategoryBreakdownChart
                              rows={breakdown}
                              height={Math.max(140, breakdown.length * 30 + 40)}
                              explore={explore}
                              range={apiRange(range)}
                            />
                          ) : (
                            <p className="py-10 text-center text-slate-500">No invalid calls in this range.</p>
                          )}
                        </Card>
                      </div>
                    );
                  }}
                </AwaitRead>

                <Card
                  title="Worst error messages"
                  description={`The messages returned to the model for this tool's invalid calls, most frequent first. ${RECOVERED_MEANING}`}
                  actions={
                    <Link href={errorsHref} className="shrink-0 text-xs font-medium text-indigo-700 hover:underline">
                      All messages →
                    </Link>
                  }
                >
                  <AwaitRead read={errorsRead}>
                    {(errors) =>
                      errors.length ? (
                        <ol className="divide-y divide-slate-100" data-testid="worst-errors">
                          {errors.slice(0, 5).map((e) => (
                            <li key={e.template} className="flex items-start gap-4 py-2.5 first:pt-0 last:pb-0">
                              <div className="min-w-0 flex-1">
                                <p className="break-words font-mono text-xs text-slate-800">{e.template}</p>
                                {e.examples[0] && e.examples[0] !== e.template && (
                                  <p className="mt-0.5 truncate text-xs text-slate-500">e.g. {e.examples[0]}</p>
                                )}
                              </div>
                              <div className="w-20 shrink-0 text-right tabular-nums">
                                <p className="font-medium text-slate-900">{formatCount(e.count)}</p>
                                <p className="text-xs text-slate-500">calls</p>
                              </div>
                              <div className="w-24 shrink-0 text-right tabular-nums" title={recoveryTitle(e)}>
                                <p className={`font-medium ${e.recoveryRate !== null && e.recoveryRate < 0.6 ? "text-red-700" : "text-slate-900"}`}>
                                  {formatPercent(e.recoveryRate, { digits: 0 })}
                                </p>
                                <p className="text-xs text-slate-500">recovered</p>
                              </div>
                            </li>
                          ))}
                        </ol>
                      ) : (
                        <p className="text-slate-500">No invalid calls in this range.</p>
                      )
                    }
                  </AwaitRead>
                </Card>
              </>
            ),
          },
          {
            id: "patterns",
            label: "Failure patterns and suggestions",
            badge: doctor.suggestions.length || undefined,
            content: (
              <>
                <Card
                  title="Failure patterns"
                  description={`What went wrong where in the ${formatCount(patternFailures)} failed calls of the range${doctor.patterns.some((p) => p.category === "unknown_tool" && p.kind !== tool) ? ", misspellings of the name included" : ""}. ${RECOVERED_MEANING}${asOfNote(doctor.asOf, zone)}`}
                >
                  {doctor.patterns.length ? (
                    <PatternsTable patterns={doctor.patterns} callHref={callHref} />
                  ) : (
                    <p className="text-slate-500">No invalid calls in this range.</p>
                  )}
                </Card>

                <Card
                  title="Suggestions"
                  description="Changes to the schema and its descriptions, from the patterns above and a lint of the current version; deterministic rules, no language model"
                  actions={doctor.suggestions.length ? <Badge tone="indigo">{doctor.suggestions.length}</Badge> : undefined}
                >
                  {doctor.definition && (
                    <p className="mb-3 text-slate-600" data-testid="definition-summary">
                      Definition score {doctor.definition.score}/100 (docs/definition-lint.md); its text costs {formatCount(doctor.definition.tokens)} tokens in
                      every model call that carries it, of {formatCount(doctor.definition.setTokens)} for the project&apos;s{" "}
                      {formatCount(doctor.definition.tools)} registered tools ({doctor.definition.tokenizer}; other model families tokenize differently).
                    </p>
                  )}
                  {doctor.suggestions.length ? (
                    <SuggestionsList suggestions={doctor.suggestions} callHref={callHref} canDryRun={hasRole(role, "admin")} />
                  ) : (
                    <p className="text-slate-500">
                      {latest ? "Nothing to suggest: no frequent pattern and a clean schema." : "Register a schema for this tool to get suggestions."}
                    </p>
                  )}
                </Card>

                <AwaitRead read={confusableRead}>
                  {(confusable) => (
                    <Card
                      title="Confused with"
                      description={`Tools the models mix up with this one, from the range's runs and from descriptions that nearly repeat each other; what to change in the names or descriptions${
                        confusable.truncated ? ` · read the newest ${formatCount(confusable.readLimit)} calls of the range only` : ""
                      }${asOfNote(confusable.asOf, zone)}`}
                    >
                      {confusable.pairs.length ? (
                        <ConfusableList
                          tool={tool}
                          pairs={confusable.pairs}
                          toolHref={(name) => `/p/${project.slug}/tools/${encodeURIComponent(name)}`}
                          runHref={(id) => `/p/${project.slug}/runs/${encodeURIComponent(id)}`}
                        />
                      ) : (
                        <p className="text-slate-500">No other tool that models mix up with this one in this range.</p>
                      )}
                    </Card>
                  )}
                </AwaitRead>
              </>
            ),
          },
          {
            id: "dry-run",
            label: "Dry run",
            content: latest ? (
              <Card
                title="Dry run"
                description="Replay this tool's calls against a proposed schema before you ship it: which failures it fixes, which valid calls it would break"
              >
                {hasRole(role, "admin") ? (
                  <DryRunPanel
                    project={project.slug}
                    tool={tool}
                    versions={versions.map((v) => ({ version: v.version, firstSeenAt: v.firstSeenAt, parameters: v.parameters }))}
                    range={apiRange(range)}
                    callBase={`/p/${project.slug}/calls`}
                  />
                ) : (
                  <p className="text-slate-500">
                    Admins can replay calls here; CI can call <code className="font-mono text-xs">tools.dryRun</code> with a read-scope API key.
                  </p>
                )}
              </Card>
            ) : (
              <Card title="Dry run">
                <p className="text-slate-500">
                  A dry run replays calls against a proposed change of the registered schema: register a schema for this tool first.
                </p>
              </Card>
            ),
          },
          {
            id: "versions",
            label: "Versions",
            badge: versions.length || undefined,
            content: (
              <>
                <Card title="Schema versions" description={versions.length ? "Newest first; the JSON of each is under Schema" : undefined}>
                  <VersionList versions={versions} zone={zone} />
                </Card>
                <Card
                  title="Did the schema change help?"
                  description="The invalid rate in equal windows before and after a schema version was first seen, per category: the newest change inside the selected range"
                >
                  <AwaitRead read={impactRead}>
                    {(impact) =>
                      impact ? (
                        <VersionVerdict impact={impact} zone={zone} />
                      ) : (
                        <p className="text-slate-500">
                          {versions.length < 2
                            ? "Needs two schema versions to compare."
                            : "The newest schema version is less than an hour old: nothing to compare yet."}
                        </p>
                      )
                    }
                  </AwaitRead>
                </Card>
              </>
            ),
          },
          {
            id: "schema",
            label: "Schema",
            content: (
              <>
                <Card
                  title="Schema"
                  description={
                    latest
                      ? `Version ${latest.version}, first seen ${formatDateTimeZoned(latest.firstSeenAt, zone)} ${sourceSuffix(latest.source)}${earlier.length ? ` · ${earlier.length} earlier version${earlier.length > 1 ? "s" : ""}` : ""}`
                      : missing!.text
                  }
                  actions={latest ? <Badge tone="green">current</Badge> : <Badge tone="amber">{missing!.badge}</Badge>}
                >
                  {latest ? (
                    <div className="space-y-3">
                      <pre
                        data-testid="schema-json"
                        tabIndex={0}
                        className="max-h-[28rem] overflow-auto rounded-md bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 p-3 font-mono text-xs leading-relaxed text-slate-800 ring-1 ring-inset ring-slate-200"
                      >
                        {prettySchema(latest.parameters)}
                      </pre>
                      {earlier.map((v) => (
                        <details key={v.version} className="rounded-md ring-1 ring-inset ring-slate-200">
                          <summary className="cursor-pointer px-3 py-2 text-slate-700 hover:bg-slate-50">
                            Version <span className="font-mono text-xs">{v.version}</span> · first seen {formatDateTimeZoned(v.firstSeenAt, zone)}{" "}
                            {sourceSuffix(v.source)}
                          </summary>
                          <pre className="max-h-96 overflow-auto border-t border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800">
                            {prettySchema(v.parameters)}
                          </pre>
                        </details>
                      ))}
                    </div>
                  ) : (
                    <p className="text-slate-600">
                      Register it with <code className="font-mono text-xs">tools.register</code> if it is a real tool; otherwise this is a name the model made
                      up or misspelled.
                    </p>
                  )}
                </Card>
                {hasRole(role, "admin") && (
                  <Card
                    title="Register a schema"
                    description="Paste or upload this tool's definition; a changed schema becomes a new version, as with tools.register"
                  >
                    <RegisterToolsForm project={project.slug} tool={tool} range={range} back={withParams(path, keep, {})} notice={query} />
                  </Card>
                )}
              </>
            ),
          },
        ]}
      />
    </>
  );
}

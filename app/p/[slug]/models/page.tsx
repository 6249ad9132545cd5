import type { Metadata } from "next";
import Link from "next/link";
import { RateLineChart } from "@/components/charts";
import { assignColors } from "@/components/charts/prepare";
import type { VersionComparison } from "@/isomorphic/version-comparison";
import { modelVersionParams, rateSeries, timeMarkers } from "@/components/dashboard/chart-data";
import { DashboardActions } from "@/components/dashboard/dashboard-actions";
import { allUnchecked, intervalAxisMax, parseVersionRef, rateOf, rateText, versionLabel, versionRef } from "@/components/dashboard/derive";
import { UncheckedNotice } from "@/components/dashboard/unchecked-notice";
import { hasRole } from "@/contracts/roles";
import { formatCount, formatPValue, formatPercent, formatPp } from "@/contracts/format-number";
import { IntervalAxis, IntervalBar } from "@/components/dashboard/interval-bar";
import { apiRange, dashboardRange, rangeParams, readParams, type SearchParams } from "@/components/dashboard/params";
import { RowLinks } from "@/components/tables/row-links";
import { SortHeader } from "@/components/tables/sort-header";
import { readSort, sortRows, type SortColumns } from "@/components/tables/sort";
import { explorerUrl } from "@/components/calls/explorer-params";
import { withParams } from "@/contracts/range";
import { Badge, Button, Card, PageHeader, Select, Table, td, th, Truncated, shortLabel, num } from "@/components/ui";
import { CATEGORY_LABELS, type Category } from "@/contracts/categories";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";
import { checkedCalls, wilsonInterval } from "@/isomorphic/stats";
import type { Bucket } from "@/isomorphic/buckets";
import { latencySummary, type LatencySummary } from "@/isomorphic/latency-histogram";
import { p95Text } from "@/components/tools/execution-view";
import { failures, RESULT_COUNT_KEYS, toolErrorRate, type ResultCounts } from "@/isomorphic/outcome";
import { SpiralsCard } from "@/components/tools/spirals-card";
import { ParallelCallsByModel } from "@/components/parallel/parallel-calls-card";
import { AwaitRead, awaitedLater } from "@/components/await-read";

export const metadata: Metadata = { title: "Models" };

const MODEL_COLUMNS: SortColumns<"model" | "calls" | "invalid" | "rate"> = { model: "asc", calls: "desc", invalid: "desc", rate: "desc" };
type Version = { model: string; version: string; calls: number; invalid: number; unchecked: number } & ResultCounts & { latency: LatencySummary };

/** Models by volume; each model's versions in version order (oldest first). */
function versionsByModel(versions: readonly (Omit<Version, "model"> & { key: string })[]): Map<string, Version[]> {
  const models = new Map<string, Version[]>();
  for (const r of versions) {
    const list = models.get(r.key) ?? [];
    list.push({ ...r, model: r.key });
    models.set(r.key, list);
  }
  for (const list of models.values()) list.sort((x, y) => (x.version < y.version ? -1 : x.version > y.version ? 1 : 0));
  return models;
}

/** Every version, most calls first. */
const byVolume = (models: Map<string, Version[]>) => [...models.values()].flat().sort((x, y) => y.calls - x.calls);

/** Colours per version label, by volume (the table's interval bars and the chart's lines share them). */
const versionColors = (models: Map<string, Version[]>) => assignColors(byVolume(models).map(versionLabel));

/** The two versions compared: from the URL, else the two newest versions of a model with several, else the two with most calls. */
function comparedPair(models: Map<string, Version[]>, query: { a?: string; b?: string }) {
  const multi = [...models.values()].find((list) => list.length >= 2);
  const [first, second] = byVolume(models);
  const fallbackA = multi ? multi[multi.length - 2] : first;
  const fallbackB = multi ? multi[multi.length - 1] : second;
  const a = parseVersionRef(query.a) ?? (fallbackA && fallbackB ? fallbackA : null);
  const b = parseVersionRef(query.b) ?? (fallbackA && fallbackB ? fallbackB : null);
  return { a, b };
}

/**
 * Each card is its own async component awaiting its own reads, so that React renders a card as
 * soon as its data is there (the version table while the comparison, which needs the versions,
 * is still being read) instead of the whole page after the slowest read. There is no Suspense
 * boundary: the first byte still waits for every card (docs/PERFORMANCE.md, "Page server time").
 */
export default async function ModelsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  const query = await readParams(searchParams);
  const { zone } = await pageTimeZone();
  const range = dashboardRange(query, zone);
  const api = await pageCaller();
  const input = { project: slug, range: apiRange(range) };
  const spiralsRead = api.metrics.spirals(input);
  const tableRead = api.metrics.models(input);
  const modelsRead = tableRead.then((table) => versionsByModel(table.versions));
  // parallel calls per version (its own bounded read, started as soon as the versions are known)
  const parallelRead = modelsRead.then((models) =>
    api.parallel.models({
      ...input,
      versions: [...models.values()]
        .flat()
        .slice(0, 20)
        .map((v) => ({ model: v.model, version: v.version })),
    }),
  );
  // the comparison too: it needs the versions only, not the series or the incidents read beside them
  const pairRead = modelsRead.then((models) => comparedPair(models, query));
  const comparisonRead = pairRead.then(({ a, b }) =>
    a && b ? api.metrics.compare({ ...input, a: { model: a.model, version: a.version }, b: { model: b.model, version: b.version } }) : null,
  );
  const linesRead = api.metrics.series({ ...input, dimension: "modelVersion" });
  const incidentsRead = api.alerts.incidents({ project: slug });
  awaitedLater(spiralsRead, tableRead, parallelRead, comparisonRead, linesRead, incidentsRead);
  const path = `/p/${project.slug}/models`;
  const runHref = (id: string) => `/p/${project.slug}/runs/${encodeURIComponent(id)}`;

  return (
    <>
      <PageHeader
        title="Models"
        description={`Invalid rate, tool error rate and latency per model and model version · ${range.label}`}
        actions={<DashboardActions path={path} params={query} range={range} zone={zone} renderedAt={Date.now()} />}
      />
      <div className="space-y-6">
        <VersionsCard tableRead={tableRead} modelsRead={modelsRead} slug={project.slug} canRegister={hasRole(role, "admin")} query={query} path={path} />
        <RatesCard linesRead={linesRead} incidentsRead={incidentsRead} modelsRead={modelsRead} range={range} zone={zone} slug={project.slug} />
        <AwaitRead read={spiralsRead}>{(spirals) => <SpiralsCard spirals={spirals} by="model" runHref={runHref} zone={zone} />}</AwaitRead>
        <AwaitRead read={parallelRead}>{(versions) => <ParallelCallsByModel versions={versions} zone={zone} />}</AwaitRead>
        <CompareCard modelsRead={modelsRead} pairRead={pairRead} comparisonRead={comparisonRead} query={query} path={path} />
      </div>
    </>
  );
}

type ModelsRead = Promise<Map<string, Version[]>>;

/** The unchecked notices and the table of model versions. */
async function VersionsCard({
  tableRead,
  modelsRead,
  slug,
  canRegister,
  query,
  path,
}: {
  tableRead: Promise<{ models: { model: string; latency: LatencySummary }[] }>;
  modelsRead: ModelsRead;
  slug: string;
  canRegister: boolean;
  query: Awaited<ReturnType<typeof readParams>>;
  path: string;
}) {
  const [table, models] = await Promise.all([tableRead, modelsRead]);
  const modelLatency = new Map(table.models.map((m) => [m.model, m.latency]));
  const all: Version[] = [...models.values()].flat();
  // by volume, versions in version order; sorted by a header: the models by their totals, each model's versions by the same figure
  const sort = readSort(query, MODEL_COLUMNS, "calls");
  const sortVersions = query.sort !== undefined && sort.key !== "model";
  const figures = {
    model: (v: Pick<Version, "model">) => v.model,
    calls: (v: Pick<Version, "calls">) => v.calls,
    invalid: (v: Pick<Version, "invalid">) => v.invalid,
    rate: (v: Pick<Version, "calls" | "invalid" | "unchecked">) => rateOf(v),
  };
  const groups = [...models.entries()].map(([model, list]) => ({
    model,
    list: sortVersions ? sortRows(list, sort, figures) : list,
    total: {
      ...list.reduce(
        (s, v) => ({
          model,
          calls: s.calls + v.calls,
          invalid: s.invalid + v.invalid,
          unchecked: s.unchecked + v.unchecked,
          ...(Object.fromEntries(RESULT_COUNT_KEYS.map((k) => [k, s[k] + v[k]])) as ResultCounts),
        }),
        { model, calls: 0, invalid: 0, unchecked: 0, ...(Object.fromEntries(RESULT_COUNT_KEYS.map((k) => [k, 0])) as ResultCounts) },
      ),
      latency: modelLatency.get(model) ?? list[0]?.latency ?? latencySummary([]),
    },
  }));
  const sortedGroups = sortRows(groups, sort, {
    model: (g) => g.model,
    calls: (g) => g.total.calls,
    invalid: (g) => g.total.invalid,
    rate: (g) => figures.rate(g.total),
  });
  const sortHref = (next: { sort: string; dir: string }) => withParams(path, query, next);
  const sorting = { sort, columns: MODEL_COLUMNS, href: sortHref };
  const keep = rangeParams(query);
  const callsHref = (v: { model: string; version?: string }, invalidOnly = false, outcome?: string) =>
    explorerUrl(slug, { ...keep, model: v.model, modelVersion: v.version || undefined, valid: invalidOnly ? "invalid" : undefined, outcome });
  const intervals = new Map(all.map((v) => [versionRef(v), wilsonInterval(v.invalid, checkedCalls(v))]));
  const axisMax = intervalAxisMax(Math.max(0, ...[...intervals.values()].map((i) => i.high)));
  const colors = versionColors(models);

  // versions none of whose calls could be checked: no rate, no interval; the dashboards' notice says why and how to fix it
  const grand = all.reduce((s, v) => ({ calls: s.calls + v.calls, invalid: s.invalid + v.invalid, unchecked: s.unchecked + v.unchecked }), {
    calls: 0,
    invalid: 0,
    unchecked: 0,
  });
  const uncheckedNotices = allUnchecked(grand)
    ? [{ calls: grand.calls, of: undefined }]
    : all.filter(allUnchecked).map((v) => ({ calls: v.calls, of: versionLabel(v) }));

  return (
    <>
      {uncheckedNotices.map((n) => (
        <UncheckedNotice key={n.of ?? ""} slug={slug} calls={n.calls} of={n.of} canRegister={canRegister} />
      ))}
      <Card
        title="Model versions"
        description="Bars show the 95% Wilson interval around each invalid rate (the tick). Where two bars overlap, the difference may be noise; use the comparison below to test it."
      >
        {all.length === 0 ? (
          <p className="py-6 text-center text-slate-500">No calls in this range.</p>
        ) : (
          <Table label="Model versions">
            <thead>
              <tr className="align-bottom">
                <SortHeader column="model" table={sorting} className={th}>
                  Model
                </SortHeader>
                <th className={th}>Version</th>
                <SortHeader column="calls" table={sorting} className={`${th} text-right`}>
                  Calls
                </SortHeader>
                <SortHeader column="invalid" table={sorting} className={`${th} text-right`}>
                  Invalid
                </SortHeader>
                <SortHeader column="rate" table={sorting} className={`${th} text-right`}>
                  Invalid rate
                </SortHeader>
                <th className={`${th} text-right`}>95% interval</th>
                <th className={`${th} text-right`} title="Tool errors, not found, timeouts and refusals over the calls that ran and reported a result">
                  Tool error rate
                </th>
                <th className={`${th} text-right`} title="95th percentile of the results' latencies (within 5 %)">
                  p95 latency
                </th>
                <th className={th}>
                  <span className="sr-only">Interval</span>
                  <IntervalAxis max={axisMax} />
                </th>
                <th className={th}>
                  <span className="sr-only">Related pages</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {sortedGroups.map(({ model, list, total }) => {
                const totalInterval = wilsonInterval(total.invalid, checkedCalls(total));
                return [
                  ...list.map((v, i) => {
                    const interval = intervals.get(versionRef(v))!;
                    return (
                      <tr key={versionRef(v)} data-testid="model-version-row" className={i > 0 ? "border-t-0" : undefined}>
                        <td className={`${td} font-medium text-slate-900`}>{i === 0 ? <Truncated text={model} max="max-w-[14rem]" /> : ""}</td>
                        <td className={`${td} font-mono text-xs`}>
                          {v.version ? <Truncated text={v.version} max="max-w-[12rem]" /> : <span className="font-sans text-slate-500">no version</span>}
                        </td>
                        <td data-label="Calls" className={`${td} ${num}`}>
                          {formatCount(v.calls)}
                        </td>
                        <td data-label="Invalid" className={`${td} ${num}`}>
                          {formatCount(v.invalid)}
                        </td>
                        <td data-label="Invalid rate" className={`${td} ${num} font-medium text-slate-900`}>
                          {rateText(v)}
                        </td>
                        <td data-label="95% interval" className={`${td} ${num} text-slate-500`}>
                          <IntervalText interval={interval} counts={v} />
                        </td>
                        <ExecutionCells figures={v} failedHref={callsHref(v, false, "failed")} />
                        <td className={td}>
                          {rateOf(v) !== null && (
                            <IntervalBar rate={rateOf(v)!} low={interval.low} high={interval.high} max={axisMax} color={colors[versionLabel(v)]} />
                          )}
                        </td>
                        <td className={td}>
                          <RowLinks calls={callsHref(v)} errors={callsHref(v, true)} errorsLabel="Invalid" name={versionLabel(v)} />
                        </td>
                      </tr>
                    );
                  }),
                  list.length > 1 && (
                    <tr key={`${model}-all`} className="bg-slate-50/60 text-slate-500">
                      <td className={td} />
                      <td className={`${td} text-xs italic`}>all versions</td>
                      <td data-label="Calls" className={`${td} ${num}`}>
                        {formatCount(total.calls)}
                      </td>
                      <td data-label="Invalid" className={`${td} ${num}`}>
                        {formatCount(total.invalid)}
                      </td>
                      <td data-label="Invalid rate" className={`${td} ${num}`}>
                        {rateText(total)}
                      </td>
                      <td data-label="95% interval" className={`${td} ${num}`}>
                        <IntervalText interval={totalInterval} counts={total} />
                      </td>
                      <ExecutionCells figures={total} failedHref={callsHref({ model }, false, "failed")} />
                      <td className={td}>
                        {rateOf(total) !== null && (
                          <IntervalBar rate={rateOf(total)!} low={totalInterval.low} high={totalInterval.high} max={axisMax} color="var(--color-slate-400)" />
                        )}
                      </td>
                      <td className={td}>
                        <RowLinks calls={callsHref({ model })} errors={callsHref({ model }, true)} errorsLabel="Invalid" name={`${model}, all versions`} />
                      </td>
                    </tr>
                  ),
                ];
              })}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}

/** The invalid rate per version over time, with the incidents fired in the range. */
async function RatesCard({
  linesRead,
  incidentsRead,
  modelsRead,
  range,
  zone,
  slug,
}: {
  linesRead: Promise<{ bucket: Bucket; rows: Parameters<typeof rateSeries>[0] }>;
  incidentsRead: Promise<Parameters<typeof timeMarkers>[1]["incidents"]>;
  modelsRead: ModelsRead;
  range: ReturnType<typeof dashboardRange>;
  zone: string;
  slug: string;
}) {
  const [lines, incidents, models] = await Promise.all([linesRead, incidentsRead, modelsRead]);
  const rates = rateSeries(lines.rows, range, lines.bucket);
  return (
    <Card title="Invalid rate by model version over time" description="A gap is a bucket without calls of that version">
      {rates.series.length ? (
        <RateLineChart
          labels={rates.labels}
          series={rates.series}
          bucket={lines.bucket}
          colors={versionColors(models)}
          height={240}
          markers={timeMarkers(range, { incidents })}
          zone={zone}
          explore={{ slug, series: Object.fromEntries(rates.series.map((s) => [s.key, modelVersionParams(s.key)])) }}
          zoom
        />
      ) : (
        <p className="py-10 text-center text-slate-500">No calls in this range.</p>
      )}
    </Card>
  );
}

/** Two versions side by side: the form choosing them and, per tool and category, B against A. */
async function CompareCard({
  modelsRead,
  pairRead,
  comparisonRead,
  query,
  path,
}: {
  modelsRead: ModelsRead;
  pairRead: Promise<ReturnType<typeof comparedPair>>;
  comparisonRead: Promise<{ byTool: VersionComparison[]; byCategory: VersionComparison[] } | null>;
  query: Awaited<ReturnType<typeof readParams>>;
  path: string;
}) {
  const [models, { a, b }, comparison] = await Promise.all([modelsRead, pairRead, comparisonRead]);
  const options = [...[...models.values()].flat().map((v) => ({ ref: versionRef(v), label: `${versionLabel(v)} (${formatCount(v.calls)} calls)` }))];
  for (const extra of [a, b])
    if (extra && !options.some((o) => o.ref === versionRef(extra))) options.push({ ref: versionRef(extra), label: `${versionLabel(extra)} (no calls)` });
  return (
    <Card
      title="Compare two versions"
      description="Is B better or worse than A, per tool and per failure category? Better or worse only where the difference is statistically clear."
    >
      {options.length < 2 ? (
        <p className="text-slate-500">Comparisons need calls from at least two model versions in the range.</p>
      ) : (
        <div className="space-y-6">
          <form method="get" action={path} className="flex flex-wrap items-end gap-3" data-testid="compare-form">
            {(["range", "from", "to"] as const).map((k) => query[k] && <input key={k} type="hidden" name={k} value={query[k]} />)}
            <VersionSelect name="a" label="A (baseline)" value={a ? versionRef(a) : ""} options={options} />
            <VersionSelect name="b" label="B (candidate)" value={b ? versionRef(b) : ""} options={options} />
            <Button type="submit">Compare</Button>
          </form>
          {comparison && a && b && (
            <>
              <ComparisonTable title="By tool" keyLabel="Tool" rows={comparison.byTool} a={versionLabel(a)} b={versionLabel(b)} testId="compare-by-tool" />
              <ComparisonTable
                title="By failure category"
                keyLabel="Category"
                rows={comparison.byCategory}
                a={versionLabel(a)}
                b={versionLabel(b)}
                testId="compare-by-category"
                note="Rate = invalid calls of that category ÷ all calls of the version."
              />
              <p className="text-xs leading-relaxed text-slate-500">
                <strong className="font-medium text-slate-600">How the verdict is made.</strong> A two-sided two-proportion z-test of B’s invalid rate against
                A’s, at α = 0.05: <Badge tone="red">worse</Badge> or <Badge tone="green">better</Badge> only when p &lt; 0.05, both sides have at least 30 calls
                and every expected count is at least 5. Otherwise the difference may be noise (“no clear difference”) or there is too little data. With many
                rows, expect about one in twenty to cross 0.05 by chance.
              </p>
            </>
          )}
        </div>
      )}
    </Card>
  );
}

/** A model version's (or a model's) tool error rate, linked to its failed calls, and its p95 latency, as the tools table shows them. */
function ExecutionCells({ figures, failedHref }: { figures: ResultCounts & { calls: number; invalid: number; latency: LatencySummary }; failedHref: string }) {
  return (
    <>
      <td data-label="Tool error rate" className={`${td} ${num}`} data-testid="model-error-rate">
        {figures.results > 0 ? (
          <Link href={failedHref} className="hover:underline" title={`${formatCount(failures(figures))} of ${formatCount(figures.results)} results failed`}>
            {formatPercent(toolErrorRate(figures))}
          </Link>
        ) : (
          <span className="text-xs text-slate-500">no results</span>
        )}
      </td>
      <td data-label="p95 latency" className={`${td} ${num}`} data-testid="model-p95">
        {figures.latency.p95 === null ? <span className="text-xs text-slate-500">{p95Text(figures.latency)}</span> : p95Text(figures.latency)}
      </td>
    </>
  );
}

function VersionSelect({ name, label, value, options }: { name: string; label: string; value: string; options: { ref: string; label: string }[] }) {
  return (
    <div className="min-w-64 flex-1 space-y-1">
      <label htmlFor={`compare-${name}`} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      <Select id={`compare-${name}`} name={name} defaultValue={value} className="py-1.5">
        {options.map((o) => (
          <option key={o.ref} value={o.ref} title={o.label}>
            {shortLabel(o.label)}
          </option>
        ))}
      </Select>
    </div>
  );
}

function Verdict({ verdict }: { verdict: VersionComparison["verdict"] }) {
  if (verdict === "better") return <Badge tone="green">better</Badge>;
  if (verdict === "worse") return <Badge tone="red">worse</Badge>;
  if (verdict === "no clear difference") return <Badge tone="slate">no clear difference</Badge>;
  return <span className="text-xs text-slate-500">insufficient data</span>;
}

function Side({ side }: { side: { rate: number | null; n: number } }) {
  if (side.n === 0) return <span className="text-slate-500">no calls</span>;
  return (
    <>
      {formatPercent(side.rate)} <span className="text-xs text-slate-500">of {formatCount(side.n)}</span>
    </>
  );
}

function ComparisonRows({ rows, keyLabel }: { rows: VersionComparison[]; keyLabel: string }) {
  return rows.map((r) => (
    <tr key={r.key}>
      <td className={`${td} ${keyLabel === "Tool" ? "font-mono text-[13px]" : ""}`}>
        {keyLabel === "Category" ? (CATEGORY_LABELS[r.key as Category] ?? r.key) : r.key}
      </td>
      <td data-label="A" className={`${td} ${num}`}>
        <Side side={r.a} />
      </td>
      <td data-label="B" className={`${td} ${num}`}>
        <Side side={r.b} />
      </td>
      <td
        data-label="B − A"
        className={`${td} ${num} font-medium ${r.verdict === "worse" ? "text-red-700" : r.verdict === "better" ? "text-emerald-700" : ""}`}
      >
        {formatPp(r.diff)}
      </td>
      <td data-label="p" className={`${td} ${num}`}>
        {formatPValue(r.pValue)}
      </td>
      <td data-label="Verdict" className={td} data-testid="verdict">
        <Verdict verdict={r.verdict} />
      </td>
    </tr>
  ));
}

function ComparisonTable({
  title,
  keyLabel,
  rows,
  a,
  b,
  note,
  testId,
}: {
  title: string;
  keyLabel: string;
  rows: VersionComparison[];
  a: string;
  b: string;
  note?: string;
  testId: string;
}) {
  // keys with calls from only one of the two versions cannot be compared: listed apart
  const both = rows.filter((r) => r.a.n > 0 && r.b.n > 0);
  const oneSided = rows.filter((r) => r.a.n === 0 || r.b.n === 0);
  const head = (
    <thead>
      <tr>
        <th className={th}>{keyLabel}</th>
        <th className={`${th} text-right`}>
          A <span className="normal-case tracking-normal">{a}</span>
        </th>
        <th className={`${th} text-right`}>
          B <span className="normal-case tracking-normal">{b}</span>
        </th>
        <th className={`${th} text-right`}>B − A</th>
        <th className={`${th} text-right`}>p-value</th>
        <th className={th}>Verdict</th>
      </tr>
    </thead>
  );
  return (
    <section data-testid={testId}>
      <h3 className="mb-1 font-semibold text-slate-900">
        {title}
        {note && <span className="ml-2 text-xs font-normal text-slate-500">{note}</span>}
      </h3>
      {rows.length === 0 ? (
        <p className="text-slate-500">Nothing to compare.</p>
      ) : (
        <>
          <Table label={`${title}: ${a} against ${b}`}>
            {head}
            <tbody className="divide-y divide-slate-100">
              <ComparisonRows rows={both} keyLabel={keyLabel} />
            </tbody>
          </Table>
          {oneSided.length > 0 && (
            <details className="mt-2">
              <summary className="cursor-pointer text-xs text-slate-500 hover:text-slate-800">
                {oneSided.length} more {oneSided.length === 1 ? keyLabel.toLowerCase() : keyLabel === "Category" ? "categories" : "tools"} with calls from one
                version only
              </summary>
              <Table label={`${title}: one version only`}>
                {head}
                <tbody className="divide-y divide-slate-100">
                  <ComparisonRows rows={oneSided} keyLabel={keyLabel} />
                </tbody>
              </Table>
            </details>
          )}
        </>
      )}
    </section>
  );
}

/** The 95% interval as text; "–" without a checked call (an interval over nothing is 0–100 %, which says nothing). */
function IntervalText({ interval, counts }: { interval: { low: number; high: number }; counts: Pick<Version, "calls" | "invalid" | "unchecked"> }) {
  return rateOf(counts) === null ? <span title="no call was checked">–</span> : `${formatPercent(interval.low)} – ${formatPercent(interval.high)}`;
}

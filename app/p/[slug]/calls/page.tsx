import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { CATEGORIES, CATEGORY_LABELS } from "@/contracts/categories";
import { OUTCOME_FILTERS } from "@/contracts/event";
import { OUTCOME_LABELS } from "@/isomorphic/outcome";
import { FilterField, OptionSelect } from "@/components/filters/fields";
import { RangePicker } from "@/components/dashboard/range-picker";
import { dashboardRange } from "@/components/dashboard/params";
import { FilterForm } from "@/components/filters/filter-form";
import {
  activeFilters,
  csvQuery,
  explorerUrl,
  needsCleaning,
  queryString,
  readExplorerParams,
  type ExplorerQuery,
  type RawParams,
} from "@/components/calls/explorer-params";
import { callHref, formatTime, linkClass, modelLabel, runHref, VerdictBadge } from "@/components/calls/format";
import { Alert, buttonClass, Card, cx, Input, PageHeader, ScrollRegion, Select, th } from "@/components/ui";
import { SortHeader } from "@/components/tables/sort-header";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";
import { zoneName } from "@/isomorphic/time-zone";
import { DAY_MS, MAX_RANGE_DAYS } from "@/contracts/metrics";
import { endOfCurrentHour } from "@/contracts/range";

export const metadata: Metadata = { title: "Calls" };

const PAGE_SIZE = 50;
const TIME_COLUMN = { time: "desc" } as const;
const control = "py-1.5";
const cell = "px-3 py-2 first:pl-0 last:pr-0";

export default async function CallsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<RawParams> }) {
  const { slug } = await params;
  const { project } = await requireProject(slug);
  const raw = await searchParams;
  const view = readExplorerParams(raw);
  const base = explorerUrl(project.slug);
  if (needsCleaning(raw, view.params)) redirect(explorerUrl(project.slug, view.params));

  const caller = await pageCaller();
  const { zone } = await pageTimeZone();
  const optionRange = view.range.from && view.range.to ? { from: view.range.from, to: view.range.to } : last400Days();
  let result: Awaited<ReturnType<typeof caller.calls.list>> | null = null;
  let failure: string | null = null;
  try {
    result = await caller.calls.list({ project: project.slug, filter: view.filter, cursor: view.cursor, limit: PAGE_SIZE, order: view.order });
  } catch (error) {
    if (!(error instanceof TRPCError) || error.code === "INTERNAL_SERVER_ERROR") throw error;
    failure = error.message;
  }
  const [tools, models] = await Promise.all([
    caller.metrics.breakdown({ project: project.slug, range: optionRange, dimension: "tool" }),
    caller.metrics.breakdown({ project: project.slug, range: optionRange, dimension: "model" }),
  ]);

  const p = view.params;
  const versions = models.filter((m) => !p.model || m.key === p.model).map((m) => m.version);
  const { cursor: _cursor, ...firstPage } = p;
  const csvHref = `/api/projects/${project.slug}/calls.csv${csvQuery(view.filter)}`;
  const calls = result?.calls ?? [];
  // the time column sorts (on the server, paged by the same cursor); newest first is the default
  const oldest = view.order === "oldest";
  const timeSort = { key: "time" as const, dir: oldest ? ("asc" as const) : ("desc" as const) };
  const { order: _order, ...newestFirst } = firstPage;
  const timeSortHref = (next: { dir: "asc" | "desc" }) => explorerUrl(project.slug, next.dir === "asc" ? { ...newestFirst, order: "oldest" } : newestFirst);
  const timeSorting = { sort: timeSort, columns: TIME_COLUMN, href: timeSortHref };
  // the shared range control, with the explorer's "all" (its custom range starts from the last 400 days)
  const range =
    view.range.key === "all" ? { preset: "all" as const, label: "All time", ...optionRange } : dashboardRange({ range: p.range, from: p.from, to: p.to }, zone);

  return (
    <>
      <PageHeader
        title="Calls"
        description={`${range.label} · every tool request the models wrote, newest first (click the time header for the oldest first). Filters live in the URL: copy it to share this view.`}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <RangePicker path={base} params={firstPage} range={range} zone={zone} allTime />
            <a href={csvHref} className={buttonClass("secondary")} download data-testid="export-csv">
              Export CSV
            </a>
          </div>
        }
      />

      <Card className="mb-4">
        <FilterForm key={queryString(p)} action={base} label="Filter calls" className="space-y-3">
          {/* the range is chosen above (RangePicker); the filters keep it */}
          {(["range", "from", "to"] as const).map((key) => p[key] && <input key={key} type="hidden" name={key} value={p[key]} />)}
          <div className="grid grid-cols-2 gap-x-3 gap-y-2.5 lg:grid-cols-4">
            <FilterField label="Tool" htmlFor="f-tool">
              <OptionSelect id="f-tool" name="tool" values={tools.map((t) => t.key)} current={p.tool} all="All tools" className={control} />
            </FilterField>
            <FilterField label="Model" htmlFor="f-model">
              <OptionSelect id="f-model" name="model" values={models.map((m) => m.key)} current={p.model} all="All models" className={control} />
            </FilterField>
            <FilterField label="Model version" htmlFor="f-version">
              <OptionSelect id="f-version" name="modelVersion" values={versions} current={p.modelVersion} all="All versions" className={control} />
            </FilterField>
            <FilterField label="Verdict" htmlFor="f-valid">
              <Select id="f-valid" name="valid" defaultValue={p.valid ?? ""} className={control}>
                <option value="">All verdicts</option>
                <option value="invalid">Invalid only</option>
                <option value="valid">Valid only</option>
                <option value="unchecked">Unchecked only (no schema)</option>
              </Select>
            </FilterField>
            <FilterField label="Category" htmlFor="f-category">
              <Select id="f-category" name="category" defaultValue={p.category ?? ""} className={control}>
                <option value="">All categories</option>
                {CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {CATEGORY_LABELS[c]}
                  </option>
                ))}
              </Select>
            </FilterField>
            <FilterField label="Outcome" htmlFor="f-outcome">
              <Select id="f-outcome" name="outcome" defaultValue={p.outcome ?? ""} className={control}>
                <option value="">All outcomes</option>
                {OUTCOME_FILTERS.map((o) => (
                  <option key={o} value={o}>
                    {OUTCOME_LABELS[o]}
                  </option>
                ))}
              </Select>
            </FilterField>
            <FilterField label="Run id" htmlFor="f-run">
              <Input id="f-run" name="runId" defaultValue={p.runId ?? ""} placeholder="exact run id" className={cx(control, "font-mono text-[13px]")} />
            </FilterField>
            <FilterField label="Error message contains" htmlFor="f-q">
              <Input id="f-q" name="q" type="search" defaultValue={p.q ?? ""} placeholder="e.g. Error 422" className={control} />
            </FilterField>
          </div>
          {/* on a phone the buttons go under the checkbox's label instead of squeezing to a letter a line */}
          <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-3">
            <label className="flex items-center gap-2 text-slate-700">
              <input type="checkbox" name="disagree" value="1" defaultChecked={!!p.disagree} className="size-4 rounded border-slate-300 accent-indigo-600" />
              Only calls where the harness and Toolgate disagree
            </label>
            <div className="ml-auto flex shrink-0 items-center gap-2">
              <Link href={base} className={buttonClass("ghost", "sm")}>
                Reset
              </Link>
              <button type="submit" className={buttonClass("primary", "sm")}>
                Apply
              </button>
            </div>
          </div>
        </FilterForm>
      </Card>

      {view.problems.length > 0 && (
        <Alert tone="warning" className="mb-4">
          <ul className="list-inside list-disc space-y-0.5">
            {view.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </Alert>
      )}

      {failure ? (
        <Alert tone="error">
          {failure}{" "}
          <Link href={explorerUrl(project.slug, firstPage)} className="font-medium underline">
            Go to the first page
          </Link>
        </Alert>
      ) : calls.length === 0 ? (
        <EmptyResult slug={project.slug} params={p} rangeLabel={view.range.label} rangeKey={view.range.key} />
      ) : (
        <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
          <div className="flex items-center justify-between gap-4 border-b border-slate-100 px-4 py-2.5 text-slate-500">
            <span data-testid="result-summary">
              {view.cursor ? (oldest ? "Newer calls" : "Older calls") : oldest ? "Oldest calls" : "Newest calls"} · {view.range.label} · {calls.length}
              {result?.nextCursor ? " shown, more below" : calls.length === 1 ? " call" : " calls"}
            </span>
          </div>
          <ScrollRegion label="Calls" className="px-4">
            <table aria-label="Calls" className="stack-table w-full min-w-[52rem] table-fixed text-left text-[13px]">
              <colgroup>
                <col className="w-[9rem]" />
                <col className="w-[12.5rem]" />
                <col className="w-[10rem]" />
                <col className="w-[8rem]" />
                <col />
                <col className="w-[5.5rem]" />
              </colgroup>
              <thead className="border-b border-slate-200">
                <tr>
                  <SortHeader column="time" table={timeSorting} className={th}>
                    Time ({zoneName(zone)})
                  </SortHeader>
                  <th className={th}>Run · step</th>
                  <th className={th}>Tool · model</th>
                  <th className={th}>Verdict</th>
                  <th className={th}>Message to the model</th>
                  <th className={th}>
                    <span className="sr-only">Correction</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {calls.map((c) => (
                  <tr
                    key={c.id}
                    data-testid="call-row"
                    data-call-id={c.id}
                    data-run-id={c.runId}
                    data-valid={c.valid === null ? "unknown" : String(c.valid)}
                    className={cx("align-top hover:bg-slate-50", c.valid === false && "bg-red-50/30")}
                  >
                    <td className={cell}>
                      <Link
                        href={callHref(project.slug, c.id, p)}
                        className="rounded-sm font-medium tabular-nums text-slate-800 hover:text-indigo-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                        title={`Open call ${c.id}`}
                      >
                        {formatTime(c.timestamp, zone)}
                      </Link>
                    </td>
                    <td className={cell} data-label="Run">
                      <span className="inline-flex min-w-0 max-w-full items-baseline gap-1.5 sm:flex">
                        <Link
                          href={runHref(project.slug, c.runId)}
                          className="truncate font-mono text-xs text-slate-600 hover:text-indigo-700 hover:underline"
                          title={`Run ${c.runId}`}
                        >
                          {c.runId}
                        </Link>
                        {c.step !== null && <span className="shrink-0 text-xs tabular-nums text-slate-500">#{c.step}</span>}
                      </span>
                    </td>
                    <td className={cell}>
                      <span className="block truncate font-mono text-slate-900" title={c.tool}>
                        {c.tool}
                      </span>
                      <span className="block truncate text-xs text-slate-500" title={modelLabel(c)}>
                        {modelLabel(c)}
                      </span>
                    </td>
                    <td className={cell} data-testid="verdict">
                      <VerdictBadge valid={c.valid} category={c.category} />
                      {c.verdictsDiffer && (
                        <span className="mt-0.5 block text-xs font-medium text-amber-700" title="The harness's verdict and Toolgate's differ">
                          verdicts differ
                        </span>
                      )}
                    </td>
                    <td className={cx(cell, "stack-full")} data-testid="message" title={c.message ?? undefined}>
                      {c.message ? (
                        <span className="line-clamp-2 break-words font-mono text-xs text-slate-700">{c.message}</span>
                      ) : (
                        <span className="text-slate-500">—</span>
                      )}
                    </td>
                    <td className={cx(cell, "text-right")}>
                      {c.correctionId && (
                        <Link
                          href={callHref(project.slug, c.correctionId, p)}
                          className="whitespace-nowrap text-xs font-medium text-indigo-700 hover:underline"
                          data-testid="corrected-link"
                        >
                          corrected →
                        </Link>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <div className="flex items-center justify-end gap-2 border-t border-slate-100 px-4 py-2.5">
            {view.cursor && (
              <Link href={explorerUrl(project.slug, firstPage)} className={buttonClass("ghost", "sm")}>
                {oldest ? "← Oldest" : "← Newest"}
              </Link>
            )}
            {result?.nextCursor ? (
              <Link href={explorerUrl(project.slug, { ...firstPage, cursor: result.nextCursor })} className={buttonClass("secondary", "sm")}>
                {oldest ? "Newer →" : "Older →"}
              </Link>
            ) : (
              <span className="text-xs text-slate-500">{oldest ? "No newer calls in this range." : "No older calls in this range."}</span>
            )}
          </div>
        </section>
      )}
    </>
  );
}

function EmptyResult({ slug, params, rangeLabel, rangeKey }: { slug: string; params: ExplorerQuery; rangeLabel: string; rangeKey: string }) {
  const active = activeFilters(params);
  const { cursor: _c, ...rest } = params;
  return (
    <Card title="No calls match" description={`Nothing in ${rangeLabel.toLowerCase()} with these filters.`}>
      <div className="space-y-3 text-slate-700" data-testid="empty-result">
        {rangeKey !== "all" && (
          <p>
            Widen the time range:{" "}
            <Link href={explorerUrl(slug, { ...rest, range: "all", from: undefined, to: undefined })} className={linkClass}>
              search all time
            </Link>
            .
          </p>
        )}
        {active.length > 0 ? (
          <div>
            <p>Or remove a filter:</p>
            <ul className="mt-2 flex flex-wrap gap-2">
              {active.map((f) => (
                <li key={f.key}>
                  <Link
                    href={explorerUrl(slug, f.without)}
                    className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700 ring-1 ring-inset ring-slate-200 hover:bg-slate-200"
                    aria-label={`Remove filter ${f.label}`}
                  >
                    {f.label} <span aria-hidden>×</span>
                  </Link>
                </li>
              ))}
            </ul>
            {params.runId && <p className="mt-3 text-slate-500">Run ids must match exactly, including case.</p>}
          </div>
        ) : (
          rangeKey === "all" && <p>This project has no calls yet. Send events from your harness, or load the demo data from the Overview page.</p>
        )}
      </div>
    </Card>
  );
}

function last400Days() {
  const to = endOfCurrentHour();
  return { from: new Date(to.getTime() - (MAX_RANGE_DAYS - 1) * DAY_MS).toISOString(), to: to.toISOString() };
}

import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { distinctivePart, flagsFor, NO_MESSAGE, overallRecovery } from "@/components/calls/error-messages";
import { explorerUrl, queryString, type RawParams } from "@/components/calls/explorer-params";
import { NoScriptApply, OptionSelect } from "@/components/filters/fields";
import { DashboardActions } from "@/components/dashboard/dashboard-actions";
import { dashboardRange } from "@/components/dashboard/params";
import { SortHeader } from "@/components/tables/sort-header";
import { readSort, sortRows, type SortColumns } from "@/components/tables/sort";
import { FilterForm } from "@/components/filters/filter-form";
import { linkClass } from "@/components/calls/format";
import { formatCount, formatPercent } from "@/contracts/format-number";
import { Alert, Badge, cx, PageHeader, ScrollRegion, th } from "@/components/ui";
import { RECOVERED_MEANING, recoveryTitle } from "@/isomorphic/recovery";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Error messages" };

/** Templates shown before "Show all". */
const TOP = 25;
const ERROR_COLUMNS: SortColumns<"template" | "sent" | "followed" | "recovered"> = { template: "asc", sent: "desc", followed: "desc", recovered: "asc" };
const cell = "whitespace-nowrap px-3 py-2.5 align-top text-slate-700";

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

export default async function ErrorsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<RawParams> }) {
  const { slug } = await params;
  const { project } = await requireProject(slug);
  const raw = await searchParams;
  const base = `/p/${project.slug}/errors`;

  // range=<preset> or from/to (a preset wins), tool=<name>; empty fields of a plain GET form are dropped
  const preset = first(raw.range);
  const { zone } = await pageTimeZone();
  const range = dashboardRange({ range: preset, from: first(raw.from), to: first(raw.to) }, zone);
  const tool = first(raw.tool);
  const sort = readSort({ sort: first(raw.sort), dir: first(raw.dir) }, ERROR_COLUMNS, "sent");
  const clean: Record<string, string> = {
    ...(range.preset === "custom" ? { from: range.from, to: range.to } : preset ? { range: range.preset } : {}),
    ...(tool ? { tool } : {}),
    ...(first(raw.sort) ? { sort: sort.key, dir: sort.dir } : {}),
    ...(first(raw.all) === "1" ? { all: "1" } : {}),
  };
  const given = Object.entries(raw).filter(([k]) => ["range", "from", "to", "tool", "sort", "dir", "all"].includes(k));
  if (given.length !== Object.keys(clean).length || given.some(([k, v]) => clean[k] !== v)) redirect(`${base}${queryString(clean)}`);

  const caller = await pageCaller();
  const [rows, tools] = await Promise.all([
    caller.metrics.errors({ project: project.slug, range: { from: range.from, to: range.to }, ...(tool ? { tool } : {}) }),
    caller.metrics.breakdown({ project: project.slug, range: { from: range.from, to: range.to }, dimension: "tool" }),
  ]);
  const sorted = sortRows(
    [...rows].sort((a, b) => b.count - a.count),
    sort,
    { template: (r) => r.template, sent: (r) => r.count, followed: (r) => r.followed, recovered: (r) => r.recoveryRate },
  );
  const bySent = sort.key === "sent" && sort.dir === "desc";
  const sortHref = (next: { sort: string; dir: string }) => `${base}${queryString({ ...clean, ...next })}`;
  const sorting = { sort, columns: ERROR_COLUMNS, href: sortHref };
  const overall = overallRecovery(sorted);
  const flagged = sorted.map((r) => flagsFor(r, overall));
  const showAll = first(raw.all) === "1";
  const shown = showAll ? sorted : sorted.slice(0, TOP);
  const anyFlagged = flagged.some((f) => f.lowRecovery || f.opaque);
  const totalSent = sorted.reduce((s, r) => s + r.count, 0);
  const explorerRange = range.preset === "custom" ? { from: range.from, to: range.to } : { range: range.preset };

  return (
    <>
      <PageHeader
        title="Error messages"
        description="What the harness told the model after an invalid call, grouped by wording, and how often the model's next attempt was valid."
        actions={
          <div className="flex flex-wrap items-center justify-end gap-x-4 gap-y-2">
            <DashboardActions path={base} params={clean} range={range} zone={zone} renderedAt={Date.now()} />
            <FilterForm key={queryString(clean)} action={base} label="Choose a tool" className="flex flex-wrap items-end gap-2">
              {Object.entries(clean)
                .filter(([key]) => key !== "tool")
                .map(([key, value]) => (
                  <input key={key} type="hidden" name={key} value={value} />
                ))}
              <label className="sr-only" htmlFor="e-tool">
                Tool
              </label>
              <OptionSelect id="e-tool" name="tool" values={tools.map((t) => t.key)} current={tool} all="All tools" className="w-44 py-1.5" />
              <NoScriptApply />
            </FilterForm>
          </div>
        }
      />

      {anyFlagged && (
        <Alert tone="warning" className="mb-4">
          <p className="font-medium">Some messages teach the model too little.</p>
          <p className="mt-1">
            A message is the model&apos;s only instruction for its next attempt. Good ones say what was wrong, what was sent and how to fix it, e.g.{" "}
            <code className="font-mono text-[13px]">Error: &apos;loannumber&apos; must be 4 to 8 characters, you sent 3.</code> A bare{" "}
            <code className="font-mono text-[13px]">Error 422</code> says none of that, and models recover from it less often. Rewrite the marked messages in
            your harness.
          </p>
        </Alert>
      )}

      <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <header className="flex items-baseline justify-between gap-4 border-b border-slate-100 px-4 py-2.5">
          <h2 className="font-semibold text-slate-900">
            {range.label}
            {tool && <span className="font-normal text-slate-500"> · {tool}</span>}
          </h2>
          <p className="text-slate-500">
            {sorted.length} {sorted.length === 1 ? "message" : "messages"} · {formatCount(totalSent)} sent · recovered overall{" "}
            <span className="tabular-nums">{formatPercent(overall, { digits: 0 })}</span>
          </p>
        </header>
        {sorted.length === 0 ? (
          <div className="px-4 py-6 text-slate-600" data-testid="errors-empty">
            No invalid calls{" "}
            {tool ? (
              <>
                of <span className="font-mono">{tool}</span>{" "}
              </>
            ) : null}
            in {range.label.toLowerCase()}.{" "}
            {range.preset !== "90d" && (
              <Link href={`${base}${queryString({ range: "90d", ...(tool ? { tool } : {}) })}`} className={linkClass}>
                Look at the last 90 days
              </Link>
            )}
            {tool && (
              <>
                {" "}
                or{" "}
                <Link
                  href={`${base}${queryString(range.preset === "custom" ? { from: range.from, to: range.to } : { range: range.preset })}`}
                  className={linkClass}
                >
                  all tools
                </Link>
              </>
            )}
            .
          </div>
        ) : (
          <ScrollRegion label="Error messages by template" className="px-4">
            <table aria-label="Error messages by template" className="stack-table w-full min-w-[36rem] table-fixed text-left">
              <colgroup>
                <col />
                <col className="w-[4.5rem]" />
                <col className="w-[5.5rem]" />
                <col className="w-[10.5rem]" />
                <col className="w-[4.5rem]" />
              </colgroup>
              <thead className="border-b border-slate-200">
                <tr>
                  <SortHeader column="template" table={sorting} className={th}>
                    Message template
                  </SortHeader>
                  <SortHeader column="sent" table={sorting} className={cx(th, "text-right")}>
                    Sent
                  </SortHeader>
                  <SortHeader column="followed" table={sorting} className={cx(th, "text-right")}>
                    Followed
                  </SortHeader>
                  <SortHeader column="recovered" table={sorting} className={th} title={RECOVERED_MEANING}>
                    Recovered
                  </SortHeader>
                  <th className={th}>
                    <span className="sr-only">Calls</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {shown.map((row, i) => {
                  const flags = flagged[i]!;
                  const bad = flags.lowRecovery || flags.opaque;
                  const q = distinctivePart(row.template, row.examples[0] ?? "");
                  const examples = row.examples.filter((e) => e !== row.template).slice(0, 2);
                  return (
                    <tr key={row.template} data-testid="error-row" data-recovery={row.recoveryRate ?? ""} className={cx(bad && "bg-amber-50/70")}>
                      <td className="px-3 py-2.5 pl-0 align-top">
                        <p
                          className={cx("break-words font-mono text-[13px]", row.template === NO_MESSAGE ? "italic text-slate-500" : "text-slate-900")}
                          data-testid="template"
                        >
                          {row.template}
                        </p>
                        {examples.length > 0 && (
                          <ul className="mt-1 space-y-0.5">
                            {examples.map((e) => (
                              <li key={e} className="truncate font-mono text-xs text-slate-500" title={e}>
                                e.g. {e}
                              </li>
                            ))}
                          </ul>
                        )}
                        {bad && (
                          <p className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs text-amber-900">
                            {flags.lowRecovery && <Badge tone="amber">low recovery</Badge>}
                            {flags.opaque && <Badge tone="red">says nothing to fix</Badge>}
                            <span>
                              {flags.opaque
                                ? "Name the argument, what was sent and the rule."
                                : `Below the overall ${formatPercent(overall, { digits: 0 })}: say what was wrong and how to fix it.`}
                            </span>
                          </p>
                        )}
                      </td>
                      <td data-label="Sent" className={cx(cell, "text-right tabular-nums")}>
                        {formatCount(row.count)}
                      </td>
                      <td data-label="Followed" className={cx(cell, "text-right tabular-nums")} title="invalid calls the model tried again">
                        {formatCount(row.followed)}
                      </td>
                      <td className={cell}>
                        <RecoveryBar rate={row.recoveryRate} low={flags.lowRecovery} title={recoveryTitle(row)} />
                      </td>
                      <td className={cx(cell, "pr-0 text-right")}>
                        {q ? (
                          <Link
                            href={explorerUrl(project.slug, { ...explorerRange, tool, valid: "invalid", q })}
                            className="text-xs font-medium text-indigo-700 hover:underline"
                            aria-label={`Calls that got ${row.template}`}
                          >
                            Calls →
                          </Link>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            {sorted.length > TOP && (
              <p className="border-t border-slate-100 py-2.5 text-right text-slate-500">
                {showAll ? (
                  <Link href={`${base}${queryString({ ...clean, all: undefined })}`} className={linkClass}>
                    Show the first {TOP}
                  </Link>
                ) : (
                  <>
                    {bySent ? `The ${TOP} most frequent` : `The first ${TOP}`} of {sorted.length} messages.{" "}
                    <Link href={`${base}${queryString({ ...clean, all: "1" })}`} className={linkClass}>
                      Show all
                    </Link>
                  </>
                )}
              </p>
            )}
          </ScrollRegion>
        )}
      </section>
      <p className="mt-3 text-xs text-slate-500">
        Followed: invalid calls the model tried again in the same run. {RECOVERED_MEANING} The tool page counts the same way. Quoted values, numbers, dates and
        ids are replaced by placeholders, so one wording counts once.
      </p>
    </>
  );
}

function RecoveryBar({ rate, low, title }: { rate: number | null; low: boolean; title: string }) {
  if (rate === null)
    return (
      <span className="text-slate-500" title="no retries to measure">
        —
      </span>
    );
  return (
    <span className="flex items-center gap-2" title={title}>
      <span className="h-1.5 w-24 overflow-hidden rounded-full bg-slate-100" aria-hidden>
        <span className={cx("block h-full rounded-full", low ? "bg-amber-500" : "bg-emerald-500")} style={{ width: `${Math.round(rate * 100)}%` }} />
      </span>
      <span className={cx("w-10 text-right tabular-nums", low ? "font-medium text-amber-800" : "text-slate-700")} data-testid="recovery">
        {formatPercent(rate, { digits: 0 })}
      </span>
    </span>
  );
}

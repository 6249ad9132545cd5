import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { inflation, isUnknownTool, parseK, versionLabel, type Counts, type InflationRow } from "@/components/dashboard/derive";
import { formatCount, formatNumber, formatPercent, formatUsd } from "@/contracts/format-number";
import { apiRange, dashboardRange, rangeParams, readParams, type SearchParams } from "@/components/dashboard/params";
import { DashboardActions } from "@/components/dashboard/dashboard-actions";
import { WhatIfSimulator } from "@/components/dashboard/what-if-simulator";
import { Button, Card, cx, Input, PageHeader, ScrollRegion, td, num } from "@/components/ui";
import { withParams } from "@/contracts/range";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Attempt inflation" };

const head = "px-3 py-2 text-right align-bottom text-xs font-medium uppercase tracking-wide text-slate-500 first:pl-0 first:text-left last:pr-0";

export default async function InflationPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const { project } = await requireProject(slug);
  const query = await readParams(searchParams);
  const { zone } = await pageTimeZone();
  const range = dashboardRange(query, zone);
  const k = parseK(query.k);
  const api = await pageCaller();
  const input = { project: slug, range: apiRange(range) };
  const [totals, tools, models, definitions] = await Promise.all([
    api.metrics.totals(input),
    api.metrics.tools(input),
    api.metrics.breakdown({ ...input, dimension: "model" }),
    api.tools.list({ project: slug }),
  ]);
  const registered = new Set(definitions.map((d) => d.name));

  const overall = inflation(totals.current, k);
  const path = `/p/${project.slug}/inflation`;
  const toolRows: { key: string; href?: string; counts: Counts; muted?: boolean }[] = tools
    .filter((t) => !isUnknownTool(t, registered))
    .map((t) => ({ key: t.tool, href: withParams(`/p/${project.slug}/tools/${encodeURIComponent(t.tool)}`, rangeParams(query), {}), counts: t }));
  // names the model made up: every call invalid, so one line for all of them
  const unknown = tools.filter((t) => isUnknownTool(t, registered));
  if (unknown.length) {
    const sum = (f: (t: Counts) => number) => unknown.reduce((n, t) => n + f(t), 0);
    toolRows.push({
      key: `Unknown tool names (${unknown.length})`,
      href: withParams(`/p/${project.slug}/tools`, rangeParams(query), {}),
      counts: {
        calls: sum((t) => t.calls),
        invalid: sum((t) => t.invalid),
        unchecked: sum((t) => t.unchecked),
        corrected: sum((t) => t.corrected),
        costUsd: sum((t) => t.costUsd),
      },
      muted: true,
    });
  }
  const modelRows = models.map((m) => ({ key: versionLabel({ model: m.key, version: m.version }), counts: m }));
  const simulator = {
    ratePct: overall.p === null ? 6 : Math.min(50, Math.round(overall.p * 200) / 2),
    k: Math.min(30, k),
    costPerCall: overall.costPerCall && overall.costPerCall > 0 ? Number(overall.costPerCall.toPrecision(2)) : 0.01,
    growthPct: 5,
  };

  return (
    <>
      <PageHeader
        title="Attempt inflation"
        description={`What invalid calls add to every task · ${range.label}`}
        actions={<DashboardActions path={path} params={query} range={range} zone={zone} renderedAt={Date.now()} />}
      />
      <div className="space-y-6">
        <Card>
          <div className="flex flex-wrap items-end justify-between gap-6">
            <p className="max-w-2xl leading-relaxed text-slate-700" data-testid="inflation-summary">
              {overall.p === null ? (
                "No calls in this range."
              ) : (
                <>
                  At an invalid rate of <strong className="tabular-nums">{formatPercent(overall.p)}</strong>, a successful call takes{" "}
                  <strong className="tabular-nums">{formatNumber(overall.expected, { digits: 3 })}</strong> attempts on average, so a {k}-call task takes{" "}
                  <strong className="tabular-nums">{formatNumber(overall.taskAttempts)}</strong>: about{" "}
                  <strong className="tabular-nums">{formatCount(overall.extraPer1000 ?? 0)}</strong> extra model calls per 1,000 tasks, costing about{" "}
                  <strong className="tabular-nums">{formatUsd(overall.extraCostPer1000)}</strong> at this range’s {formatUsd(overall.costPerCall)} per call.
                </>
              )}
            </p>
            <form method="get" action={path} className="flex items-end gap-2" data-testid="k-form">
              {(["range", "from", "to"] as const).map((key) => query[key] && <input key={key} type="hidden" name={key} value={query[key]} />)}
              <div className="space-y-1">
                <label htmlFor="k" className="block text-xs font-medium text-slate-600">
                  Calls per task (k)
                </label>
                <Input id="k" name="k" type="number" min={1} max={100} step={1} defaultValue={k} className="w-24 py-1.5 text-right tabular-nums" />
              </div>
              <Button type="submit" variant="secondary">
                Apply
              </Button>
            </form>
          </div>
        </Card>

        <InflationTable title="By tool" nameLabel="Tool" k={k} all={totals.current} rows={toolRows} testId="inflation-by-tool" mono />
        <InflationTable title="By model version" nameLabel="Model version" k={k} all={totals.current} rows={modelRows} testId="inflation-by-model" />

        <p className="text-xs leading-relaxed text-slate-500">
          <strong className="font-medium text-slate-600">How to read this.</strong> p is the share of invalid calls. Expected attempts per successful call are
          1/(1−p); a task of k successful calls takes k/(1−p), so it makes 1,000·k·p/(1−p) extra calls per 1,000 tasks. Observed attempts per successful call =
          (valid calls + invalid calls the model followed with a retry) ÷ valid calls: it is lower than expected when runs give up after an invalid call, higher
          when retries fail again. Cost per call is the range’s reported cost ÷ calls. A rising invalid rate is an early warning: a schema became unclear or a
          model changed.
        </p>

        <Card title="What if" description="Move the invalid rate, the task length, the cost and the context growth to see what retries cost.">
          <WhatIfSimulator initial={simulator} />
        </Card>
      </div>
    </>
  );
}

function InflationTable({
  title,
  nameLabel,
  k,
  all,
  rows,
  testId,
  mono,
}: {
  title: string;
  nameLabel: string;
  k: number;
  all: Counts;
  rows: { key: string; href?: string; counts: Counts; muted?: boolean }[];
  testId: string;
  mono?: boolean;
}) {
  const line = (name: ReactNode, r: InflationRow, key: string, style: "total" | "row" | "muted" = "row") => (
    <tr
      key={key}
      data-testid={style === "total" ? undefined : "inflation-row"}
      className={style === "total" ? "bg-slate-50/70 font-medium text-slate-900" : style === "muted" ? "text-slate-500" : undefined}
    >
      <td className={td}>{name}</td>
      <td data-label="Calls" className={`${td} ${num}`}>
        {formatCount(r.calls)}
      </td>
      <td data-label="Invalid rate" className={cx(td, num, r.p !== null && r.p >= 0.1 && "text-red-700")}>
        {formatPercent(r.p)}
      </td>
      <td data-label="Expected attempts" className={`${td} ${num}`}>
        {r.p === 1 ? <span title="every call was invalid">∞</span> : formatNumber(r.expected, { digits: 3 })}
      </td>
      <td data-label="Observed attempts" className={`${td} ${num}`}>
        {formatNumber(r.observed, { digits: 3 })}
      </td>
      <td data-label="Task attempts" className={`${td} ${num}`}>
        {r.p === 1 ? "∞" : formatNumber(r.taskAttempts)}
      </td>
      <td data-label="Extra calls per 1,000 tasks" className={`${td} ${num}`}>
        {r.extraPer1000 === null ? "–" : formatCount(r.extraPer1000)}
      </td>
      <td data-label="Their cost per 1,000" className={`${td} ${num}`}>
        {formatUsd(r.extraCostPer1000)}
      </td>
    </tr>
  );
  return (
    <Card title={title}>
      {rows.length === 0 ? (
        <p className="py-4 text-center text-slate-500">No calls in this range.</p>
      ) : (
        <ScrollRegion label={`Attempt inflation ${title.toLowerCase()}`}>
          <table aria-label={`Attempt inflation ${title.toLowerCase()}`} data-testid={testId} className="stack-table min-w-full divide-y divide-slate-200">
            <thead>
              <tr>
                <th className={head}>{nameLabel}</th>
                <th className={head}>Calls</th>
                <th className={head}>
                  Invalid rate <span className="normal-case">p</span>
                </th>
                <th className={head}>
                  Expected attempts <span className="normal-case">1/(1−p)</span>
                </th>
                <th className={head}>Observed attempts per success</th>
                <th className={head}>
                  Attempts per {k}-call task <span className="normal-case">{k}/(1−p)</span>
                </th>
                <th className={head}>Extra calls per 1,000 tasks</th>
                <th className={head}>Their cost per 1,000 tasks</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {line("All calls", inflation(all, k), "__all", "total")}
              {rows.map((row) =>
                line(
                  row.href ? (
                    <Link href={row.href} className={cx("text-indigo-700 hover:underline", mono && !row.muted && "font-mono text-[13px]")}>
                      {row.key}
                    </Link>
                  ) : (
                    row.key
                  ),
                  inflation(row.counts, k),
                  row.key,
                  row.muted ? "muted" : "row",
                ),
              )}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { Sparkline } from "@/components/charts";
import { assignColors } from "@/components/charts/prepare";
import { rateSeries } from "@/components/dashboard/chart-data";
import { allUnchecked, closestTool, isUnknownTool, rateChange, rateChangeLabel, rateOf, rateText } from "@/components/dashboard/derive";
import { formatCount, formatPercent, formatUsd } from "@/contracts/format-number";
import { apiRange, dashboardRange, previousLabel, rangeParams, readParams, type SearchParams } from "@/components/dashboard/params";
import { RowLinks } from "@/components/tables/row-links";
import { SortHeader } from "@/components/tables/sort-header";
import { readSort, sortRows, type SortColumns } from "@/components/tables/sort";
import { DashboardActions } from "@/components/dashboard/dashboard-actions";
import { UncheckedNotice } from "@/components/dashboard/unchecked-notice";
import { ServerFilter } from "@/components/tools/server-filter";
import { serverNames, serversByTool, shownUnder } from "@/components/tools/servers";
import { RegisterToolsForm } from "@/components/tools/register-tools-form";
import { UnregisteredTools } from "@/components/tools/unregistered-tools";
import { p95Text } from "@/components/tools/execution-view";
import { emptyResultRate, failures, toolErrorRate } from "@/isomorphic/outcome";
import { Badge, Card, PageHeader, Table, td, th, Truncated, num } from "@/components/ui";
import { CATEGORY_LABELS, type Category } from "@/contracts/categories";
import { explorerUrl } from "@/components/calls/explorer-params";
import { previousPeriod, withParams } from "@/contracts/range";
import { hasRole } from "@/contracts/roles";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Tools" };

const TOOL_COLUMNS: SortColumns<"tool" | "calls" | "rate" | "change" | "errors" | "p95" | "empty" | "cost" | "failure" | "versions"> = {
  tool: "asc",
  calls: "desc",
  rate: "desc",
  change: "desc",
  errors: "desc",
  p95: "desc",
  empty: "desc",
  cost: "desc",
  failure: "asc",
  versions: "desc",
};
const CHANGE_TONE = { bad: "text-red-700", good: "text-emerald-700", neutral: "text-slate-500" } as const;

export default async function ToolsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const { project, role } = await requireProject(slug);
  const query = await readParams(searchParams);
  const { zone } = await pageTimeZone();
  const range = dashboardRange(query, zone);
  const api = await pageCaller();
  const input = { project: slug, range: apiRange(range) };
  const [table, before, lines, definitions, unregistered] = await Promise.all([
    api.metrics.tools(input),
    api.metrics.tools({ ...input, range: previousPeriod(input.range) }),
    api.metrics.series({ ...input, dimension: "tool" }),
    api.tools.list({ project: slug }),
    api.tools.unregistered({ project: slug }),
  ]);

  const versions = new Map<string, number>();
  for (const d of definitions) versions.set(d.name, (versions.get(d.name) ?? 0) + 1);
  const called = new Set(table.map((t) => t.tool));
  const idle = [...versions.keys()].filter((name) => !called.has(name)).sort();
  const trends = new Map(rateSeries(lines.rows, range, lines.bucket).series.map((s) => [s.key, s.values]));
  const colors = assignColors(table.map((t) => t.tool)); // by volume, like the overview's lines
  const path = `/p/${project.slug}/tools`;
  const keep = rangeParams(query);
  const href = (tool: string) => withParams(`${path}/${encodeURIComponent(tool)}`, keep, {});
  const callsHref = (tool: string) => explorerUrl(project.slug, { ...keep, tool });
  const errorsHref = (tool: string) => withParams(`/p/${project.slug}/errors`, keep, { tool });
  const failedHref = (tool: string) => explorerUrl(project.slug, { ...keep, tool, outcome: "failed" });
  const emptyHref = (tool: string) => explorerUrl(project.slug, { ...keep, tool, outcome: "empty" });
  const names = new Set(versions.keys());
  const isUnknown = (t: { tool: string; topCategory: string | null }) => isUnknownTool(t, names);

  const servers = serversByTool(definitions);
  const feeding = serverNames(servers);
  const server = query.server;
  const shown = shownUnder(servers, server);
  const idleShown = idle.filter(shown);
  const previous = new Map(before.map((t) => [t.tool, t]));
  const changeOf = (t: { tool: string; calls: number; invalid: number; unchecked: number }) =>
    rateChange(t, previous.get(t.tool) ?? { calls: 0, invalid: 0, unchecked: 0 });
  const sort = readSort(query, TOOL_COLUMNS, "calls");
  const sortHref = (next: { sort: string; dir: string }) => withParams(path, query, next);
  const sorting = { sort, columns: TOOL_COLUMNS, href: sortHref };
  const known = sortRows(
    table.filter((t) => !isUnknown(t) && shown(t.tool)),
    sort,
    {
      tool: (t) => t.tool,
      calls: (t) => t.calls,
      rate: (t) => rateOf(t),
      change: (t) => changeOf(t).diff,
      errors: (t) => toolErrorRate(t),
      p95: (t) => t.latency.p95,
      empty: (t) => emptyResultRate(t),
      cost: (t) => t.costUsd,
      failure: (t) => (t.topCategory ? (CATEGORY_LABELS[t.topCategory as Category] ?? t.topCategory) : null),
      versions: (t) => versions.get(t.tool) ?? null,
    },
  );
  const misspelt = table.filter(isUnknown);
  const registered = [...versions.keys()];
  /** The tool's MCP server under its name, when the gateway fed it. */
  const via = (tool: string) => {
    const name = servers.get(tool);
    return name ? <span className="block text-xs text-slate-500">MCP server {name}</span> : null;
  };
  const isAdmin = hasRole(role, "admin");
  const sum = (f: (t: (typeof table)[number]) => number) => table.reduce((n, t) => n + f(t), 0);
  const all = { calls: sum((t) => t.calls), invalid: sum((t) => t.invalid), unchecked: sum((t) => t.unchecked) };

  return (
    <>
      <PageHeader
        title="Tools"
        description={`Calls, invalid rate, tool error rate, latency, empty results and trend per tool · ${range.label}`}
        actions={<DashboardActions path={path} params={query} range={range} zone={zone} renderedAt={Date.now()} />}
      />
      <div className="space-y-6">
        {allUnchecked(all) && <UncheckedNotice slug={project.slug} calls={all.calls} canRegister={isAdmin} />}
        {feeding.length > 0 && <ServerFilter key={server ?? ""} action={path} servers={feeding} current={server} keep={keep} />}
        <Card>
          {known.length === 0 && idleShown.length === 0 ? (
            <p className="py-6 text-center text-slate-500">
              {server ? `No tools of the MCP server ${server} in this range.` : "No tool calls in this range, and no registered tools."}
            </p>
          ) : (
            <Table label="Tools">
              <thead>
                <tr>
                  <SortHeader column="tool" table={sorting} className={th}>
                    Tool
                  </SortHeader>
                  <SortHeader column="calls" table={sorting} className={`${th} text-right`}>
                    Calls
                  </SortHeader>
                  <SortHeader column="rate" table={sorting} className={`${th} text-right`}>
                    Invalid rate
                  </SortHeader>
                  <SortHeader
                    column="change"
                    table={sorting}
                    className={`${th} text-right`}
                    title={`Change of the invalid rate against the ${previousLabel(range)}, in percentage points`}
                  >
                    Change
                  </SortHeader>
                  <SortHeader
                    column="errors"
                    table={sorting}
                    className={`${th} text-right`}
                    title="Tool errors, not found, timeouts and refusals over the calls that ran and reported a result"
                  >
                    Tool error rate
                  </SortHeader>
                  <SortHeader column="p95" table={sorting} className={`${th} text-right`} title="95th percentile of the results' latencies (within 5 %)">
                    p95 latency
                  </SortHeader>
                  <SortHeader
                    column="empty"
                    table={sorting}
                    className={`${th} text-right`}
                    title="Results the tool marked ok that said nothing (empty, [], {}, null, blank) over the results: the tool should say what it did not find"
                  >
                    Empty results
                  </SortHeader>
                  <SortHeader column="cost" table={sorting} className={`${th} text-right`}>
                    Cost
                  </SortHeader>
                  <SortHeader column="failure" table={sorting} className={th}>
                    Most common failure
                  </SortHeader>
                  <th className={th} title={`Invalid rate per ${lines.bucket} over the range`}>
                    Trend <span className="normal-case tracking-normal text-slate-500">({lines.bucket === "day" ? "daily" : "hourly"})</span>
                  </th>
                  <SortHeader column="versions" table={sorting} className={`${th} text-right`} title="Schema versions registered">
                    Versions
                  </SortHeader>
                  <th className={th}>
                    <span className="sr-only">Related pages</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {known.map((t) => {
                  const p = rateOf(t);
                  const change = rateChangeLabel(changeOf(t));
                  return (
                    <tr key={t.tool} data-testid="tool-row" className="hover:bg-slate-50">
                      <td className={td}>
                        <Link href={href(t.tool)} className="font-mono text-[13px] font-medium text-indigo-700 hover:underline">
                          <Truncated text={t.tool} />
                        </Link>
                        {via(t.tool)}
                      </td>
                      <td data-label="Calls" className={`${td} ${num}`}>
                        {formatCount(t.calls)}
                      </td>
                      <td
                        data-label="Invalid rate"
                        className={`${td} ${num} font-medium ${p !== null && p >= 0.1 ? "text-red-700" : allUnchecked(t) ? "font-normal text-amber-800" : "text-slate-900"}`}
                        data-testid="tool-rate"
                        title={allUnchecked(t) ? "No schema to check these calls against: neither valid nor invalid" : undefined}
                      >
                        {rateText(t)}
                      </td>
                      <td data-label="Change" className={`${td} ${num} ${change ? CHANGE_TONE[change.tone] : "text-slate-500"}`} data-testid="tool-change">
                        {change ? change.text : previous.has(t.tool) ? "–" : "new"}
                      </td>
                      <td data-label="Tool error rate" className={`${td} ${num}`} data-testid="tool-error-rate">
                        {t.results > 0 ? (
                          <Link
                            href={failedHref(t.tool)}
                            className="hover:underline"
                            title={`${formatCount(failures(t))} of ${formatCount(t.results)} results failed`}
                          >
                            {formatPercent(toolErrorRate(t))}
                          </Link>
                        ) : (
                          <span className="text-xs text-slate-500">no results</span>
                        )}
                      </td>
                      <td data-label="p95 latency" className={`${td} ${num}`} data-testid="tool-p95">
                        {t.latency.p95 === null ? <span className="text-xs text-slate-500">{p95Text(t.latency)}</span> : p95Text(t.latency)}
                      </td>
                      <td data-label="Empty results" className={`${td} ${num}`} data-testid="tool-empty-rate">
                        {t.results === 0 ? (
                          <span className="text-xs text-slate-500">no results</span>
                        ) : t.emptyResults > 0 ? (
                          <Link
                            href={emptyHref(t.tool)}
                            className="font-medium text-amber-800 hover:underline"
                            title={`${formatCount(t.emptyResults)} of ${formatCount(t.results)} results said nothing: make the tool answer “not found” or “no results for …” instead`}
                          >
                            {formatPercent(emptyResultRate(t))}
                          </Link>
                        ) : (
                          formatPercent(0)
                        )}
                      </td>
                      <td data-label="Cost" className={`${td} ${num}`}>
                        {formatUsd(t.costUsd)}
                      </td>
                      <td data-label="Most common failure" className={td}>
                        {t.topCategory ? (CATEGORY_LABELS[t.topCategory as Category] ?? t.topCategory) : <span className="text-slate-500">–</span>}
                      </td>
                      <td className={`${td} py-1`}>
                        <Sparkline values={trends.get(t.tool) ?? []} colorKey={t.tool} color={colors[t.tool]} width={112} height={28} />
                      </td>
                      <td data-label="Versions" className={`${td} ${num}`}>
                        {versions.get(t.tool) ?? <span className="text-slate-500">–</span>}
                      </td>
                      <td className={td}>
                        <RowLinks calls={callsHref(t.tool)} errors={errorsHref(t.tool)} name={t.tool} />
                      </td>
                    </tr>
                  );
                })}
                {idleShown.map((name) => (
                  <tr key={name} data-testid="tool-row" className="hover:bg-slate-50">
                    <td className={td}>
                      <Link href={href(name)} className="font-mono text-[13px] font-medium text-indigo-700 hover:underline">
                        <Truncated text={name} />
                      </Link>
                      {via(name)}
                    </td>
                    <td className={`${td} text-right text-slate-500`} colSpan={9}>
                      no calls in this range
                    </td>
                    <td data-label="Versions" className={`${td} ${num}`}>
                      {versions.get(name)}
                    </td>
                    <td className={td} />
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card>

        {unregistered.tools.length > 0 && (
          <div id="tools-without-schema" className="scroll-mt-4">
            <Card
              title={
                <>
                  Tools without a schema <Badge tone="amber">{unregistered.tools.length}</Badge>
                </>
              }
              description="Every call Toolgate has stored, whatever the range"
            >
              <UnregisteredTools
                unregistered={unregistered}
                toolHref={href}
                registerHref={isAdmin ? "#register-tools" : null}
                recheck={isAdmin ? { project: project.slug, range, back: withParams(path, keep, {}) } : undefined}
              />
            </Card>
          </div>
        )}

        {misspelt.length > 0 && (
          <Card
            title={
              <>
                Unknown tool names <Badge tone="amber">{misspelt.length}</Badge>
              </>
            }
            description={`Names the model wrote that match no registered schema: every such call is invalid (“Unknown tool”). ${formatCount(misspelt.reduce((n, t) => n + t.calls, 0))} calls in the range.${isAdmin ? " If one is a real tool, register its schema below; then re-check its stored calls." : ""}`}
          >
            <Table label="Unknown tool names">
              <thead>
                <tr>
                  <th className={th}>Name the model wrote</th>
                  <th className={th}>Probably meant</th>
                  <th className={`${th} text-right`}>Calls</th>
                  <th className={`${th} text-right`}>Cost</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100" data-testid="unknown-tools">
                {misspelt.map((t) => {
                  const meant = closestTool(t.tool, registered);
                  return (
                    <tr key={t.tool}>
                      <td className={td}>
                        <Link href={href(t.tool)} className="font-mono text-[13px] text-indigo-700 hover:underline">
                          <Truncated text={t.tool} />
                        </Link>
                      </td>
                      <td className={td}>
                        {meant ? (
                          <Link href={href(meant)} className="font-mono text-[13px] text-slate-700 hover:underline">
                            {meant}
                          </Link>
                        ) : (
                          <span className="text-slate-500">–</span>
                        )}
                      </td>
                      <td data-label="Calls" className={`${td} ${num}`}>
                        {formatCount(t.calls)}
                      </td>
                      <td data-label="Cost" className={`${td} ${num}`}>
                        {formatUsd(t.costUsd)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          </Card>
        )}
        {isAdmin && (
          <Card
            title="Register tool definitions"
            description="Paste or upload the definitions your code sends the model; a changed schema becomes a new version, as with tools.register"
          >
            <RegisterToolsForm project={project.slug} range={range} back={withParams(path, keep, {})} notice={query} />
          </Card>
        )}
      </div>
    </>
  );
}

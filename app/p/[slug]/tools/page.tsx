import type { Metadata } from "next";
import Link from "next/link";
import { Sparkline } from "@/components/charts";
import { assignColors } from "@/components/charts/prepare";
import { rateSeries } from "@/components/dashboard/chart-data";
import { closestTool, isUnknownTool, rateOf } from "@/components/dashboard/derive";
import { formatCount, formatRate, formatUsd } from "@/components/dashboard/format";
import { apiRange, dashboardRange, rangeParams, readParams, type SearchParams } from "@/components/dashboard/params";
import { DashboardActions } from "@/components/dashboard/dashboard-actions";
import { Badge, Card, PageHeader, Table, td, th, Truncated } from "@/components/ui";
import { CATEGORY_LABELS, type Category } from "@/contracts/categories";
import { withParams } from "@/contracts/range";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Tools" };

const num = "text-right tabular-nums";

export default async function ToolsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const { project } = await requireProject(slug);
  const query = await readParams(searchParams);
  const { zone } = await pageTimeZone();
  const range = dashboardRange(query, zone);
  const api = await pageCaller();
  const input = { project: slug, range: apiRange(range) };
  const [table, lines, definitions] = await Promise.all([
    api.metrics.tools(input),
    api.metrics.series({ ...input, dimension: "tool" }),
    api.tools.list({ project: slug }),
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
  const names = new Set(versions.keys());
  const isUnknown = (t: { tool: string; topCategory: string | null }) => isUnknownTool(t, names);

  const known = table.filter((t) => !isUnknown(t));
  const misspelt = table.filter(isUnknown);
  const registered = [...versions.keys()];

  return (
    <>
      <PageHeader
        title="Tools"
        description={`Calls, invalid rate and trend per tool · ${range.label}`}
        actions={<DashboardActions path={path} params={query} range={range} zone={zone} renderedAt={Date.now()} />}
      />
      <div className="space-y-6">
        <Card>
          {known.length === 0 && idle.length === 0 ? (
            <p className="py-6 text-center text-slate-500">No tool calls in this range, and no registered tools.</p>
          ) : (
            <Table label="Tools">
              <thead>
                <tr>
                  <th className={th}>Tool</th>
                  <th className={`${th} text-right`}>Calls</th>
                  <th className={`${th} text-right`}>Invalid rate</th>
                  <th className={`${th} text-right`}>Cost</th>
                  <th className={th}>Most common failure</th>
                  <th className={th} title={`Invalid rate per ${lines.bucket} over the range`}>
                    Trend <span className="normal-case tracking-normal text-slate-500">({lines.bucket === "day" ? "daily" : "hourly"})</span>
                  </th>
                  <th className={`${th} text-right`} title="Schema versions registered">
                    Versions
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {known.map((t) => {
                  const p = rateOf(t);
                  return (
                    <tr key={t.tool} data-testid="tool-row" className="hover:bg-slate-50">
                      <td className={td}>
                        <Link href={href(t.tool)} className="font-mono text-[13px] font-medium text-indigo-700 hover:underline">
                          <Truncated text={t.tool} />
                        </Link>
                      </td>
                      <td className={`${td} ${num}`}>{formatCount(t.calls)}</td>
                      <td className={`${td} ${num} font-medium ${p !== null && p >= 0.1 ? "text-red-700" : "text-slate-900"}`}>{formatRate(p)}</td>
                      <td className={`${td} ${num}`}>{formatUsd(t.costUsd)}</td>
                      <td className={td}>
                        {t.topCategory ? (CATEGORY_LABELS[t.topCategory as Category] ?? t.topCategory) : <span className="text-slate-500">–</span>}
                      </td>
                      <td className={`${td} py-1`}>
                        <Sparkline values={trends.get(t.tool) ?? []} colorKey={t.tool} color={colors[t.tool]} width={112} height={28} />
                      </td>
                      <td className={`${td} ${num}`}>{versions.get(t.tool) ?? <span className="text-slate-500">–</span>}</td>
                    </tr>
                  );
                })}
                {idle.map((name) => (
                  <tr key={name} data-testid="tool-row" className="hover:bg-slate-50">
                    <td className={td}>
                      <Link href={href(name)} className="font-mono text-[13px] font-medium text-indigo-700 hover:underline">
                        <Truncated text={name} />
                      </Link>
                    </td>
                    <td className={`${td} text-right text-slate-500`} colSpan={5}>
                      no calls in this range
                    </td>
                    <td className={`${td} ${num}`}>{versions.get(name)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card>

        {misspelt.length > 0 && (
          <Card
            title={
              <>
                Unknown tool names <Badge tone="amber">{misspelt.length}</Badge>
              </>
            }
            description={`Names the model wrote that match no registered schema: every such call is invalid (“Unknown tool”). ${formatCount(misspelt.reduce((n, t) => n + t.calls, 0))} calls in the range.`}
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
                      <td className={`${td} ${num}`}>{formatCount(t.calls)}</td>
                      <td className={`${td} ${num}`}>{formatUsd(t.costUsd)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          </Card>
        )}
      </div>
    </>
  );
}

import type { Metadata } from "next";
import Link from "next/link";
import { apiRange, dashboardRange, rangeParams, readParams, type SearchParams } from "@/components/dashboard/params";
import { DashboardActions } from "@/components/dashboard/dashboard-actions";
import { ConfusableList } from "@/components/tools/confusable-list";
import type { ContextCostAnswer } from "@/components/tools/types";
import { asOfNote } from "@/components/dashboard/as-of";
import { Badge, Card, PageHeader, Table, td, th, num } from "@/components/ui";
import { formatCount, formatNumber, formatPercent, formatUsd } from "@/contracts/format-number";
import { withParams } from "@/contracts/range";
import { lintTools, scoreTools } from "@/isomorphic/definition-lint";
import { pageCaller, pageTimeZone, requireProject } from "@/server/page-session";

export const metadata: Metadata = { title: "Definitions" };

const usd = (v: number | null) => (v === null ? "–" : formatUsd(v));

/** Which tool sets the calls were counted with: the ones their runs carried, or the whole registered set. */
function carriedWords({ basis, carried, tools, total }: ContextCostAnswer): string {
  const registered = `the ${formatCount(tools.length)} registered definitions (${formatCount(total.tokens)} tokens, o200k_base)`;
  const unregistered = carried.unregistered.length ? ` Not counted: ${carried.unregistered.join(", ")} (carried, never registered).` : "";
  if (basis === "registered") return `No run said which tools it carried: every model call is counted with ${registered}.`;
  const sets = `${formatCount(carried.sets)} tool set${carried.sets === 1 ? "" : "s"}`;
  if (basis === "carried") return `Every call is counted with the tools its run carried (${sets}).${unregistered}`;
  return `${formatCount(carried.calls)} of ${formatCount(carried.of)} calls are counted with the tools their runs carried (${sets}); the others with ${registered}.${unregistered}`;
}

/**
 * The project's tool definitions before and beside their calls: what each costs in every model
 * call and a day (docs/definition-lint.md, "Context cost"), its lint score, and the pairs of tools
 * models mix up, ranked (docs/schema-doctor.md, "Confusable tools").
 */
export default async function DefinitionsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: SearchParams }) {
  const { slug } = await params;
  const { project } = await requireProject(slug);
  const query = await readParams(searchParams);
  const { zone } = await pageTimeZone();
  const range = dashboardRange(query, zone);
  const api = await pageCaller();
  const input = { project: slug, range: apiRange(range) };
  const [cost, confusable, versions] = await Promise.all([
    api.tools.projectContextCost(input),
    api.tools.projectConfusable(input),
    api.tools.list({ project: slug }),
  ]);
  const newest = new Map<string, (typeof versions)[number]>();
  for (const v of versions) if (!newest.has(v.name)) newest.set(v.name, v); // newest first per name
  const scored = scoreTools(
    lintTools([...newest.values()].map((v) => ({ name: v.name, description: v.description, parameters: v.parameters as Record<string, unknown> }))),
  );
  const score = new Map(scored.tools.map((t) => [t.tool, t.score]));
  const path = `/p/${project.slug}/definitions`;
  const keep = rangeParams(query);
  const toolHref = (name: string) => withParams(`/p/${project.slug}/tools/${encodeURIComponent(name)}`, keep, {});

  return (
    <>
      <PageHeader
        title="Definitions"
        description={`What the registered tool definitions cost in every model call, their lint score, and the tools models mix up · ${range.label}`}
        actions={<DashboardActions path={path} params={query} range={range} zone={zone} renderedAt={Date.now()} />}
      />
      <div className="space-y-6">
        <Card
          title="Context cost"
          description={`${carriedWords(cost)} ${formatCount(Math.round(cost.total.tokensPerDay))} tokens a day over the range's calls, ${usd(cost.total.usdPerDay)} a day. Costliest for the least use first.`}
        >
          {cost.models.length > 0 && (
            <ul className="mb-4 space-y-1 text-sm text-slate-600" data-testid="context-cost-models">
              {cost.models.map((m) => (
                <li key={m.model}>
                  <span className="font-mono">{m.model}</span>: {formatCount(m.setTokens)} tokens a call
                  {cost.basis === "mixed" && ` on average (${formatCount(m.carriedCalls)} of its calls with their runs' own tool sets)`} with{" "}
                  {m.tokenizer.encoding} {m.tokenizer.exact ? <Badge tone="green">its own tokenizer</Badge> : <Badge tone="amber">estimate</Badge>},{" "}
                  {formatNumber(m.callsPerDay, { digits: 1 })} calls a day
                  {m.inputShare !== null && `, ${formatPercent(m.inputShare)} of its input tokens`}, {usd(m.setUsdPerDay)} a day
                  {m.price && ` (input ${m.price.method === "fit" ? "fitted from usage" : "at most"}: ${formatUsd(m.price.usd * 1e6)} per million tokens)`}
                </li>
              ))}
            </ul>
          )}
          {cost.tools.length ? (
            <Table label="Context cost per tool">
              <thead>
                <tr>
                  <th className={th}>Tool</th>
                  <th className={`${th} text-right`}>Tokens a call</th>
                  <th className={`${th} text-right`}>Tokens a day</th>
                  <th className={`${th} text-right`}>Cost a day</th>
                  <th className={`${th} text-right`}>Its calls</th>
                  <th className={`${th} text-right`}>Cost per call of it</th>
                  <th className={`${th} text-right`}>Lint score</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100" data-testid="context-cost-tools">
                {cost.tools.map((t) => (
                  <tr key={t.name} data-tool={t.name}>
                    <td className={td}>
                      <Link href={toolHref(t.name)} className="font-mono text-indigo-700 hover:underline">
                        {t.name}
                      </Link>
                    </td>
                    <td data-label="Tokens a call" className={`${td} ${num}`}>
                      {formatCount(t.tokens)}
                    </td>
                    <td data-label="a day" className={`${td} ${num}`}>
                      {formatCount(Math.round(t.tokensPerDay))}
                    </td>
                    <td data-label="Cost a day" className={`${td} ${num}`}>
                      {usd(t.usdPerDay)}
                    </td>
                    <td data-label="Its calls" className={`${td} ${num}`}>
                      {formatCount(t.uses)}
                    </td>
                    <td data-label="Per call of it" className={`${td} ${num}`}>
                      {t.uses ? usd(t.usdPerUse) : "never called"}
                    </td>
                    <td data-label="Lint" className={`${td} ${num}`}>
                      {score.get(t.name) ?? "–"}/100
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : (
            <p className="text-slate-500">No tool is registered: register definitions on the Tools page.</p>
          )}
        </Card>

        <Card
          title="Tools models mix up"
          description={`Pairs ranked by their evidence in the range: switches after a refused or failed call and unknown names as close to either, then descriptions that nearly repeat each other${
            (confusable.truncated ? ` · read the newest ${formatCount(confusable.readLimit)} calls of the range only` : "") + asOfNote(confusable.asOf, zone)
          }`}
        >
          {confusable.pairs.length ? (
            <ConfusableList pairs={confusable.pairs} toolHref={toolHref} runHref={(id) => `/p/${project.slug}/runs/${encodeURIComponent(id)}`} />
          ) : (
            <p className="text-slate-500">No pair of tools that models mix up in this range.</p>
          )}
        </Card>
      </div>
    </>
  );
}

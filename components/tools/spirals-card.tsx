import Link from "next/link";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../server/routers/root";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { asOfNote } from "../dashboard/as-of";
import { formatCount, formatUsd } from "../../contracts/format-number";
import { Card, ScrollRegion } from "../ui";

type SpiralsAnswer = inferRouterOutputs<AppRouter>["metrics"]["spirals"];

const version = (model: string, modelVersion: string | null) => (modelVersion ? `${model} ${modelVersion}` : model);

/**
 * Retry spirals (metrics.spirals): runs where the model failed `minLength` or more times in a row
 * at one tool. Per tool and model version (`by`), how many and how long, what they burned, and the
 * longest ones with a link to their run.
 */
export function SpiralsCard({
  spirals,
  by,
  runHref,
  zone,
}: {
  spirals: SpiralsAnswer;
  by: "tool" | "model";
  runHref: (runId: string) => string;
  zone: string;
}) {
  const { total, groups, longest, minLength } = spirals;
  const cut = spirals.truncated ? ` · read the latest ${formatCount(spirals.readLimit)} failed attempts of the range only` : "";
  return (
    <Card
      title="Retry spirals"
      description={`Runs where the model failed ${minLength} or more times in a row at one tool (invalid calls or failed results)${cut}${asOfNote(spirals.asOf, zone)}`}
    >
      {total.spirals === 0 ? (
        <p className="text-slate-500" data-testid="spirals-empty">
          No run failed {minLength} or more times in a row at one tool in this range.
        </p>
      ) : (
        <div className="space-y-4" data-testid="spirals">
          <p className="text-slate-700" data-testid="spirals-total">
            <strong>{formatCount(total.spirals)}</strong> spiral{total.spirals === 1 ? "" : "s"} burned {formatCount(total.attempts)} attempts,{" "}
            {formatCount(total.tokens)} tokens and {formatUsd(total.costUsd)}.
          </p>
          <ScrollRegion label="Retry spirals by version">
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
                  <th className="py-1.5 pr-3 font-medium">{by === "tool" ? "Model version" : "Tool · model version"}</th>
                  <th className="py-1.5 pr-3 text-right font-medium">Spirals</th>
                  <th className="py-1.5 pr-3 text-right font-medium">Longest</th>
                  <th className="py-1.5 pr-3 text-right font-medium">Attempts</th>
                  <th className="py-1.5 text-right font-medium">Cost</th>
                </tr>
              </thead>
              <tbody>
                {groups.map((g) => (
                  <tr key={`${g.tool} ${g.model} ${g.modelVersion}`} className="border-b border-slate-100 last:border-0">
                    <td className="py-1.5 pr-3">
                      {by === "model" && <span className="font-mono">{g.tool} · </span>}
                      {version(g.model, g.modelVersion)}
                    </td>
                    <td className="py-1.5 pr-3 num">{formatCount(g.spirals)}</td>
                    <td className="py-1.5 pr-3 num">{formatCount(g.longest)}</td>
                    <td className="py-1.5 pr-3 num">{formatCount(g.attempts)}</td>
                    <td className="py-1.5 num">{formatUsd(g.costUsd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <div>
            <h3 className="mb-1 text-xs font-medium text-slate-500">Longest</h3>
            <ol className="divide-y divide-slate-100" data-testid="longest-spirals">
              {longest.map((s) => (
                <li key={s.firstAttemptId} className="flex flex-wrap items-baseline gap-x-3 py-1.5">
                  <Link href={runHref(s.runId)} className="font-mono text-xs text-indigo-700 hover:underline">
                    run {s.runId}
                  </Link>
                  <span className="text-slate-700">
                    {s.attempts} failed attempts at <span className="font-mono">{s.tool}</span> · {version(s.model, s.modelVersion)}
                  </span>
                  <span className="text-xs text-slate-500">
                    {s.endedBy ? "then succeeded" : "never succeeded"} · {formatUsd(s.costUsd)} · {formatDateTimeZoned(s.startedAt, zone)}
                  </span>
                </li>
              ))}
            </ol>
          </div>
        </div>
      )}
    </Card>
  );
}

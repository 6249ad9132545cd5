import Link from "next/link";
import type { LatencySummary } from "@/isomorphic/latency-histogram";
import { LATENCY_RELATIVE_ERROR, MIN_TIMED_RESULTS } from "@/isomorphic/latency-histogram";
import { formatDateTimeZoned } from "@/isomorphic/time-zone";
import { StatTile } from "../dashboard/stat-tile";
import { formatCount, formatDuration, formatPercent } from "../../contracts/format-number";
import { callHref } from "../calls/format";
import { Card } from "../ui";
import { emptyResultRate, failures, toolErrorRate } from "../../isomorphic/outcome";
import { EMPTY_RESULT_FIX, nextStepText, outcomeRows, p95Text } from "./execution-view";
import type { EmptyResultExampleRow } from "./types";

type Outcomes = Parameters<typeof outcomeRows>[0];

const muted = "text-base font-normal text-slate-500";

/**
 * What happened to the calls that passed the gate: the tool error rate, the latency percentiles,
 * the empty-result rate and each outcome's count, linked to those calls in the explorer
 * (`outcomeHref`). On a tool's page, `empty` lists its newest empty results with what the model did next.
 */
export function ExecutionCard({
  totals,
  latency,
  outcomeHref,
  empty,
}: {
  totals: Outcomes;
  latency: LatencySummary;
  outcomeHref: (outcome: string) => string;
  empty?: { tool: string; slug: string; zone: string; examples: EmptyResultExampleRow[] };
}) {
  const rate = toolErrorRate(totals);
  const emptyRate = emptyResultRate(totals);
  const percentiles = latency.p95 === null ? null : `p50 ${formatDuration(latency.p50)} · p99 ${formatDuration(latency.p99)}`;
  return (
    <Card
      title="After the gate"
      description={`What happened when the calls that were not invalid ran · percentiles from the rollups, within ${formatPercent(LATENCY_RELATIVE_ERROR, { digits: 0 })}`}
    >
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-3" data-testid="execution">
        <StatTile
          testId="tile-tool-error-rate"
          label="Tool error rate"
          value={rate === null ? <span className={muted}>no results</span> : formatPercent(rate)}
          detail={`${formatCount(failures(totals))} of ${formatCount(totals.results)} results failed`}
        />
        <StatTile
          testId="tile-p95"
          label="p95 latency"
          value={latency.p95 === null ? <span className={muted}>{p95Text(latency)}</span> : p95Text(latency)}
          detail={percentiles ?? `${formatCount(latency.timed)} timed results (${MIN_TIMED_RESULTS} needed)`}
        />
        <StatTile
          testId="tile-empty-rate"
          label="Empty results"
          value={
            emptyRate === null ? (
              <span className={muted}>no results</span>
            ) : totals.emptyResults > 0 ? (
              <Link href={outcomeHref("empty")} className="hover:underline">
                {formatPercent(emptyRate)}
              </Link>
            ) : (
              formatPercent(emptyRate)
            )
          }
          detail={`${formatCount(totals.emptyResults)} of ${formatCount(totals.results)} results were ok but said nothing`}
        />
      </div>
      <ul className="mt-4 flex flex-wrap gap-x-5 gap-y-2 text-sm" data-testid="outcomes">
        {outcomeRows(totals).map((r) => (
          <li key={r.outcome}>
            <Link href={outcomeHref(r.outcome)} className="text-indigo-700 hover:underline">
              {r.label}
            </Link>{" "}
            <span className="tabular-nums text-slate-700">{formatCount(r.count)}</span>
          </li>
        ))}
      </ul>
      {totals.emptyResults > 0 && (
        <div className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="empty-fix">
          <strong className="font-semibold">Empty results: </strong>
          {EMPTY_RESULT_FIX}
        </div>
      )}
      {empty && empty.examples.length > 0 && (
        <div className="mt-4" data-testid="empty-examples">
          <h3 className="text-sm font-semibold text-slate-900">Newest empty results, and what the model did next</h3>
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {empty.examples.map((e) => (
              <li key={e.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-1.5">
                <Link href={callHref(empty.slug, e.id)} className="text-indigo-700 hover:underline">
                  {formatDateTimeZoned(e.timestamp, empty.zone)}
                </Link>
                <code className="max-w-[16rem] truncate rounded bg-slate-100 px-1.5 font-mono text-[12px] text-slate-800" title={e.summary}>
                  {e.summary.trim() === "" ? `“${e.summary}” (blank)` : e.summary}
                </code>
                <span className="text-slate-600" data-testid="empty-next">
                  then{" "}
                  {e.next ? (
                    <Link href={callHref(empty.slug, e.next.id)} className="text-indigo-700 hover:underline">
                      {nextStepText(empty.tool, e.next)}
                    </Link>
                  ) : (
                    nextStepText(empty.tool, e.next)
                  )}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

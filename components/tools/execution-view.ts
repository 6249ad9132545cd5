// What the tools table and the tool page show of the calls that ran: the tool error rate (failed
// results over results) and latency percentiles, with "insufficient data" where the rollups
// hold too little. Pure; the outcomes themselves are isomorphic/outcome.ts.
import type { OutcomeFilter } from "../../contracts/event";
import { formatDuration } from "../../contracts/format-number";
import type { LatencySummary } from "../../isomorphic/latency-histogram";
import { executionOutcome, failures, isEmptyResult, OUTCOME_LABELS, type ResultCounts } from "../../isomorphic/outcome";

/** A tool's or a range's calls, invalid ones and what happened to those that ran. */
type Outcomes = { calls: number; invalid: number } & ResultCounts;

/** What a tool that answers with nothing should do instead, in plain words. */
export const EMPTY_RESULT_FIX =
  "Make the tool say what it did not find — “No open loans for customer 118”, “No results for ‘x’” — instead of an empty answer: a model told nothing tends to invent one.";

/**
 * The outcome rows of a tool or a range, with their counts, for links to the calls explorer;
 * kinds without calls left out but ok. The empty results are a part of the ok ones, listed last.
 */
export function outcomeRows(t: Outcomes): { outcome: OutcomeFilter; label: string; count: number }[] {
  const ran = t.calls - t.invalid;
  const rows: { outcome: OutcomeFilter; count: number }[] = [
    { outcome: "ok", count: t.results - failures(t) },
    { outcome: "tool_error", count: t.toolErrors },
    { outcome: "not_found", count: t.notFound },
    { outcome: "timeout", count: t.timeouts },
    { outcome: "not_allowed", count: t.notAllowed },
    { outcome: "no_result", count: Math.max(0, ran - t.results) },
    { outcome: "empty", count: t.emptyResults },
  ];
  return rows.filter((r) => r.outcome === "ok" || r.count > 0).map((r) => ({ ...r, label: OUTCOME_LABELS[r.outcome] }));
}

/** The p95 cell: its value, or why there is none. */
export function p95Text(latency: LatencySummary): string {
  if (latency.timed === 0) return "no latencies";
  return latency.p95 === null ? "insufficient data" : formatDuration(latency.p95);
}

/** The run's next call after an empty result, as the tool page lists it (server/services/tools/empty-results.ts). */
type NextCall = { tool: string; valid: boolean | null; resultStatus: string | null; resultSummary: string | null } | null;

/** What the model did after an empty result of `tool`, as far as the stored calls say: its next call in the run, or none. */
export function nextStepText(tool: string, next: NextCall): string {
  if (!next) return "no later call in this run";
  const which = next.tool === tool ? `called ${tool} again` : `called ${next.tool}`;
  if (next.valid === false) return `${which}: invalid`;
  const outcome = executionOutcome(next);
  const how = outcome === "ok" && isEmptyResult({ status: next.resultStatus, summary: next.resultSummary }) ? "empty again" : OUTCOME_LABELS[outcome!];
  return `${which}: ${how}`;
}

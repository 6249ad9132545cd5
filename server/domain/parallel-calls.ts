// Parallel calls (docs/events.md, "Parallel calls"): the calls one model response requested
// together share a turn of their run. What a scope (a tool, a model version) shows is summed here
// from the groups a bounded read gave (server/services/parallel-calls.ts).
import { executionOutcome } from "../../isomorphic/outcome";
import { attemptFailed } from "./spirals";

/** A call of a sampled turn: its group is (runId, turn). */
export type TurnMember = {
  runId: string;
  turn: number;
  tool: string;
  model: string;
  modelVersion: string | null;
  valid: boolean | null;
  resultStatus: string | null;
  /** whether the tool message that answered it named its call id; null: not known (docs/otlp.md) */
  resultIdKept: boolean | null;
  /** one of the scope's sampled calls (the others are the rest of their turns) */
  sampled: boolean;
};

/** Fewer parallel groups than this: the shares are not shown ("insufficient data"). */
export const MIN_PARALLEL_GROUPS = 10;

export type ParallelSummary = {
  /** the scope's calls read that carry a turn (the newest of the range, up to the read's limit) */
  calls: number;
  /** of those, the calls whose turn held another call too */
  inParallel: number;
  /** turns with two calls or more that hold one of the scope's calls */
  groups: number;
  /** of those, the turns where one call failed (invalid, or a failed result) while another succeeded */
  mixed: number;
  /** the scope's parallel calls whose answer's call id is known, and of those the ones that kept it */
  idKnown: number;
  idKept: number;
};

/** A call that succeeded: it ran and answered ok, or (no result reported) it was judged valid; never a failed attempt. */
function succeeded(c: TurnMember) {
  const outcome = executionOutcome(c);
  return outcome === "ok" || (outcome === "no_result" && c.valid === true);
}

/** Sums the sampled calls of a scope and the turns they belong to. */
export function summarizeParallel(members: readonly TurnMember[]): ParallelSummary {
  const turns = new Map<string, TurnMember[]>();
  for (const m of members) {
    const key = `${m.runId}\n${m.turn}`;
    const list = turns.get(key);
    if (list) list.push(m);
    else turns.set(key, [m]);
  }
  const summary: ParallelSummary = { calls: 0, inParallel: 0, groups: 0, mixed: 0, idKnown: 0, idKept: 0 };
  for (const group of turns.values()) {
    const own = group.filter((m) => m.sampled);
    summary.calls += own.length;
    if (group.length < 2 || !own.length) continue;
    summary.inParallel += own.length;
    summary.groups++;
    // failed: refused as invalid, or ran and failed (the spirals' rule)
    if (group.some(attemptFailed) && group.some(succeeded)) summary.mixed++;
    for (const m of own) {
      if (m.resultIdKept === null) continue;
      summary.idKnown++;
      if (m.resultIdKept) summary.idKept++;
    }
  }
  return summary;
}

/** The shares a page shows, each null where the data do not say enough (`MIN_PARALLEL_GROUPS`). */
export function parallelShares(s: ParallelSummary) {
  const enough = s.groups >= MIN_PARALLEL_GROUPS;
  return {
    inParallel: s.calls > 0 ? s.inParallel / s.calls : null,
    mixed: enough ? s.mixed / s.groups : null,
    idKept: enough && s.idKnown >= MIN_PARALLEL_GROUPS ? s.idKept / s.idKnown : null,
  };
}

// A run's order, and the walk along it that counts attempts (docs/pairing.md).
//
// The pairing rule itself (which call corrected an invalid one) is PAIR_SQL in
// server/services/ingest/write-calls.ts, applied once at ingestion, which stores the link in
// `correction_id`. Every read follows that stored link; nothing re-derives it. What lives here is
// the one definition of a run's order, spelled for SQL and for Prisma side by side, and the walk
// along stored links that counts attempts.

/**
 * The order of one run's calls: by step; calls without a step after the stepped ones; then by
 * timestamp, then id. A harness that sends a step for every call (or for none) gets exactly
 * its own order.
 */
export const runOrderSql = (alias = "") => `${alias && `${alias}.`}step NULLS LAST, ${alias && `${alias}.`}timestamp, ${alias && `${alias}.`}id`;

/** The same order for Prisma's `orderBy`. */
export const RUN_ORDER = [{ step: { sort: "asc", nulls: "last" } }, { timestamp: "asc" }, { id: "asc" }] as const;

export interface LinkedCall {
  id: string;
  /** null: no verdict known. */
  valid: boolean | null;
  /** The stored correction link (set by ingestion for invalid calls). */
  correctionId: string | null;
}

/**
 * How many attempts the run needed to get this call right, following the stored links: back
 * from `call` through the earlier non-valid calls whose correction it is, then forward through
 * corrections up to and including the first valid call. `run` must be in run order.
 * A call with an unknown verdict counts as an attempt but never as the success.
 * Returns null when the chain never reaches a valid call.
 */
export function attemptsUntilSuccess(call: LinkedCall, run: readonly LinkedCall[]): number | null {
  const byId = new Map(run.map((c) => [c.id, c]));
  const seen = new Set<string>([call.id]);
  let attempts = 1;
  for (let current = call; ;) {
    // the latest earlier attempt (in run order) whose correction is the current call
    const previous = run.findLast((c) => c.correctionId === current.id && c.valid !== true && !seen.has(c.id));
    if (!previous) break;
    seen.add(previous.id);
    attempts++;
    current = previous;
  }
  if (call.valid === true) return attempts;
  for (let next = call.correctionId ? byId.get(call.correctionId) : undefined; next; next = next.correctionId ? byId.get(next.correctionId) : undefined) {
    if (seen.has(next.id)) return null; // a correctsId cycle
    seen.add(next.id);
    attempts++;
    if (next.valid === true) return attempts;
  }
  return null;
}

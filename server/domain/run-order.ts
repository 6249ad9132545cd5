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

/**
 * The id (or the row's `ctid`) of the call right after (`next`) or right before (`previous`)
 * the call `c` in its run's order, among the calls of the same run that name the same tool:
 * `c` is the alias of a row with project_id, run_id, tool, step, timestamp and id, `$1` the
 * project. Written as three lookups, of which `c`'s step (null or not) leaves one or two to
 * run, so that each is a single descent of the index (project_id, run_id, tool, step,
 * timestamp, id) — whose ascending order, nulls last, is the run order — whatever the length
 * of the run. The caller plans it with sorting disabled: with statistics older than the run,
 * the planner otherwise takes (project_id, tool, timestamp) and sorts every call of the tool
 * per lookup (docs/PERFORMANCE.md). A row comparison never matches a null step, hence the
 * separate unstepped lookups. With `sameTool` false, the neighbour whatever its tool, one
 * descent each of (project_id, run_id, step, timestamp) (retry spirals: server/services/metrics/spirals.ts).
 * `also`, a further condition on the neighbour `n` (pairing: not of `c`'s turn), is a filter of
 * that descent: it reads past the calls that fail it, so it must fail only a few of the calls
 * next to `c` (pairing's: `c`'s own parallel calls of the tool, docs/pairing.md).
 */
export function sameToolNeighbourSql(c: string, direction: "next" | "previous", column: "id" | "ctid" = "id", sameTool = true, also = ""): string {
  const [cmp, dir, nulls] = direction === "next" ? [">", "ASC", "LAST"] : ["<", "DESC", "FIRST"];
  const tool = (sameTool ? ` AND n.tool = ${c}.tool` : "") + (also && ` AND ${also}`);
  const lookup = (where: string, order: string) =>
    `(SELECT n.${column} FROM tool_calls n WHERE n.project_id = $1 AND n.run_id = ${c}.run_id${tool} AND ${where} ORDER BY ${order} LIMIT 1)`;
  const byStep = `n.step ${dir} NULLS ${nulls}, n.timestamp ${dir}, n.id ${dir}`;
  // among unstepped calls: step is NULL throughout, and naming it keeps the order the index's
  // (project_id, run_id, tool, step, timestamp, id), whatever the planner's statistics say
  const byTime = `n.step ${dir} NULLS ${nulls}, n.timestamp ${dir}, n.id ${dir}`;
  const stepped = lookup(`${c}.step IS NOT NULL AND (n.step, n.timestamp, n.id) ${cmp} (${c}.step, ${c}.timestamp, ${c}.id)`, byStep);
  const unstepped = lookup(`${c}.step IS NULL AND n.step IS NULL AND (n.timestamp, n.id) ${cmp} (${c}.timestamp, ${c}.id)`, byTime);
  // across the boundary: after a stepped call, the first unstepped one; before an unstepped call, the last stepped one
  const across = direction === "next" ? lookup(`${c}.step IS NOT NULL AND n.step IS NULL`, byTime) : lookup(`${c}.step IS NULL AND n.step IS NOT NULL`, byStep);
  return direction === "next" ? `coalesce(${stepped}, ${across}, ${unstepped})` : `coalesce(${stepped}, ${unstepped}, ${across})`;
}

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
 * A call with an unknown verdict counts as an attempt but never as the success. Parallel calls of
 * one turn may share a correction (docs/pairing.md): the walk back follows the latest of them, so
 * a turn counts as one attempt. Returns null when the chain never reaches a valid call.
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

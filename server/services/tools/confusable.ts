import { confusablePairs, type ConfusablePair } from "../../domain/confusable-tools";
import { runOrderSql } from "../../domain/run-order";
import { pool } from "../../db/client";
import { analytics } from "../analytics";
import { latestDefinitions, listTools } from "./registry";

type Range = { from: Date; to: Date };

/** The switches read per request (newest first): enough evidence, bounded work. */
const MAX_SWITCHES = 5000;
/**
 * The calls of the range read per request, the newest first: the read orders each run's calls, so
 * its cost grows with the calls it reads (about 4 µs a call on a two-core machine: 23 ms for the
 * 6,200 calls of the demo's 7 days); past this many it reads the newest ones only, and says so.
 */
export const CONFUSABLE_READ_LIMIT = 50_000;

const keys = (column: string) => `CASE WHEN jsonb_typeof(${column}) = 'object' THEN ARRAY(SELECT jsonb_object_keys(${column})) ELSE '{}'::text[] END`;

const IN_RANGE = "project_id = $1 AND timestamp >= $2 AND timestamp < $3";
const COLUMNS = "run_id, id, tool, timestamp, step, arguments, valid, result_status";

/**
 * One pass over the range's newest calls (up to one more than the read limit, to tell a cut), each
 * with the run's next call (the run order of server/domain/run-order.ts; failed: refused, or its
 * result an error), read once for both answers: the switches after a failed call (the newest
 * MAX_SWITCHES, with the argument names of both calls), and the calls per tool, outcome and next
 * tool sharing an argument name (after a success only, and only in the directions of those switches
 * that shared one: the argument check ran for every success before, 4,661 times on the demo's 7 days).
 */
const ONE_PASS = (readLimit: number) => `WITH probe AS (
  -- how many calls the range has, up to one more than the limit (an index-only count)
  SELECT count(*) AS calls FROM (SELECT FROM tool_calls WHERE ${IN_RANGE} LIMIT ${readLimit + 1}) c
), ordered AS MATERIALIZED (
  SELECT run_id, id, tool, timestamp, arguments,
         coalesce(valid = false, false) OR coalesce(result_status = 'error', false) AS failed,
         lead(id) OVER w AS next_id, lead(tool) OVER w AS next_tool, lead(arguments) OVER w AS next_arguments
    -- every call of the range when they are within the limit (no sort by time: 3 of the 25 ms on
    -- the demo's 7 days), else the newest; of the two, only the one whose condition holds runs
    FROM (SELECT ${COLUMNS} FROM tool_calls WHERE ${IN_RANGE} AND (SELECT calls FROM probe) <= ${readLimit}
          UNION ALL
          SELECT * FROM (SELECT ${COLUMNS} FROM tool_calls WHERE ${IN_RANGE} ORDER BY timestamp DESC LIMIT ${readLimit + 1}) cut
           WHERE (SELECT calls FROM probe) > ${readLimit}) newest
  WINDOW w AS (PARTITION BY run_id ORDER BY ${runOrderSql()})
), switched AS MATERIALIZED (
  SELECT run_id, id, tool, next_id, next_tool, ${keys("arguments")} AS arguments, ${keys("next_arguments")} AS next_arguments
    FROM ordered WHERE failed AND next_tool IS NOT NULL AND next_tool <> tool
   ORDER BY timestamp DESC, id LIMIT ${MAX_SWITCHES}
), directions AS (
  -- the directions of the switches that shared an argument name: the only after-success rates the rule reads
  SELECT DISTINCT tool, next_tool FROM switched WHERE arguments && next_arguments
), transitions AS (
  -- the next tool only where it is another one that took an argument of the same name, in a direction
  -- of a switch (the only transitions after a success that the rule reads); otherwise null, counted all the same
  SELECT tool, CASE WHEN NOT failed AND (tool, next_tool) IN (SELECT tool, next_tool FROM directions) AND jsonb_typeof(arguments) = 'object' AND jsonb_typeof(next_arguments) = 'object'
                     AND arguments ?| ARRAY(SELECT jsonb_object_keys(next_arguments)) THEN next_tool END AS next_tool,
         failed, count(*)::int AS calls
    FROM ordered GROUP BY 1, 2, 3
)
SELECT (SELECT coalesce(json_agg(s), '[]') FROM switched s) AS switched, (SELECT coalesce(json_agg(t), '[]') FROM transitions t) AS transitions`;

type SwitchRow = { run_id: string; id: string; tool: string; next_id: string; next_tool: string; arguments: string[]; next_arguments: string[] };
type TransitionRow = { tool: string; next_tool: string | null; failed: boolean; calls: number };

/**
 * The project's pairs of registered tools that models mix up over a range, ranked (the rule and
 * its thresholds: server/domain/confusable-tools.ts). Filtered to pairs with `tool` when given.
 */
export async function confusableTools(
  projectId: string,
  range: Range,
  tool?: string,
  readLimit = CONFUSABLE_READ_LIMIT,
): Promise<{ pairs: ConfusablePair[]; truncated: boolean; readLimit: number }> {
  const [tools, read, unknown] = await Promise.all([
    listTools(projectId),
    pool().query<{ switched: SwitchRow[]; transitions: TransitionRow[] }>(ONE_PASS(readLimit), [projectId, range.from, range.to]),
    analytics.breakdown(projectId, range, "tool", { category: "unknown_tool" }),
  ]);
  const { switched, transitions } = read.rows[0]!;
  const counts = new Map<string, { tool: string; failed: number; succeeded: number }>();
  for (const t of transitions) {
    const c = counts.get(t.tool) ?? { tool: t.tool, failed: 0, succeeded: 0 };
    if (t.failed) c.failed += t.calls;
    else c.succeeded += t.calls;
    counts.set(t.tool, c);
  }
  const pairs = confusablePairs({
    tools: [...new Set(tools.map((t) => t.name))],
    descriptions: latestDefinitions(tools),
    transitions: switched.map((r) => ({
      runId: r.run_id,
      id: r.id,
      tool: r.tool,
      failed: true,
      arguments: r.arguments,
      nextId: r.next_id,
      next: r.next_tool,
      nextArguments: r.next_arguments,
    })),
    afterSuccess: transitions
      .filter((t) => !t.failed && t.next_tool !== null && t.next_tool !== t.tool)
      .map((t) => ({ tool: t.tool, next: t.next_tool!, calls: t.calls })),
    counts: [...counts.values()],
    unknownNames: unknown.map((r) => ({ name: r.key, calls: r.invalid })),
  });
  const readCalls = transitions.reduce((n, t) => n + t.calls, 0);
  return { pairs: tool ? pairs.filter((p) => p.tools.includes(tool)) : pairs, truncated: readCalls > readLimit, readLimit };
}

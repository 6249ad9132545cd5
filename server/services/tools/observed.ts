import type { ObservedCalls } from "../../../isomorphic/definition-lint";
import { pool } from "../../db/client";

type Range = { from: Date; to: Date };

/**
 * The newest calls of a tool read for the values they sent: through the (project, tool, time)
 * index, so the read is bounded whatever the range (a few ms), and enough for the rules that read
 * them (string_closed_set and optional_without_default need 20 calls; a share of 90% or a set of at
 * most 10 values shows as well in 2,000).
 */
const OBSERVED_CALLS = 2000;
/** Values kept per parameter, the most frequent first: one more than a closed set may have, so that a wider one reads as such. */
const VALUES_PER_PARAMETER = 11;

/**
 * What the definition lint reads from the recorded calls of one tool (isomorphic/definition-lint.ts,
 * `ObservedCalls`): how many of its newest calls (up to OBSERVED_CALLS in the range) sent an
 * arguments object, and per top-level parameter the scalar values they sent (strings, numbers,
 * booleans) with how many calls sent each, the most frequent first.
 */
export async function observedValues(projectId: string, tool: string, range: Range, limit = OBSERVED_CALLS): Promise<ObservedCalls> {
  const { rows } = await pool().query<{ calls: number; values: { path: string; value: unknown; count: number }[] }>(
    `WITH newest AS MATERIALIZED (
       SELECT arguments FROM tool_calls
        WHERE project_id = $1 AND tool = $2 AND timestamp >= $3 AND timestamp < $4
        ORDER BY timestamp DESC LIMIT $5
     ), sent AS (
       SELECT k.key AS path, k.value, count(*)::int AS count,
              row_number() OVER (PARTITION BY k.key ORDER BY count(*) DESC, k.value::text) AS rank
         FROM newest n, jsonb_each(n.arguments) k
        WHERE jsonb_typeof(n.arguments) = 'object' AND jsonb_typeof(k.value) IN ('string', 'number', 'boolean')
        GROUP BY 1, 2
     )
     SELECT (SELECT count(*)::int FROM newest WHERE jsonb_typeof(arguments) = 'object') AS calls,
            (SELECT coalesce(json_agg(json_build_object('path', path, 'value', value, 'count', count) ORDER BY path, rank), '[]')
               FROM sent WHERE rank <= ${VALUES_PER_PARAMETER}) AS values`,
    [projectId, tool, range.from, range.to, limit],
  );
  const { calls, values } = rows[0]!;
  // no prototype: a parameter may be called "__proto__"
  const byPath = Object.create(null) as Record<string, { value: unknown; count: number }[]>;
  for (const v of values) (byPath[v.path] ??= []).push({ value: v.value, count: v.count });
  return { calls, values: byPath };
}

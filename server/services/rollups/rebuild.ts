import type { ClientBase } from "pg";
import { CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS, granularities, messageKey, recoveredSql } from "./tables";

const callRollup = (bucket: string) => `
  SELECT project_id, ${bucket} AS bucket, tool, model_name, coalesce(model_version, '') AS model_version, coalesce(category, '') AS category,
         count(*) AS calls, count(*) FILTER (WHERE valid = false) AS invalid,
         count(*) FILTER (WHERE valid = false AND correction_id IS NOT NULL) AS corrected,
         coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens, coalesce(sum(cost_usd), 0) AS cost_usd
    FROM tool_calls WHERE project_id = $1 GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 2, 3, 4, 5, 6`;

const messageRollup = (bucket: string) => `
  SELECT x.project_id, ${bucket} AS bucket, x.tool, ${messageKey("x.message")} AS message_hash, coalesce(x.message, '') AS message,
         count(*) AS sent, count(x.correction_id) AS followed, sum(${recoveredSql("x.correction_id")}) AS recovered
    FROM tool_calls x
   WHERE x.project_id = $1 AND x.valid = false
   GROUP BY 1, 2, 3, 5 ORDER BY 2, 3, 4`;

/**
 * Every rollup table with the SELECT that computes its rows for project $1 from the raw calls,
 * in the order of its columns (project_id, bucket, `columns`): what ingestion keeps up batch by batch (write.ts).
 */
export const ROLLUPS_FROM_CALLS = [
  ...granularities(CALL_ROLLUPS).map((g) => ({ table: g.table, bucket: g.column, columns: CALL_ROLLUPS.columns, select: callRollup(g.bucket("timestamp")) })),
  ...granularities(ERROR_MESSAGE_ROLLUPS).map((g) => ({
    table: g.table,
    bucket: g.column,
    columns: ERROR_MESSAGE_ROLLUPS.columns,
    select: messageRollup(g.bucket("x.timestamp")),
  })),
];

/**
 * Recomputes a project's rollups from its raw calls (after a bulk load). Rows go in in time
 * order, as ingestion writes them, so that a range's rows sit together on disk. Answers the
 * rows written per table.
 */
export async function rebuildRollups(client: ClientBase, projectId: string): Promise<Record<string, number>> {
  const written: Record<string, number> = {};
  for (const r of ROLLUPS_FROM_CALLS) {
    await client.query(`DELETE FROM ${r.table} WHERE project_id = $1`, [projectId]);
    const { rowCount } = await client.query(`INSERT INTO ${r.table} (project_id, ${r.bucket}, ${r.columns}) ${r.select}`, [projectId]);
    written[r.table] = rowCount ?? 0;
  }
  return written;
}

import { groupByTemplate, schemaNames } from "../../domain/message-templates";
import { pool } from "../../db/client";
import { runRollupRows } from "../rollups/rebuild";
import { rollupRows } from "../rollups/read";
import { ERROR_MESSAGE_ROLLUPS } from "../rollups/tables";

/**
 * Distinct messages returned to models over a range, grouped by template, with how often the
 * next call was valid. Read from the error-message rollups that ingestion keeps: the messages
 * exist otherwise only in the invalid calls' rows, spread over the whole table. Templates are made
 * here, at read time (server/domain/message-templates.ts), so stored rollups follow any change of them.
 */
export async function errorMessages(projectId: string, range: { from: Date; to: Date }, tool?: string, runIdPrefix?: string) {
  const params: unknown[] = [];
  const from = runIdPrefix
    ? runRollupRows("messages", projectId, range, { tool }, params, runIdPrefix)
    : rollupRows(ERROR_MESSAGE_ROLLUPS, projectId, range, { tool }, params);
  const [{ rows }, schemas] = await Promise.all([
    pool().query<{ message: string; count: number; followed: number; recovered: number }>(
      `SELECT CASE WHEN message = '' THEN '(no message)' ELSE message END AS message,
              sum(sent)::int AS count, sum(followed)::int AS followed, sum(recovered)::int AS recovered
         FROM ${from} GROUP BY message ORDER BY 2 DESC, 1 LIMIT 2000`,
      params,
    ),
    // the names templates keep: every version's, as older messages name older arguments
    pool().query<{ name: string; parameters: unknown }>(`SELECT name, parameters FROM tool_definitions WHERE project_id = $1`, [projectId]),
  ]);
  return groupByTemplate(rows, schemaNames(schemas.rows));
}

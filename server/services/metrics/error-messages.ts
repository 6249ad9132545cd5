import { groupByTemplate } from "../../domain/message-templates";
import { pool } from "../../db/client";
import { rollupRows } from "../rollups/read";
import { ERROR_MESSAGE_ROLLUPS } from "../rollups/tables";

/**
 * Distinct messages returned to models over a range, grouped by template, with how often the
 * next call was valid. Read from the error-message rollups that ingestion keeps: the messages
 * exist otherwise only in the invalid calls' rows, spread over the whole table.
 */
export async function errorMessages(projectId: string, range: { from: Date; to: Date }, tool?: string) {
  const params: unknown[] = [];
  const from = rollupRows(ERROR_MESSAGE_ROLLUPS, projectId, range, { tool }, params);
  const { rows } = await pool().query<{ message: string; count: number; followed: number; recovered: number }>(
    `SELECT CASE WHEN message = '' THEN '(no message)' ELSE message END AS message,
            sum(sent)::int AS count, sum(followed)::int AS followed, sum(recovered)::int AS recovered
       FROM ${from} GROUP BY message ORDER BY 2 DESC, 1 LIMIT 2000`,
    params,
  );
  return groupByTemplate(rows);
}

import { groupByTemplate, schemaNames } from "../../domain/message-templates";
import { pool } from "../../db/client";
import { analytics } from "../analytics";

/**
 * Distinct messages returned to models over a range, grouped by template, with how often the
 * next call was valid. Read from the error-message rollups that ingestion keeps: the messages
 * exist otherwise only in the invalid calls' rows, spread over the whole table. Templates are made
 * here, at read time (server/domain/message-templates.ts), so stored rollups follow any change of them.
 */
export async function errorMessages(projectId: string, range: { from: Date; to: Date }, tool?: string, runIdPrefix?: string) {
  const [rows, schemas] = await Promise.all([
    analytics.errorMessages(projectId, range, { tool, runIdPrefix }, 2000),
    // the names templates keep: every version's, as older messages name older arguments
    pool().query<{ name: string; parameters: unknown }>(`SELECT name, parameters FROM tool_definitions WHERE project_id = $1`, [projectId]),
  ]);
  return groupByTemplate(rows, schemaNames(schemas.rows));
}

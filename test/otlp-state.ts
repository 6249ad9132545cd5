import type pg from "pg";
import { rollupsDifferFromRaw } from "./rollups";

/** Everything a project's stored calls and rollups say, for comparing two ways of sending the same spans. */
export async function storedState(sql: pg.Pool, projectId: string) {
  const calls = await sql.query(
    `SELECT id, run_id, step, timestamp, tool, arguments, valid, category, message, correction_id, result_status, result_summary, latency_ms,
            input_tokens, output_tokens, cost_usd, model_provider, model_name, model_version, tool_version
       FROM tool_calls WHERE project_id = $1 ORDER BY id`,
    [projectId],
  );
  const rollups = await sql.query(
    `SELECT hour, tool, model_name, model_version, category, calls::int, invalid::int, corrected::int, input_tokens::int, output_tokens::int
       FROM call_rollups_hourly WHERE project_id = $1 ORDER BY 1, 2, 3, 4, 5`,
    [projectId],
  );
  const messages = await sql.query(
    `SELECT hour, tool, message, sent::int, followed::int, recovered::int FROM error_message_rollups_hourly WHERE project_id = $1 ORDER BY 1, 2, 3`,
    [projectId],
  );
  // the runs' conversations (otlp_messages), each message with the model call that delivered it first
  const conversation = await sql.query(
    `SELECT run_id, key, depth, role, text, chars, calls, call_id, error, span_key, started_ns::text, output FROM otlp_messages WHERE project_id = $1 ORDER BY run_id, key`,
    [projectId],
  );
  return {
    calls: calls.rows,
    rollups: rollups.rows,
    messages: messages.rows,
    conversation: conversation.rows,
    rollupsDifferFromRaw: await rollupsDifferFromRaw(sql, projectId),
  };
}

/** The project's calls keyed by the tool call id the instrumentation gave them. */
export async function callsByToolCallId(sql: pg.Pool, projectId: string) {
  const { rows } = await sql.query(`SELECT *, metadata->>'otel.tool_call_id' AS tool_call_id FROM tool_calls WHERE project_id = $1`, [projectId]);
  return new Map(rows.map((r) => [r.tool_call_id ?? r.id, r]));
}

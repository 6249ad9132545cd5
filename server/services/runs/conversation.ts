import type { MessageRow } from "../../adapters/otlp/transcript";
import { pool } from "../../db/client";

/** The most messages a run's conversation shows (the earliest first); `more` says when there were more. */
const CONVERSATION_MESSAGES = 2_000;

/** A stored message (transcript.ts's row, without its run), with when the model call that delivered it started. */
export type ConversationMessage = Omit<MessageRow, "runId" | "callId" | "startedNs"> & { callId: string | null; at: Date };

/**
 * A run's conversation as its model calls delivered it over OTLP (otlp_messages, written by
 * server/services/otlp/messages.ts): in the order of the model calls that delivered them first,
 * then of their place in the conversation. Empty when nothing delivered messages (the SDK and
 * ingest.batch carry none; an instrumentation without content capture neither).
 */
export async function runConversation(projectId: string, runId: string): Promise<{ messages: ConversationMessage[]; more: boolean }> {
  const { rows } = await pool().query<ConversationMessage>(
    `SELECT key, depth, role, text, chars, calls, call_id AS "callId", error, span_key AS "spanKey", output,
            to_timestamp(started_ns / 1e9) AS at
       FROM otlp_messages WHERE project_id = $1 AND run_id = $2
      ORDER BY started_ns, depth, key LIMIT ${CONVERSATION_MESSAGES + 1}`,
    [projectId, runId],
  );
  return { messages: rows.slice(0, CONVERSATION_MESSAGES), more: rows.length > CONVERSATION_MESSAGES };
}

import type { PoolClient } from "pg";
import type { Assembled } from "../../adapters/otlp/assemble";
import { messageRows } from "../../adapters/otlp/transcript";

/**
 * The runs' conversations (otlp_messages, server/adapters/otlp/transcript.ts): each message once
 * per run, keyed by its hash chain, with the model call that delivered it first. A message
 * delivered again (the next model call repeats it, a re-sent span, another export) changes
 * nothing, unless the new delivery came first (deliveredBefore: by start, then the call whose
 * answer it is, then span key): then it is kept instead (the same stored state whatever order the
 * spans arrive in).
 */
const UPSERT = `
  ON CONFLICT (project_id, run_id, key) DO UPDATE SET span_key = excluded.span_key, started_ns = excluded.started_ns, output = excluded.output
   WHERE (excluded.started_ns, NOT excluded.output, excluded.span_key) < (otlp_messages.started_ns, NOT otlp_messages.output, otlp_messages.span_key)`;

const COLUMNS = "project_id, run_id, key, depth, role, text, chars, calls, call_id, error, span_key, started_ns, output";

/** Stores the messages of the model calls written (after joinConversations gave each its run), in one statement. */
export async function recordMessages(client: PoolClient, projectId: string, modelCalls: Assembled["modelCalls"]) {
  const rows = messageRows(modelCalls);
  if (!rows.length) return;
  await client.query(
    `INSERT INTO otlp_messages (${COLUMNS})
     SELECT $1::uuid, * FROM unnest($2::text[], $3::text[], $4::int4[], $5::text[], $6::text[], $7::int4[], $8::jsonb[], $9::text[], $10::bool[], $11::text[], $12::int8[], $13::bool[])
     ${UPSERT}`,
    [
      projectId,
      rows.map((r) => r.runId),
      rows.map((r) => r.key),
      rows.map((r) => r.depth),
      rows.map((r) => r.role),
      rows.map((r) => r.text),
      rows.map((r) => r.chars),
      rows.map((r) => JSON.stringify(r.calls)),
      rows.map((r) => r.callId ?? null),
      rows.map((r) => r.error),
      rows.map((r) => r.spanKey),
      rows.map((r) => r.startedNs.toString()),
      rows.map((r) => r.output),
    ],
  );
}

/** Moves a run's messages into another run (a conversation's later trace joining its earlier one: mergeContinuedRuns); the prefix both hold stays once. */
export async function moveMessages(client: PoolClient, projectId: string, from: string, to: string) {
  await client.query(
    `WITH gone AS (DELETE FROM otlp_messages WHERE project_id = $1 AND run_id = $2 RETURNING *)
     INSERT INTO otlp_messages (${COLUMNS})
     SELECT project_id, $3, key, depth, role, text, chars, calls, call_id, error, span_key, started_ns, output FROM gone
     ${UPSERT}`,
    [projectId, from, to],
  );
}

import type { PoolClient } from "pg";
import type { Assembled } from "../../adapters/otlp/assemble";

/**
 * The model calls' order in their run: by start time; those that started in the same tick of the
 * clock (JavaScript SDKs record start times to the millisecond, and an agent's steps can follow
 * each other faster) by their place in the conversation, then by span id (stable, if arbitrary).
 */
const RANKED = `
  SELECT run_id, span_key, (rank() OVER (PARTITION BY run_id ORDER BY started_ns, turn, span_key))::int - 1 AS step
    FROM otlp_model_calls WHERE project_id = $1 AND run_id = ANY($2::text[])`;

/**
 * Records the model calls and gives each its step: its rank among its run's model calls seen so
 * far (RANKED, 0-based). Where a new model call ranks before one stored earlier, or a stored one's
 * place in its conversation became known (its input came later, in log records), the run's stored
 * calls are renumbered, and the run is returned in `reordered` to be paired again.
 */
export async function numberSteps(client: PoolClient, projectId: string, modelCalls: Assembled["modelCalls"], merged: string[]) {
  const steps = new Map<string, number>();
  if (!modelCalls.length) return { steps, reordered: [] };
  const { rows: written } = await client.query<{ run_id: string; span_key: string; added: boolean }>(
    `WITH m AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::int8[], $5::int4[]) AS m(run_id, span_key, started_ns, turn)
     ), placed AS (
       UPDATE otlp_model_calls o SET turn = m.turn FROM m
        WHERE o.project_id = $1 AND o.run_id = m.run_id AND o.span_key = m.span_key AND o.turn < m.turn
        RETURNING o.run_id, o.span_key
     ), added AS (
       INSERT INTO otlp_model_calls (project_id, run_id, span_key, started_ns, turn) SELECT $1::uuid, * FROM m ON CONFLICT DO NOTHING RETURNING run_id, span_key
     )
     SELECT run_id, span_key, true AS added FROM added UNION ALL SELECT run_id, span_key, false FROM placed`,
    [projectId, modelCalls.map((m) => m.runId), modelCalls.map((m) => m.spanKey), modelCalls.map((m) => m.startedNs.toString()), modelCalls.map((m) => m.turn)],
  );
  const runIds = [...new Set(modelCalls.map((m) => m.runId))];
  const { rows } = await client.query<{ run_id: string; span_key: string; step: number }>(RANKED, [projectId, runIds]);
  const isNew = new Set(written.filter((r) => r.added).map((r) => `${r.run_id}\n${r.span_key}`));
  const firstNew = new Map<string, number>();
  for (const r of rows) {
    steps.set(`${r.run_id}\n${r.span_key}`, r.step);
    if (isNew.has(`${r.run_id}\n${r.span_key}`)) firstNew.set(r.run_id, Math.min(firstNew.get(r.run_id) ?? Infinity, r.step));
  }
  // an older model call at or after the first new one has moved (and a run where a stored model call got its
  // place in the conversation, or that took in the calls of a conversation's later traces: mergeContinuedRuns)
  const reordered = [
    ...new Set([
      ...merged,
      ...written.filter((r) => !r.added).map((r) => r.run_id),
      ...rows.filter((r) => !isNew.has(`${r.run_id}\n${r.span_key}`) && r.step >= (firstNew.get(r.run_id) ?? Infinity)).map((r) => r.run_id),
    ]),
  ];
  if (reordered.length) {
    await client.query(
      `UPDATE tool_calls t SET step = s.step, turn = s.step FROM (${RANKED}) s
        WHERE t.project_id = $1 AND t.run_id = ANY($2::text[]) AND t.run_id = s.run_id
          AND s.span_key = (t.metadata->>'otel.trace_id') || '/' || (t.metadata->>'otel.span_id')
          AND (t.step IS DISTINCT FROM s.step OR t.turn IS DISTINCT FROM s.step)`,
      [projectId, reordered],
    );
  }
  return { steps, reordered };
}

import type { PoolClient } from "pg";
import type { AssembledResult } from "../../adapters/otlp/assemble";
import { rollupResultCtes, rollupResultInputs } from "../rollups/write";
import { markSpiralRunsStale } from "../metrics/spirals-kept";

/**
 * Keeps this request's results (for calls that arrive later) and copies the winning result of
 * each touched call onto the stored call: the calls of this request (a result may have come
 * first) and the calls of this request's results (stored earlier). A call `inserted` by this
 * request was written with its best result of the request, so it is updated only when a stored
 * result outranks that one. Whether the next turn's tool message named the call's id is copied
 * too (result_id_kept), whichever result wins. The call rollups count results and their latencies, so the update moves
 * each changed call's old result out of them and its new one in, in the same statement, which
 * also marks the changed calls' runs' kept spirals stale (a result may end or start a spiral).
 */
export async function recordResults(client: PoolClient, projectId: string, results: AssembledResult[], callIds: string[], inserted: string[]) {
  const ids = [...new Set([...callIds, ...results.map((r) => r.callId)])];
  if (!ids.length) return;
  await client.query(
    `WITH new AS (
       SELECT * FROM unnest($2::text[], $3::int2[], $4::text[], $5::text[], $6::int4[], $9::bool[]) AS n(call_id, priority, status, summary, latency_ms, id_kept)
     ), kept AS (
       INSERT INTO otlp_results (project_id, call_id, priority, status, summary, latency_ms, id_kept) SELECT $1::uuid, * FROM new ON CONFLICT DO NOTHING
     ), best AS (
       SELECT DISTINCT ON (call_id) call_id, status, summary, latency_ms, stored
         FROM (SELECT call_id, priority, status, summary, latency_ms, true AS stored FROM otlp_results WHERE project_id = $1 AND call_id = ANY($7::text[])
               UNION ALL SELECT call_id, priority, status, summary, latency_ms, false FROM new) r
        ORDER BY call_id, priority DESC, stored DESC
     ), changes AS (
       SELECT * FROM best WHERE stored OR NOT call_id = ANY($8::text[])
     ), updated AS (
       UPDATE tool_calls t SET result_status = r.status, result_summary = r.summary, latency_ms = r.latency_ms
         FROM changes r
        WHERE t.project_id = $1 AND t.id = ANY(array(SELECT call_id FROM changes)) AND t.id = r.call_id
          AND (t.result_status, t.result_summary, t.latency_ms) IS DISTINCT FROM (r.status, r.summary, r.latency_ms)
        RETURNING t.id, t.run_id, t.timestamp, t.tool, t.model_name, t.model_version, t.category, t.valid, t.result_status, t.result_summary, t.latency_ms
     ), moved AS (
       -- the statement's snapshot still holds the calls' old results: out with those, in with the new
       SELECT ${rollupResultInputs("t")}, -1 AS weight
         FROM tool_calls t WHERE t.project_id = $1 AND t.id IN (SELECT id FROM updated)
       UNION ALL SELECT ${rollupResultInputs()}, 1 FROM updated
     ), ${rollupResultCtes}, ${markSpiralRunsStale("updated")}
     SELECT count(*) FROM updated`,
    [
      projectId,
      results.map((x) => x.callId),
      results.map((x) => x.priority),
      results.map((x) => x.status),
      results.map((x) => x.summary ?? null),
      results.map((x) => x.latencyMs ?? null),
      ids,
      inserted,
      results.map((x) => x.idKept ?? null),
    ],
  );
  // whether the tool message that answered each touched call named its id (a second statement: the
  // one above may already update the same rows, and a row is updated once per statement)
  await client.query(
    `UPDATE tool_calls t SET result_id_kept = r.id_kept
       FROM (SELECT call_id, id_kept FROM otlp_results WHERE project_id = $1 AND call_id = ANY($2::text[]) AND priority = 1) r
      WHERE t.project_id = $1 AND t.id = ANY(array(SELECT call_id FROM otlp_results WHERE project_id = $1 AND call_id = ANY($2::text[]) AND priority = 1))
        AND t.id = r.call_id AND t.result_id_kept IS DISTINCT FROM r.id_kept`,
    [projectId, ids],
  );
}

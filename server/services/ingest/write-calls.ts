import type { PoolClient } from "pg";
import type { ToolCallEvent } from "../../../contracts/event";
import { patternOf } from "../../domain/failure-patterns";
import { recoveredSql } from "../rollups/tables";
import { rollupInsertCtes, rollupLinkCtes } from "../rollups/write";
import { runOrderSql } from "../../domain/run-order";
import type { CallVerdict } from "../../domain/verdicts";

export type PreparedCall = { event: ToolCallEvent; verdict: CallVerdict };

/** Column name → SQL array type and how to read it from a prepared call. */
const COLUMNS: [string, string, (c: PreparedCall) => unknown][] = [
  ["id", "text", (c) => c.event.id],
  ["run_id", "text", (c) => c.event.runId],
  ["step", "int4", (c) => c.event.step ?? null],
  ["timestamp", "timestamptz", (c) => c.event.timestamp],
  ["model_provider", "text", (c) => c.event.model.provider ?? null],
  ["model_name", "text", (c) => c.event.model.name],
  ["model_version", "text", (c) => c.event.model.version ?? null],
  ["tool", "text", (c) => c.event.tool],
  ["arguments", "jsonb", (c) => JSON.stringify(c.event.arguments)],
  ["valid", "bool", (c) => c.verdict.valid],
  ["category", "text", (c) => c.verdict.category],
  ["message", "text", (c) => c.verdict.message],
  ["harness_valid", "bool", (c) => c.event.outcome?.valid ?? null],
  ["harness_category", "text", (c) => c.event.outcome?.category ?? null],
  ["harness_message", "text", (c) => c.event.outcome?.message ?? null],
  ["checked_valid", "bool", (c) => c.verdict.checked?.valid ?? null],
  ["checked_category", "text", (c) => c.verdict.checked?.category ?? null],
  ["checked_message", "text", (c) => c.verdict.checked?.message ?? null],
  ["checked_path", "text", (c) => c.verdict.checked?.path ?? null],
  ["checked_version", "text", (c) => c.verdict.checked?.version ?? null],
  ["violations", "jsonb", (c) => JSON.stringify(c.verdict.checked?.violations ?? [])],
  ["verdicts_differ", "bool", (c) => c.verdict.differ],
  ["result_status", "text", (c) => c.event.result?.status ?? null],
  ["result_summary", "text", (c) => c.event.result?.summary ?? null],
  ["latency_ms", "int4", (c) => c.event.result?.latencyMs ?? null],
  ["corrects_id", "text", (c) => c.event.correctsId ?? null],
  ["input_tokens", "int4", (c) => c.event.usage?.inputTokens ?? null],
  ["output_tokens", "int4", (c) => c.event.usage?.outputTokens ?? null],
  ["cost_usd", "float8", (c) => c.event.usage?.costUsd ?? null],
  ["tool_version", "text", (c) => c.event.toolVersion ?? null],
  ["metadata", "jsonb", (c) => JSON.stringify(c.event.metadata ?? {})],
  ["pattern", "text", (c) => patternOf({ ...c.event, ...c.verdict, violations: c.verdict.checked?.violations })],
];

const names = COLUMNS.map(([name]) => `"${name}"`).join(", ");
const unnest = COLUMNS.map(([, type], i) => `$${i + 2}::${type}[]`).join(", ");

/**
 * One statement per batch: insert the calls (a re-sent id is skipped), and add only the
 * newly inserted ones to the hourly and daily rollups. Hours and days are UTC.
 */
const INSERT_SQL = `
WITH ins AS (
  INSERT INTO tool_calls (project_id, ${names})
  SELECT $1::uuid, * FROM unnest(${unnest}) ORDER BY 2
  ON CONFLICT (project_id, id) DO NOTHING
  RETURNING id, run_id, timestamp, tool, model_name, model_version, category, message, valid, input_tokens, output_tokens, cost_usd
), ${rollupInsertCtes}
SELECT run_id, count(*)::int AS inserted FROM ins GROUP BY run_id`;

/**
 * Links each invalid call of the touched runs to its next corrected call (docs/pairing.md):
 * the call naming it in corrects_id, otherwise the next call of the run, in run order
 * (runOrderSql), that names the same tool. This is the only place the rule is applied:
 * every read follows the stored `correction_id`. Recomputed per run, so corrections that arrive
 * before, with or after the invalid call all end up linked. Each change of a link is
 * applied to the rollups: `corrected` (calls) and `followed`/`recovered` (messages).
 * Runs and ids go in as arrays (`= ANY`), which index scans take as their condition, rather
 * than as joins: for a project that the table's statistics do not know yet (a new one, or
 * any until the next ANALYZE) the planner expects one row, and a join then scanned all of
 * the project's calls once per invalid call of the batch (docs/PERFORMANCE.md).
 */
const PAIR_SQL = `
WITH runs AS (
  SELECT array(SELECT unnest($2::text[]) UNION SELECT run_id FROM tool_calls WHERE project_id = $1 AND id = ANY($3::text[])) AS ids
), ordered AS (
  SELECT c.id, c.valid, c.correction_id AS previous,
         lead(c.id) OVER (PARTITION BY c.run_id, c.tool ORDER BY ${runOrderSql("c")}) AS next_id
    FROM tool_calls c WHERE c.project_id = $1 AND c.run_id = ANY((SELECT ids FROM runs)::text[])
), explicit AS (
  SELECT DISTINCT ON (corrects_id) corrects_id, id FROM tool_calls
   WHERE project_id = $1 AND corrects_id = ANY(array(SELECT id FROM ordered WHERE valid = false))
   ORDER BY corrects_id, ${runOrderSql()}
), changed AS (
  UPDATE tool_calls t SET correction_id = coalesce(e.id, o.next_id)
    FROM ordered o LEFT JOIN explicit e ON e.corrects_id = o.id
   WHERE t.project_id = $1 AND t.id = ANY(array(SELECT id FROM ordered WHERE valid = false)) AND t.id = o.id AND o.valid = false
     AND t.correction_id IS DISTINCT FROM coalesce(e.id, o.next_id)
  RETURNING t.timestamp, t.tool, t.model_name, t.model_version, t.category, t.message,
            (o.previous IS NULL)::int - (t.correction_id IS NULL)::int AS followed,
            ${recoveredSql("t.correction_id")} - ${recoveredSql("o.previous")} AS recovered
), ${rollupLinkCtes}
SELECT`;

/** Writes the calls in the caller's transaction; returns how many were new. */
export async function writeCalls(client: PoolClient, projectId: string, calls: PreparedCall[]): Promise<number> {
  if (!calls.length) return 0;
  const columns = COLUMNS.map(([, , read]) => calls.map(read));
  const { rows } = await client.query<{ run_id: string; inserted: number }>(INSERT_SQL, [projectId, ...columns]);
  const correctsIds = calls.flatMap((c) => (c.event.correctsId ? [c.event.correctsId] : []));
  if (rows.length)
    await pairRuns(
      client,
      projectId,
      rows.map((r) => r.run_id),
      correctsIds,
    );
  return rows.reduce((sum, r) => sum + r.inserted, 0);
}

/** Re-links the invalid calls of these runs (and of the runs of `correctsIds`) to their corrections, rollups included. */
export async function pairRuns(client: PoolClient, projectId: string, runIds: string[], correctsIds: string[] = []): Promise<void> {
  await client.query(PAIR_SQL, [projectId, runIds, correctsIds]);
}

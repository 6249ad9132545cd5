import type { PoolClient } from "pg";
import type { ToolCallEvent } from "../../../contracts/event";
import { patternOf } from "../../domain/failure-patterns";
import { recoveredSql } from "../rollups/tables";
import { rollupInsertCtes, rollupLinkCtes } from "../rollups/write";
import { runOrderSql, sameToolNeighbourSql } from "../../domain/run-order";
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
 * newly inserted ones to the hourly and daily rollups. Hours and days are UTC. Returns the
 * ids it inserted.
 */
const INSERT_SQL = `
WITH ins AS (
  INSERT INTO tool_calls (project_id, ${names})
  SELECT $1::uuid, * FROM unnest(${unnest}) ORDER BY 2
  ON CONFLICT (project_id, id) DO NOTHING
  RETURNING id, run_id, timestamp, tool, model_name, model_version, category, message, valid, input_tokens, output_tokens, cost_usd
), ${rollupInsertCtes}
SELECT coalesce(array_agg(id), '{}') AS ids FROM ins`;

/**
 * Links invalid calls to their next corrected call (docs/pairing.md): the earliest call, in
 * run order, naming it in corrects_id, otherwise the next call of its run, in run order, that
 * names the same tool. This is the only place the rule is applied: every read follows the
 * stored `correction_id`. Each change of a link is applied to the rollups: `corrected`
 * (calls) and `followed`/`recovered` (messages).
 *
 * Only the links a batch can change are recomputed, which is what keeps a batch's cost
 * independent of the length of the runs it touches: the new invalid calls ($2), the calls the
 * new ones name in corrects_id, and the call right before each new one among its run's calls
 * of the same tool (its next same-tool call may now be the new one). A correction that arrives
 * before, with or after the invalid call thus ends up linked the same way. `$3` names runs to
 * recompute whole (OTLP renumbers a run's steps, which may move any of its calls).
 * Every lookup is one index descent ordered by the run order (sameToolNeighbourSql), and ids
 * go in as arrays (`= ANY`) rather than joins, so the plan does not depend on the table's
 * statistics, which for a new project (or new runs) predate its rows (docs/PERFORMANCE.md).
 */
const PAIR_SQL = `
WITH new AS (
  SELECT id, run_id, tool, step, timestamp, corrects_id, valid FROM tool_calls WHERE project_id = $1 AND id = ANY($2::text[])
), targets AS (
  SELECT id FROM new WHERE valid = false
  UNION SELECT corrects_id FROM new WHERE corrects_id IS NOT NULL
  UNION SELECT ${sameToolNeighbourSql("new", "previous")} FROM new
  UNION SELECT id FROM tool_calls WHERE cardinality($3::text[]) > 0 AND project_id = $1 AND run_id = ANY($3::text[]) AND valid = false
), links AS (
  SELECT t.id, t.correction_id AS previous,
         coalesce((SELECT e.id FROM tool_calls e WHERE e.project_id = $1 AND e.corrects_id = t.id ORDER BY ${runOrderSql("e")} LIMIT 1),
                  ${sameToolNeighbourSql("t", "next")}) AS correction
    FROM tool_calls t
   WHERE t.project_id = $1 AND t.id = ANY(array(SELECT id FROM targets WHERE id IS NOT NULL)) AND t.valid = false
), changed AS (
  UPDATE tool_calls t SET correction_id = l.correction
    FROM links l
   WHERE t.project_id = $1 AND t.id = ANY(array(SELECT id FROM links)) AND t.id = l.id
     AND t.correction_id IS DISTINCT FROM l.correction
  RETURNING t.timestamp, t.tool, t.model_name, t.model_version, t.category, t.message,
            (l.previous IS NULL)::int - (t.correction_id IS NULL)::int AS followed,
            ${recoveredSql("t.correction_id")} - ${recoveredSql("l.previous")} AS recovered
), ${rollupLinkCtes}
SELECT`;

/** Writes the calls in the caller's transaction; returns the ids of those that were new. */
export async function writeCalls(client: PoolClient, projectId: string, calls: PreparedCall[]): Promise<string[]> {
  if (!calls.length) return [];
  const columns = COLUMNS.map(([, , read]) => calls.map(read));
  const { rows } = await client.query<{ ids: string[] }>(INSERT_SQL, [projectId, ...columns]);
  const inserted = rows[0]?.ids ?? [];
  if (inserted.length) await client.query(PAIR_SQL, [projectId, inserted, []]);
  return inserted;
}

/** Re-links every invalid call of these runs to its correction, rollups included (after their steps were renumbered). */
export async function pairRuns(client: PoolClient, projectId: string, runIds: string[]): Promise<void> {
  await client.query(PAIR_SQL, [projectId, [], runIds]);
}

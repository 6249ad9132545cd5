import type { PoolClient } from "pg";
import type { ToolCallEvent } from "../../../contracts/event";
import { patternOf } from "../../domain/failure-patterns";
import { CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS, granularities, messageKey } from "../metrics/rollup-source";
import type { CallVerdict } from "./verdicts";

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

const MESSAGE_KEY = messageKey("message");

type Granularity = ReturnType<typeof granularities>[number];

/** Adds the new calls (`ins`) to one of the call rollups. Sorted, so that concurrent batches lock rows in one order. */
const addToCallRollup = ({ table, column, bucket }: Granularity) => `
  INSERT INTO ${table} AS r (project_id, ${column}, tool, model_name, model_version, category, calls, invalid, input_tokens, output_tokens, cost_usd)
  SELECT $1::uuid, ${bucket("timestamp")}, tool, model_name, coalesce(model_version, ''), coalesce(category, ''),
         count(*), count(*) FILTER (WHERE valid = false), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_usd), 0)
    FROM ins GROUP BY 2, 3, 4, 5, 6 ORDER BY 2, 3, 4, 5, 6
  ON CONFLICT (project_id, ${column}, tool, model_name, model_version, category) DO UPDATE SET
    calls = r.calls + excluded.calls, invalid = r.invalid + excluded.invalid, input_tokens = r.input_tokens + excluded.input_tokens,
    output_tokens = r.output_tokens + excluded.output_tokens, cost_usd = r.cost_usd + excluded.cost_usd`;

/** Adds the new invalid calls' messages to one of the error-message rollups. */
const addToMessageRollup = ({ table, column, bucket }: Granularity) => `
  INSERT INTO ${table} AS r (project_id, ${column}, tool, message_hash, message, sent)
  SELECT $1::uuid, ${bucket("timestamp")}, tool, ${MESSAGE_KEY}, coalesce(message, ''), count(*)
    FROM ins WHERE valid = false GROUP BY 2, 3, 4, 5 ORDER BY 2, 3, 4
  ON CONFLICT (project_id, ${column}, tool, message_hash) DO UPDATE SET sent = r.sent + excluded.sent`;

/** One data-modifying CTE per rollup table (both granularities of the call and the message rollups). */
const ROLLUP_WRITES = (calls: (g: Granularity) => string, messages: (g: Granularity) => string) =>
  [...granularities(CALL_ROLLUPS).map(calls), ...granularities(ERROR_MESSAGE_ROLLUPS).map(messages)].map((sql, i) => `rollup_${i} AS (${sql}\n)`).join(", ");

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
), ${ROLLUP_WRITES(addToCallRollup, addToMessageRollup)}
SELECT run_id, count(*)::int AS inserted FROM ins GROUP BY run_id`;

/** Applies `changed` (the re-linked invalid calls) to one call rollup's `corrected` count. */
const correctCallRollup = ({ table, column, bucket }: Granularity) => `
  UPDATE ${table} r SET corrected = r.corrected + c.change
    FROM (SELECT ${bucket("timestamp")} AS bucket, tool, model_name, coalesce(model_version, '') AS model_version, coalesce(category, '') AS category,
                 sum(followed) AS change
            FROM changed GROUP BY 1, 2, 3, 4, 5 HAVING sum(followed) <> 0) c
   WHERE r.project_id = $1 AND r.${column} = c.bucket AND r.tool = c.tool AND r.model_name = c.model_name
     AND r.model_version = c.model_version AND r.category = c.category`;

/** Applies `changed` to one error-message rollup's `followed` and `recovered` counts. */
const correctMessageRollup = ({ table, column, bucket }: Granularity) => `
  UPDATE ${table} r SET followed = r.followed + c.followed, recovered = r.recovered + c.recovered
    FROM (SELECT ${bucket("timestamp")} AS bucket, tool, ${MESSAGE_KEY} AS message_hash, sum(followed) AS followed, sum(recovered) AS recovered
            FROM changed GROUP BY 1, 2, 3 HAVING sum(followed) <> 0 OR sum(recovered) <> 0) c
   WHERE r.project_id = $1 AND r.${column} = c.bucket AND r.tool = c.tool AND r.message_hash = c.message_hash`;

/** 1 when a call's correction led somewhere: it exists and is not itself an invalid call. */
const recovered = (correction: string) =>
  `(${correction} IS NOT NULL AND NOT EXISTS (SELECT FROM tool_calls f WHERE f.project_id = $1 AND f.id = ${correction} AND f.valid = false))::int`;

/**
 * Links each invalid call of the touched runs to its next corrected call (DESIGN.md):
 * the call naming it in corrects_id, otherwise the next call of the run, in step then
 * time order, that names the same tool. Recomputed per run, so corrections that arrive
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
         lead(c.id) OVER (PARTITION BY c.run_id, c.tool ORDER BY c.step NULLS LAST, c.timestamp, c.id) AS next_id
    FROM tool_calls c WHERE c.project_id = $1 AND c.run_id = ANY((SELECT ids FROM runs)::text[])
), explicit AS (
  SELECT DISTINCT ON (corrects_id) corrects_id, id FROM tool_calls
   WHERE project_id = $1 AND corrects_id = ANY(array(SELECT id FROM ordered WHERE valid = false))
   ORDER BY corrects_id, step NULLS LAST, timestamp, id
), changed AS (
  UPDATE tool_calls t SET correction_id = coalesce(e.id, o.next_id)
    FROM ordered o LEFT JOIN explicit e ON e.corrects_id = o.id
   WHERE t.project_id = $1 AND t.id = ANY(array(SELECT id FROM ordered WHERE valid = false)) AND t.id = o.id AND o.valid = false
     AND t.correction_id IS DISTINCT FROM coalesce(e.id, o.next_id)
  RETURNING t.timestamp, t.tool, t.model_name, t.model_version, t.category, t.message,
            (o.previous IS NULL)::int - (t.correction_id IS NULL)::int AS followed,
            ${recovered("t.correction_id")} - ${recovered("o.previous")} AS recovered
), ${ROLLUP_WRITES(correctCallRollup, correctMessageRollup)}
SELECT`;

/** Writes the calls in the caller's transaction; returns how many were new. */
export async function writeCalls(client: PoolClient, projectId: string, calls: PreparedCall[]): Promise<number> {
  if (!calls.length) return 0;
  const columns = COLUMNS.map(([, , read]) => calls.map(read));
  const { rows } = await client.query<{ run_id: string; inserted: number }>(INSERT_SQL, [projectId, ...columns]);
  const correctsIds = calls.flatMap((c) => (c.event.correctsId ? [c.event.correctsId] : []));
  if (rows.length) await client.query(PAIR_SQL, [projectId, rows.map((r) => r.run_id), correctsIds]);
  return rows.reduce((sum, r) => sum + r.inserted, 0);
}

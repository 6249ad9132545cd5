// The rollup tables (docs/rollups.md): their catalogue and bucket expressions. This folder owns
// everything about them: the catalogue (here), the incremental writes of ingestion (write.ts),
// the computation from raw calls (rebuild.ts), the range reader (read.ts) and the statements that
// answer the analytics read port over them (analytics.ts: what the dashboards and alerts read).
import { latencyBucketSql } from "../../../isomorphic/latency-histogram";
import { emptyResultSql, FAILED_OUTCOMES, statusesOf, type FailedOutcome } from "../../../isomorphic/outcome";

/** Rollup buckets of a timestamp column: its UTC hour, and its UTC day (date_bin is arithmetic, no time zone lookup). */
export const hourOf = (column: string) => `date_trunc('hour', ${column}, 'UTC')`;
export const dayOf = (column: string) => `date_bin('1 day', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;

/** The key of a message in the error-message rollups (messages are free text, too long for a B-tree key). */
export const messageKey = (column: string) => `md5(coalesce(${column}, ''))::uuid`;

/**
 * A rollup kept twice, per UTC hour (`hour`) and per UTC day (`day`), with the same other columns
 * (`keys` first: what a row is counted per, after the project and the bucket). `coarse`: the same
 * rollup per UTC day and fewer keys, for the reads that need none of the keys it drops (their
 * partial days come from the hourly table, which has every key). A coarse table is not written by
 * ingestion: it is recomputed from the daily rows of the days marked in STALE_DAYS (coarse.ts), and
 * until then a read takes those days from the daily rows (`fullDaily`, set by tablesFor; read.ts).
 */
export type RollupTables = { hourly: string; daily: string; keys: string[]; columns: string; coarse?: CoarseRollup[]; fullDaily?: string };
type CoarseRollup = Pick<RollupTables, "daily" | "keys" | "columns">;

/**
 * The days whose coarse call rollups lag the daily rows (project_id, day): every statement that
 * writes the daily call rollups marks the days it wrote to (write.ts), and the worker's refresh
 * recomputes them and clears their marks (coarse.ts).
 */
export const STALE_DAYS = "call_rollups_stale_days";

const CALL_COUNTS =
  "calls, invalid, unchecked, corrected, input_tokens, output_tokens, cost_usd, results, tool_errors, not_found, timeouts, not_allowed, empty_results, latency_hist";

/**
 * The call rollups per tool, model version and category; and (`coarse`) per day, tool and
 * category, and per day and model version. A day of 10 million calls a month is ~1,850 rows with
 * every key, ~430 without the model and 5 per model version alone: the totals, the tools table
 * and the series per tool or category need no model, the models page's series, table and
 * latencies neither tool nor category. Daily only: the daily rows are where a long range's rows
 * are. Kept from the daily rows in the background, not by each batch: a batch's coarse rows are
 * about as many as its daily rows when its calls span many days, and adding to them was a tenth of
 * ingestion's CPU (docs/PERFORMANCE.md). A read takes the first that has its keys.
 */
export const CALL_ROLLUPS: RollupTables = {
  hourly: "call_rollups_hourly",
  daily: "call_rollups_daily",
  keys: ["tool", "model_name", "model_version", "category"],
  columns: `tool, model_name, model_version, category, ${CALL_COUNTS}`,
  coarse: [
    { daily: "call_rollups_tool_daily", keys: ["tool", "category"], columns: `tool, category, ${CALL_COUNTS}` },
    { daily: "call_rollups_model_daily", keys: ["model_name", "model_version"], columns: `model_name, model_version, ${CALL_COUNTS}` },
  ],
};

/** A call rollup key column as computed from a call's columns ('' for none). */
export const callKeyOf = (key: string, alias = "") => (key === "model_version" || key === "category" ? `coalesce(${alias}${key}, '')` : `${alias}${key}`);

/**
 * The tables of a rollup that answer a read using these key columns (filters, groups): the first
 * of its coarse daily tables that has them all, with the hourly table (read for its columns), or the rollup's own.
 */
export function tablesFor(tables: RollupTables, keys: string[]): RollupTables {
  const coarse = tables.coarse?.find((c) => keys.every((k) => c.keys.includes(k)));
  return coarse ? { hourly: tables.hourly, ...coarse, fullDaily: tables.daily } : tables;
}

/**
 * A rollup's columns summed over several rows of one key (`keys`, then each count summed and the
 * latency histograms added up), for a GROUP BY of the bucket and the key columns.
 */
export function summedColumns({ keys, columns }: Pick<RollupTables, "keys" | "columns">) {
  const counts = columns.split(", ").slice(keys.length);
  return [...keys, ...counts.map((c) => (c === "latency_hist" ? "toolgate_hist_sum(latency_hist) AS latency_hist" : `sum(${c}) AS ${c}`))].join(", ");
}

/**
 * A coarse table's rows (the day, then its columns) computed from the full daily call rollups
 * whose columns are unqualified and match `where`: what the refresh stores (coarse.ts).
 */
export const coarseFromDaily = (coarse: Pick<RollupTables, "keys" | "columns">, where: string) =>
  `SELECT day, ${summedColumns(coarse)} FROM ${CALL_ROLLUPS.daily} WHERE ${where} GROUP BY day, ${coarse.keys.join(", ")}`;

/** The call rollups' column that counts each failed execution outcome (isomorphic/outcome.ts). */
const OUTCOME_COLUMNS: Record<FailedOutcome, string> = {
  tool_error: "tool_errors",
  not_found: "not_found",
  timeout: "timeouts",
  not_allowed: "not_allowed",
};

const quoted = (values: string[]) => values.map((v) => `'${v}'`).join(", ");
/** A call that ran (not invalid) and reported a result: the calls the outcome columns count; over the columns of a table alias when given. */
export const hasResultOf = (alias?: string) => {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${column("valid")} IS DISTINCT FROM false AND ${column("result_status")} IS NOT NULL`;
};
export const HAS_RESULT = hasResultOf();

/**
 * A call's part in the call rollups' outcome columns, one column each, over the columns `valid`,
 * `result_status`, `result_summary` and `latency_ms` (of `alias` when given): `o_results`, one
 * `o_<column>` per failed outcome and `o_empty_results` (0 or 1), and `o_bucket`, its latency's
 * 1-based bucket (null when it has none). Computed once per call — in ingestion's RETURNING, in the
 * results OTLP moves, in the rebuilds' scan — and summed by outcomeAggregates for each rollup
 * table, so that the outcome tests and the empty-result test's regular expressions run once per
 * call, not once per table (docs/PERFORMANCE.md).
 */
export const outcomeInputs = (alias?: string) => {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  const hasResult = hasResultOf(alias);
  return [
    `(${hasResult})::int AS o_results`,
    ...FAILED_OUTCOMES.map((o) => `(${hasResult} AND ${column("result_status")} IN (${quoted(statusesOf(o))}))::int AS o_${OUTCOME_COLUMNS[o]}`),
    `(${hasResult} AND ${emptyResultSql(column("result_status"), column("result_summary"))})::int AS o_empty_results`,
    `CASE WHEN ${hasResult} AND ${column("latency_ms")} IS NOT NULL THEN ${latencyBucketSql(column("latency_ms"))} END AS o_bucket`,
  ].join(", ");
};

/**
 * The call rollups' outcome columns (`results`, one per failed outcome, `empty_results`,
 * `latency_hist`) as aggregates over calls with their outcomeInputs, each call weighted by
 * `weight` (1, or -1 to take a call's old result out): for ingestion's inserts, the results OTLP
 * moves and the rebuilds.
 */
export const outcomeAggregates = (weight = "1") => {
  const weighted = (column: string) => (weight === "1" ? column : `${weight} * ${column}`);
  return [
    ...OUTCOME_COUNT_COLUMNS.map((c) => `coalesce(sum(${weighted(`o_${c}`)}), 0) AS ${c}`),
    // one bucket (most groups of a batch spread over many hours hold one call): built here, without a function call
    `CASE WHEN count(o_bucket) = 0 THEN '{}'::bigint[]
          WHEN min(o_bucket) = max(o_bucket) THEN CASE WHEN sum(${weight}) FILTER (WHERE o_bucket IS NOT NULL) = 0 THEN '{}'::bigint[]
                                                       ELSE array_fill((sum(${weight}) FILTER (WHERE o_bucket IS NOT NULL))::bigint, ARRAY[1], ARRAY[min(o_bucket)]) END
          ELSE toolgate_hist_of(array_agg(o_bucket) FILTER (WHERE o_bucket IS NOT NULL), array_agg(${weight}) FILTER (WHERE o_bucket IS NOT NULL)) END AS latency_hist`,
  ].join(", ");
};

/** The columns of the failed results, one per failed outcome: their sum is a row's failed results. */
export const FAILED_COUNT_COLUMNS = FAILED_OUTCOMES.map((o) => OUTCOME_COLUMNS[o]);

/** The outcome columns, in the order of outcomeAggregates. */
export const OUTCOME_COUNT_COLUMNS = ["results", ...FAILED_COUNT_COLUMNS, "empty_results"];

export const ERROR_MESSAGE_ROLLUPS: RollupTables = {
  hourly: "error_message_rollups_hourly",
  daily: "error_message_rollups_daily",
  keys: ["tool", "message_hash"],
  columns: "tool, message_hash, message, sent, followed, recovered",
};

/**
 * Every table of a rollup (its coarse ones too, `coarse`: kept from the daily rows, not by
 * ingestion): each with its time column, the bucket expression of a timestamp column, its key
 * columns and all its columns but the project and the bucket.
 */
export const granularities = (
  tables: RollupTables,
): { table: string; column: "hour" | "day"; bucket: (column: string) => string; keys: string[]; columns: string; coarse: boolean }[] => [
  { table: tables.hourly, column: "hour", bucket: hourOf, keys: tables.keys, columns: tables.columns, coarse: false },
  { table: tables.daily, column: "day", bucket: dayOf, keys: tables.keys, columns: tables.columns, coarse: false },
  ...(tables.coarse ?? []).map((c) => ({ table: c.daily, column: "day" as const, bucket: dayOf, keys: c.keys, columns: c.columns, coarse: true })),
];

/** The tables of a rollup that statements add to or recompute from raw calls: hourly and daily, not the coarse ones (kept by coarse.ts). */
export const incrementalTables = (tables: RollupTables) => granularities(tables).filter((g) => !g.coarse);

/**
 * Every rollup table, call and error-message rollups, and the coarse tables' stale days, with its
 * time column: what the retention sweep and project deletion go through.
 */
export const ROLLUP_TABLES = [
  ...[CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS].flatMap(granularities).map(({ table, column }) => ({ table, column })),
  { table: STALE_DAYS, column: "day" as const },
];

/**
 * Whether an invalid call's correction (a column or expression of `tool_calls`, in a statement
 * whose $1 is the project) recovered it: the correction exists and is not itself invalid. Looked
 * up by the correction's primary key; `tool_calls.recovered` stores it per invalid call (the
 * pairing statement sets it with each link, server/services/ingest/write-calls.ts), for the reads
 * that would otherwise look it up call by call (the schema doctor's patterns).
 */
export const recoveredTest = (correction: string) =>
  `(${correction} IS NOT NULL AND NOT EXISTS (SELECT FROM tool_calls f WHERE f.project_id = $1 AND f.id = ${correction} AND f.valid = false))`;
/** The same, as 1 or 0 (a count). */
export const recoveredSql = (correction: string) => `${recoveredTest(correction)}::int`;

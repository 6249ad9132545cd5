// The rollup tables (docs/rollups.md): their catalogue and bucket expressions. This folder owns
// everything about them: the catalogue (here), the incremental writes of ingestion (write.ts),
// the computation from raw calls (rebuild.ts) and the range reads of the dashboards and alerts (read.ts).

/** Rollup buckets of a timestamp column: its UTC hour, and its UTC day (date_bin is arithmetic, no time zone lookup). */
export const hourOf = (column: string) => `date_trunc('hour', ${column}, 'UTC')`;
export const dayOf = (column: string) => `date_bin('1 day', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;

/** The key of a message in the error-message rollups (messages are free text, too long for a B-tree key). */
export const messageKey = (column: string) => `md5(coalesce(${column}, ''))::uuid`;

/** A rollup kept twice, per UTC hour (`hour`) and per UTC day (`day`), with the same other columns. */
export type RollupTables = { hourly: string; daily: string; columns: string };

export const CALL_ROLLUPS: RollupTables = {
  hourly: "call_rollups_hourly",
  daily: "call_rollups_daily",
  columns: "tool, model_name, model_version, category, calls, invalid, corrected, input_tokens, output_tokens, cost_usd",
};

export const ERROR_MESSAGE_ROLLUPS: RollupTables = {
  hourly: "error_message_rollups_hourly",
  daily: "error_message_rollups_daily",
  columns: "tool, message_hash, message, sent, followed, recovered",
};

/** The two tables of a rollup: each with its time column and the bucket expression of a timestamp column. */
export const granularities = (tables: RollupTables) => [
  { table: tables.hourly, column: "hour" as const, bucket: hourOf },
  { table: tables.daily, column: "day" as const, bucket: dayOf },
];

/**
 * 1 when an invalid call's correction (a column or expression of `tool_calls`, in a statement
 * whose $1 is the project) recovered it: the correction exists and is not itself invalid.
 */
export const recoveredSql = (correction: string) =>
  `(${correction} IS NOT NULL AND NOT EXISTS (SELECT FROM tool_calls f WHERE f.project_id = $1 AND f.id = ${correction} AND f.valid = false))::int`;

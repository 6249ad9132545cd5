import { splitRange, type Span } from "../../domain/rollup-range";

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
  { table: tables.hourly, column: "hour", bucket: hourOf },
  { table: tables.daily, column: "day", bucket: dayOf },
];

/** Column = value filters; undefined ones are left out. */
export type Filters = Record<string, string | null | undefined>;

/** ` AND column = $n` for each filter that has a value, its values appended to `params`. */
export function filterSql(filters: Filters, params: unknown[]): string {
  return Object.entries(filters)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== null)
    .map(([column, value]) => ` AND ${column} = $${params.push(value)}`)
    .join("");
}

/**
 * A FROM item (`(…) r`) with the rollup rows of a project over a range: whole UTC days from the
 * daily table, the partial first and last day from the hourly one, each part a range scan of
 * its primary key. Every row has an `hour` column (a day's rows: its midnight). With `hourly`,
 * everything comes from the hourly table (for hour buckets). Parameters: `params`, appended to.
 */
export function rollupRows(tables: RollupTables, projectId: string, range: Span, filters: Filters, params: unknown[], hourly = false): string {
  const param = (value: unknown) => `$${params.push(value)}`;
  const project = param(projectId);
  const filtered = filterSql(filters, params);
  const split = splitRange(range, !hourly);
  const part = (table: string, column: string, span: Span) =>
    `SELECT ${column} AS hour, ${tables.columns} FROM ${table}
      WHERE project_id = ${project}::uuid AND ${column} >= ${param(span.from)} AND ${column} < ${param(span.to)}${filtered}`;
  const parts = [...split.hours.map((span) => part(tables.hourly, "hour", span)), ...(split.days ? [part(tables.daily, "day", split.days)] : [])];
  // an empty range still needs a well-formed FROM item
  if (!parts.length) parts.push(`${part(tables.hourly, "hour", range)} AND false`);
  return `(${parts.join("\n UNION ALL ")}) r`;
}

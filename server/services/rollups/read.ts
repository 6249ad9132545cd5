import { DAY_MS } from "../../../contracts/metrics";
import { splitRange, type Span } from "../../domain/rollup-range";
import { STALE_DAYS, type RollupTables } from "./tables";

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
 *
 * A partial day whose other hours hold no rows (today, up to now; the first day of the data) is
 * its day's rows: those come from the daily table instead, a quarter of the rows or fewer (which
 * of the two, the statement decides: both parts are there, each under its condition).
 *
 * From a coarse table (`fullDaily` set), a day marked stale (tables.ts, STALE_DAYS) comes from the
 * full daily rows, its columns only (several rows per key, as from the hourly table: every reader
 * sums its rows per key), whose sums are what the worker's refresh will store.
 */
export function rollupRows(tables: RollupTables, projectId: string, range: Span, filters: Filters, params: unknown[], hourly = false): string {
  const param = (value: unknown) => `$${params.push(value)}`;
  const project = param(projectId);
  const filtered = filterSql(filters, params);
  const split = splitRange(range, !hourly);
  const part = (table: string, column: string, span: Span, condition = "") => {
    const where = `project_id = ${project}::uuid AND ${column} >= ${param(span.from)} AND ${column} < ${param(span.to)}${filtered}${condition}`;
    if (table !== tables.daily || !tables.fullDaily) return `SELECT ${column} AS hour, ${tables.columns} FROM ${table} WHERE ${where}`;
    const stale = `day = ANY(array(SELECT day FROM ${STALE_DAYS} WHERE project_id = ${project}::uuid AND day >= ${param(span.from)} AND day < ${param(span.to)}))`;
    return `SELECT day AS hour, ${tables.columns} FROM ${table} WHERE ${where} AND NOT ${stale}
      UNION ALL SELECT day AS hour, ${tables.columns} FROM ${tables.fullDaily} WHERE ${where} AND ${stale}`;
  };
  const partialDay = (span: Span) => {
    const midnight = Math.floor(span.from.getTime() / DAY_MS) * DAY_MS;
    const day = { from: new Date(midnight), to: new Date(midnight + DAY_MS) };
    const other = [
      { from: day.from, to: span.from },
      { from: span.to, to: day.to },
    ].filter((s) => s.to > s.from);
    const alone = `NOT (${other.map((s) => `EXISTS (SELECT FROM ${tables.hourly} WHERE project_id = ${project}::uuid AND hour >= ${param(s.from)} AND hour < ${param(s.to)})`).join(" OR ")})`;
    return [part(tables.daily, "day", day, ` AND ${alone}`), part(tables.hourly, "hour", span, ` AND NOT ${alone}`)];
  };
  const parts = split.days
    ? [...split.hours.flatMap(partialDay), part(tables.daily, "day", split.days)]
    : split.hours.map((span) => part(tables.hourly, "hour", span));
  // an empty range still needs a well-formed FROM item
  if (!parts.length) parts.push(`${part(tables.hourly, "hour", range)} AND false`);
  return `(${parts.join("\n UNION ALL ")}) r`;
}

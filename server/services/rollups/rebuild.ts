import type { ClientBase } from "pg";
import { inTransaction } from "../../db/transaction";
import { filterSql, type Filters } from "./read";
import { lockRollups } from "./write";
import {
  CALL_ROLLUPS,
  callKeyOf,
  dayOf,
  ERROR_MESSAGE_ROLLUPS,
  granularities,
  hourOf,
  incrementalTables,
  messageKey,
  outcomeAggregates,
  outcomeInputs,
  recoveredSql,
  recoveredTest,
  STALE_DAYS,
} from "./tables";

const callRollup = (bucket: string, where = "project_id = $1", keys = CALL_ROLLUPS.keys) => `
  SELECT project_id, ${bucket} AS bucket, ${keys.map((k) => `${callKeyOf(k)} AS ${k}`).join(", ")},
         count(*) AS calls, count(*) FILTER (WHERE valid = false) AS invalid, count(*) FILTER (WHERE valid IS NULL) AS unchecked,
         count(*) FILTER (WHERE valid = false AND correction_id IS NOT NULL) AS corrected,
         coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens, coalesce(sum(cost_usd), 0) AS cost_usd,
         ${outcomeAggregates()}
    FROM (SELECT *, ${outcomeInputs()} FROM tool_calls WHERE ${where}) c GROUP BY ${keyPlaces(keys.length, 1)} ORDER BY ${keyPlaces(keys.length, 2)}`;

/** `from, …, keys + 2`: the project, the bucket and the key columns by their places in the SELECT. */
const keyPlaces = (keys: number, from: number) => Array.from({ length: keys + 3 - from }, (_, i) => i + from).join(", ");

const messageRollup = (bucket: string, where = "x.project_id = $1") => `
  SELECT x.project_id, ${bucket} AS bucket, x.tool, ${messageKey("x.message")} AS message_hash, coalesce(x.message, '') AS message,
         count(*) AS sent, count(x.correction_id) AS followed, sum(${recoveredSql("x.correction_id")}) AS recovered
    FROM tool_calls x
   WHERE ${where} AND x.valid = false
   GROUP BY 1, 2, 3, 5 ORDER BY 2, 3, 4`;

/**
 * Every rollup table with the SELECT that computes its rows for project $1 from the raw calls,
 * in the order of its columns (project_id, bucket, `columns`): what ingestion keeps up batch by batch (write.ts).
 */
export const ROLLUPS_FROM_CALLS = [
  ...granularities(CALL_ROLLUPS).map((g) => ({
    table: g.table,
    bucket: g.column,
    keys: g.keys,
    coarse: g.coarse,
    columns: g.columns,
    select: callRollup(g.bucket("timestamp"), undefined, g.keys),
  })),
  ...granularities(ERROR_MESSAGE_ROLLUPS).map((g) => ({
    table: g.table,
    bucket: g.column,
    keys: g.keys,
    coarse: g.coarse,
    columns: ERROR_MESSAGE_ROLLUPS.columns,
    select: messageRollup(g.bucket("x.timestamp")),
  })),
];

/**
 * Recomputes a project's rollups from its raw calls (after a bulk load). Rows go in in time
 * order, as ingestion writes them, so that a range's rows sit together on disk. First each
 * call's stored `recovered` (kept by the pairing statement, which a bulk load bypasses) is
 * recomputed from its correction link by the same rule, as the message rollups are. Answers the
 * rows written per table.
 */
export async function rebuildRollups(client: ClientBase, projectId: string): Promise<Record<string, number>> {
  const recovered = `(x.valid IS FALSE AND ${recoveredTest("x.correction_id")})`;
  await client.query(`UPDATE tool_calls x SET recovered = ${recovered} WHERE x.project_id = $1 AND x.recovered <> ${recovered}`, [projectId]);
  const written: Record<string, number> = {};
  for (const r of ROLLUPS_FROM_CALLS) {
    await client.query(`DELETE FROM ${r.table} WHERE project_id = $1`, [projectId]);
    const { rowCount } = await client.query(`INSERT INTO ${r.table} (project_id, ${r.bucket}, ${r.columns}) ${r.select}`, [projectId]);
    written[r.table] = rowCount ?? 0;
  }
  // the coarse tables were computed from the raw calls too: no day of theirs lags
  await client.query(`DELETE FROM ${STALE_DAYS} WHERE project_id = $1`, [projectId]);
  return written;
}

/**
 * Recomputes a project's rollups from the raw calls it keeps, while the app runs: for rows
 * written before a rollup column existed (their outcomes, latencies and empty results count
 * none), or after a restore. One transaction: the project's ingestion waits for it (and it for
 * the batches under way), other projects' does not. Answers the rows written per table.
 */
export const rebuildProjectRollups = (projectId: string) =>
  inTransaction(async (client) => {
    await lockRollups(client, projectId, "rebuild");
    return rebuildRollups(client, projectId);
  });

/**
 * Rollup rows (as `rollupRows` gives them: an `hour` column and the rollup's columns) of the calls
 * of runs whose id starts with `runIdPrefix`, computed from the raw calls, as rollups know no runs.
 */
export function runRollupRows(
  rollup: "calls" | "messages",
  projectId: string,
  range: { from: Date; to: Date },
  filters: Filters,
  params: unknown[],
  runIdPrefix: string,
) {
  const x = rollup === "calls" ? "" : "x.";
  const param = (value: unknown) => `$${params.push(value)}`;
  const prefixed = Object.fromEntries(Object.entries(filters).map(([column, value]) => [`${x}${column}`, value]));
  const where = `${x}project_id = ${param(projectId)}::uuid AND ${x}timestamp >= ${param(range.from)} AND ${x}timestamp < ${param(range.to)}
    AND ${x}run_id LIKE ${param(`${runIdPrefix.replace(/[\\%_]/g, "\\$&")}%`)}${filterSql(prefixed, params)}`;
  const [select, columns] =
    rollup === "calls"
      ? [callRollup(hourOf("timestamp"), where), CALL_ROLLUPS.columns]
      : [messageRollup(hourOf("x.timestamp"), where), ERROR_MESSAGE_ROLLUPS.columns];
  return `(SELECT bucket AS hour, ${columns} FROM (${select}) raw) r`;
}

/**
 * Recomputes from the raw calls the rollup rows of these tools at these times: for each
 * (tool, timestamp), the rows of that tool's UTC hour in the hourly tables and of its UTC day in
 * the daily ones, all models and categories. For verdicts changed after the calls were stored
 * (tools.recheck): each slice reads only that tool's calls of that hour or day
 * (index project_id, tool, timestamp). The coarse tables' days are marked stale, as a batch marks
 * them: the worker recomputes them from the daily rows (coarse.ts).
 */
export async function rebuildRollupSlices(client: ClientBase, projectId: string, slices: { tool: string; timestamp: Date }[]) {
  const tables = [
    ...incrementalTables(CALL_ROLLUPS).map((g) => ({ ...g, select: (bucket: string, where: string) => callRollup(bucket, where, g.keys), x: "" })),
    ...incrementalTables(ERROR_MESSAGE_ROLLUPS).map((g) => ({ ...g, select: messageRollup, x: "x." })),
  ];
  for (const { table, column, bucket, columns, select, x } of tables) {
    const { rows: buckets } = await client.query<{ tool: string; at: Date }>(
      `SELECT DISTINCT tool, ${bucket("at")} AS at FROM unnest($1::text[], $2::timestamptz[]) AS s(tool, at) ORDER BY 1, 2`,
      [slices.map((s) => s.tool), slices.map((s) => s.timestamp)],
    );
    const span = column === "hour" ? "1 hour" : "1 day";
    for (const { tool, at } of buckets) {
      await client.query(`DELETE FROM ${table} WHERE project_id = $1 AND tool = $2 AND ${column} = $3`, [projectId, tool, at]);
      const where = `${x}project_id = $1 AND ${x}tool = $2 AND ${x}timestamp >= $3 AND ${x}timestamp < $3::timestamptz + interval '${span}'`;
      await client.query(`INSERT INTO ${table} (project_id, ${column}, ${columns}) ${select(bucket(`${x}timestamp`), where)}`, [projectId, tool, at]);
    }
  }
  await client.query(
    `INSERT INTO ${STALE_DAYS} (project_id, day) SELECT DISTINCT $1::uuid, ${dayOf("at")} FROM unnest($2::timestamptz[]) at ON CONFLICT DO NOTHING`,
    [projectId, slices.map((s) => s.timestamp)],
  );
}

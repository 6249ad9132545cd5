import type pg from "pg";
import { refreshCoarseRollups } from "../server/services/rollups/coarse";
import { rollupRows } from "../server/services/rollups/read";
import { ROLLUPS_FROM_CALLS } from "../server/services/rollups/rebuild";
import type { KeptAttempt } from "../server/domain/spirals";
import { KEPT_ATTEMPT_COLUMNS, KEPT_SPIRALS, refreshKeptSpirals, spiralAttemptsOfRuns } from "../server/services/metrics/spirals-kept";
import { CALL_ROLLUPS, recoveredTest, STALE_DAYS, summedColumns, tablesFor } from "../server/services/rollups/tables";

/** Every day a read can ask for: a coarse table's rows as read over it are its rows of whole days. */
const ALL_DAYS = { from: new Date("2000-01-01T00:00:00Z"), to: new Date("2100-01-01T00:00:00Z") };

/**
 * Rows in which a rollup table, kept up batch by batch, differs from the same rollup computed
 * from the raw calls at once (per table; empty when they agree); and, as `tool_calls.recovered`,
 * the calls whose stored `recovered` is not what looking up their correction's verdict says
 * (false for every call but an invalid one whose correction is not itself invalid). A coarse
 * table (kept from the daily rows in the background) is compared twice: as reads see it before
 * the worker's refresh (its stale days from the daily rows), and as stored after the refresh,
 * which this runs for the project as the worker would. The kept retry spirals
 * (server/services/metrics/spirals-kept.ts) are compared as stored after the worker's refresh
 * with the spirals of the whole runs: a statement that changed a run without marking it leaves
 * them behind.
 */
export async function rollupsDifferFromRaw(sql: pg.Pool, projectId: string) {
  const differences: Record<string, unknown[]> = {};
  const compare = async (table: string, kept: string, computed: string, params: unknown[]) => {
    const { rows } = await sql.query(`(${kept} EXCEPT ALL ${computed}) UNION ALL (${computed} EXCEPT ALL ${kept})`, params);
    if (rows.length) differences[table] = [...(differences[table] ?? []), ...rows];
  };
  const rounded = (columns: string) => columns.replace("cost_usd", "round(cost_usd::numeric, 9) AS cost_usd");
  type Rollup = (typeof ROLLUPS_FROM_CALLS)[number];
  const computed = (r: Rollup) => `SELECT bucket, ${rounded(r.columns)} FROM (${r.select}) s`;
  const stored = (r: Rollup) =>
    compare(r.table, `SELECT ${r.bucket} AS bucket, ${rounded(r.columns)} FROM ${r.table} WHERE project_id = $1`, computed(r), [projectId]);
  for (const r of ROLLUPS_FROM_CALLS) {
    if (!r.coarse) {
      await stored(r);
      continue;
    }
    const params: unknown[] = [projectId];
    // as read: a stale day's rows come from the daily table, several per key, which readers sum
    const asRead = `(SELECT hour, ${summedColumns(r)} FROM ${rollupRows(tablesFor(CALL_ROLLUPS, r.keys), projectId, ALL_DAYS, {}, params)} GROUP BY hour, ${r.keys.join(", ")}) r`;
    await compare(r.table, `SELECT hour AS bucket, ${rounded(r.columns)} FROM ${asRead}`, computed(r), params);
  }
  await refreshCoarseRollups({ projectId });
  const { rows: stale } = await sql.query(`SELECT day FROM ${STALE_DAYS} WHERE project_id = $1`, [projectId]);
  if (stale.length) differences[STALE_DAYS] = stale;
  for (const r of ROLLUPS_FROM_CALLS.filter((r) => r.coarse)) await stored(r);
  const { rows } = await sql.query(
    `SELECT id, valid, correction_id, recovered FROM tool_calls x
      WHERE project_id = $1 AND recovered <> (x.valid IS FALSE AND ${recoveredTest("x.correction_id")})`,
    [projectId],
  );
  if (rows.length) differences["tool_calls.recovered"] = rows;
  // the kept retry spirals, as stored after the worker's refresh, against the spirals of the whole runs
  await refreshKeptSpirals({ projectId });
  const client = await sql.connect();
  try {
    const line = (a: KeptAttempt) => JSON.stringify({ ...a, costUsd: a.costUsd.toFixed(9) });
    const computed = (await spiralAttemptsOfRuns(client, projectId, null)).map(line);
    const { rows: kept } = await client.query<KeptAttempt>(`SELECT ${KEPT_ATTEMPT_COLUMNS} FROM ${KEPT_SPIRALS} WHERE project_id = $1`, [projectId]);
    const stored = kept.map(line);
    const [storedSet, computedSet] = [new Set(stored), new Set(computed)];
    const missing = computed.filter((l) => !storedSet.has(l));
    const extra = stored.filter((l) => !computedSet.has(l));
    if (missing.length || extra.length) differences[KEPT_SPIRALS] = [...missing.map((l) => ({ missing: l })), ...extra.map((l) => ({ extra: l }))];
  } finally {
    client.release();
  }
  return differences;
}

import type pg from "pg";
import { ROLLUPS_FROM_CALLS } from "../server/services/rollups/rebuild";

/**
 * Rows in which a rollup table, kept up batch by batch, differs from the same rollup computed
 * from the raw calls at once (per table; empty when they agree).
 */
export async function rollupsDifferFromRaw(sql: pg.Pool, projectId: string) {
  const differences: Record<string, unknown[]> = {};
  for (const r of ROLLUPS_FROM_CALLS) {
    const columns = r.columns.replace("cost_usd", "round(cost_usd::numeric, 9) AS cost_usd");
    const kept = `SELECT ${r.bucket} AS bucket, ${columns} FROM ${r.table} WHERE project_id = $1`;
    const computed = `SELECT bucket, ${columns} FROM (${r.select}) s`;
    const { rows } = await sql.query(`(${kept} EXCEPT ALL ${computed}) UNION ALL (${computed} EXCEPT ALL ${kept})`, [projectId]);
    if (rows.length) differences[r.table] = rows;
  }
  return differences;
}

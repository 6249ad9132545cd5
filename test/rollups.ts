import type pg from "pg";
import { ROLLUPS_FROM_CALLS } from "../server/services/rollups/rebuild";
import { recoveredTest } from "../server/services/rollups/tables";

/**
 * Rows in which a rollup table, kept up batch by batch, differs from the same rollup computed
 * from the raw calls at once (per table; empty when they agree); and, as `tool_calls.recovered`,
 * the calls whose stored `recovered` is not what looking up their correction's verdict says
 * (false for every call but an invalid one whose correction is not itself invalid).
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
  const { rows } = await sql.query(
    `SELECT id, valid, correction_id, recovered FROM tool_calls x
      WHERE project_id = $1 AND recovered <> (x.valid IS FALSE AND ${recoveredTest("x.correction_id")})`,
    [projectId],
  );
  if (rows.length) differences["tool_calls.recovered"] = rows;
  return differences;
}

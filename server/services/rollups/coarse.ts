// The coarse daily call rollups (tables.ts, CALL_ROLLUPS.coarse), kept from the daily rows: the
// statements that write the daily rows mark the days they wrote to (write.ts, STALE_DAYS), and this
// refresh, run by the worker every minute, recomputes the marked days and clears their marks.
// Reads take a marked day from the daily rows until then (read.ts), so no read waits for it.
import type { ClientBase } from "pg";
import { refreshMarked } from "./marked";
import { CALL_ROLLUPS, coarseFromDaily, STALE_DAYS } from "./tables";

/** The days one transaction recomputes: the project's ingestion waits for it (below), ~30 ms a day at 10 million calls a month. */
const DAYS_PER_TRANSACTION = 1;

/**
 * Recomputes up to `limit` stale days of one project's coarse tables from its daily rows and clears
 * their marks, in the caller's transaction, which must hold the project's rollup lock exclusively
 * (marked.ts). Answers how many days it recomputed.
 */
export async function recomputeStaleDays(client: ClientBase, projectId: string, limit = DAYS_PER_TRANSACTION) {
  const { rows } = await client.query<{ day: Date }>(
    `DELETE FROM ${STALE_DAYS} WHERE project_id = $1 AND day = ANY(array(SELECT day FROM ${STALE_DAYS} WHERE project_id = $1 ORDER BY day LIMIT $2)) RETURNING day`,
    [projectId, limit],
  );
  const days = rows.map((r) => r.day);
  for (const coarse of CALL_ROLLUPS.coarse ?? []) {
    await client.query(`DELETE FROM ${coarse.daily} WHERE project_id = $1 AND day = ANY($2::timestamptz[])`, [projectId, days]);
    await client.query(
      `INSERT INTO ${coarse.daily} (project_id, day, ${coarse.columns})
       SELECT $1::uuid, * FROM (${coarseFromDaily(coarse, "project_id = $1 AND day = ANY($2::timestamptz[])")}) d ORDER BY day`,
      [projectId, days],
    );
  }
  return days.length;
}

/**
 * The worker's refresh: every project's stale days (or only `projectId`'s), one day per
 * transaction, until none is left or `budgetMs` has passed. Answers the projects and days done.
 */
export async function refreshCoarseRollups(options: { projectId?: string; budgetMs?: number } = {}) {
  const { projects, done } = await refreshMarked(STALE_DAYS, DAYS_PER_TRANSACTION, recomputeStaleDays, options);
  return { projects, days: done };
}

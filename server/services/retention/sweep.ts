import type { RetentionInput } from "../../../contracts/accounts";
import { DAY_MS } from "../../../contracts/metrics";
import { BUCKET_MS } from "../../../isomorphic/buckets";
import { pool, prisma } from "../../db/client";
import { CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS, granularities } from "../rollups/tables";

export async function getRetention(projectId: string): Promise<RetentionInput> {
  const p = await prisma().project.findUniqueOrThrow({ where: { id: projectId }, select: { callRetentionDays: true, rollupRetentionDays: true } });
  return { callsDays: p.callRetentionDays, rollupsDays: p.rollupRetentionDays };
}

export async function setRetention(projectId: string, r: RetentionInput): Promise<RetentionInput> {
  await prisma().project.update({ where: { id: projectId }, data: { callRetentionDays: r.callsDays, rollupRetentionDays: r.rollupsDays } });
  return r;
}

export type SweepReport = { projectId: string; calls: number; rollups: number; batches: number };

const ROLLUP_TABLES = [CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS].flatMap(granularities);

/** Runs a `DELETE … LIMIT $last` statement until a batch comes back short; adds its rows and batches to the report. */
async function deleteInBatches(sql: string, params: unknown[], batchSize: number, report: SweepReport, counter: "calls" | "rollups") {
  for (;;) {
    const { rowCount } = await pool().query(sql, [...params, batchSize]);
    report.batches++;
    report[counter] += rowCount ?? 0;
    if ((rowCount ?? 0) < batchSize) return;
  }
}

/**
 * Deletes one project's expired rows in small batches, each its own short statement: raw
 * calls older than callsDays (rows locked by a writer are skipped and caught by the next
 * sweep), then rollup rows older than rollupsDays. Deleting calls never touches the rollups:
 * charts of older ranges keep reading them.
 */
export async function sweepProject(projectId: string, now = new Date(), { batchSize = 5000 } = {}): Promise<SweepReport> {
  const { callsDays, rollupsDays } = await getRetention(projectId);
  const report: SweepReport = { projectId, calls: 0, rollups: 0, batches: 0 };
  await deleteInBatches(
    `DELETE FROM tool_calls WHERE project_id = $1 AND id IN (
       SELECT id FROM tool_calls WHERE project_id = $1 AND timestamp < $2 LIMIT $3 FOR UPDATE SKIP LOCKED)`,
    [projectId, new Date(now.getTime() - callsDays * DAY_MS)],
    batchSize,
    report,
    "calls",
  );
  // a rollup row goes once its whole bucket is older than the cutoff
  const rollupCutoff = now.getTime() - rollupsDays * DAY_MS;
  for (const { table, column } of ROLLUP_TABLES) {
    await deleteInBatches(
      `DELETE FROM ${table} WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM ${table} WHERE project_id = $1 AND ${column} <= $2 LIMIT $3 FOR UPDATE SKIP LOCKED))`,
      [projectId, new Date(rollupCutoff - BUCKET_MS[column])],
      batchSize,
      report,
      "rollups",
    );
  }
  return report;
}

/** The hourly sweep: every project, one after the other. */
export async function sweepRetention(now = new Date()) {
  const projects = await prisma().project.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  const reports: SweepReport[] = [];
  for (const p of projects) reports.push(await sweepProject(p.id, now));
  return reports;
}

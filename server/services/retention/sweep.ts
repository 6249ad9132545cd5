import type { RetentionInput } from "../../../contracts/accounts";
import { pool, prisma } from "../../db/client";
import { CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS, granularities } from "../rollups/tables";

const DAY = 86_400_000;

export async function getRetention(projectId: string): Promise<RetentionInput> {
  const p = await prisma().project.findUniqueOrThrow({ where: { id: projectId }, select: { callRetentionDays: true, rollupRetentionDays: true } });
  return { callsDays: p.callRetentionDays, rollupsDays: p.rollupRetentionDays };
}

export async function setRetention(projectId: string, r: RetentionInput): Promise<RetentionInput> {
  await prisma().project.update({ where: { id: projectId }, data: { callRetentionDays: r.callsDays, rollupRetentionDays: r.rollupsDays } });
  return r;
}

export type SweepReport = { projectId: string; calls: number; rollups: number; batches: number };

/** The bucket width of each rollup table: a row goes once its whole bucket is older than the cutoff. */
const ROLLUP_TABLES = [CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS].flatMap(granularities).map((g) => ({ ...g, width: g.column === "hour" ? 3_600_000 : DAY }));

/**
 * Deletes one project's expired rows in small batches, each its own short statement: raw
 * calls older than callsDays (rows locked by a writer are skipped and caught by the next
 * sweep), then rollup rows older than rollupsDays. Deleting calls never touches the rollups:
 * charts of older ranges keep reading them.
 */
export async function sweepProject(projectId: string, now = new Date(), { batchSize = 5000 } = {}): Promise<SweepReport> {
  const { callsDays, rollupsDays } = await getRetention(projectId);
  const report: SweepReport = { projectId, calls: 0, rollups: 0, batches: 0 };
  const callCutoff = new Date(now.getTime() - callsDays * DAY);
  for (;;) {
    const { rowCount } = await pool().query(
      `DELETE FROM tool_calls WHERE project_id = $1 AND id IN (
         SELECT id FROM tool_calls WHERE project_id = $1 AND timestamp < $2 LIMIT $3 FOR UPDATE SKIP LOCKED)`,
      [projectId, callCutoff, batchSize],
    );
    report.batches++;
    report.calls += rowCount ?? 0;
    if ((rowCount ?? 0) < batchSize) break;
  }
  const rollupCutoff = now.getTime() - rollupsDays * DAY;
  for (const { table, column, width } of ROLLUP_TABLES) {
    for (;;) {
      const { rowCount } = await pool().query(
        `DELETE FROM ${table} WHERE ctid = ANY (ARRAY(
           SELECT ctid FROM ${table} WHERE project_id = $1 AND ${column} <= $2 LIMIT $3 FOR UPDATE SKIP LOCKED))`,
        [projectId, new Date(rollupCutoff - width), batchSize],
      );
      report.batches++;
      report.rollups += rowCount ?? 0;
      if ((rowCount ?? 0) < batchSize) break;
    }
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

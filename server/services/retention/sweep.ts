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

/** `finished` is false when the sweep stopped at its deadline with rows left (the next sweep goes on). */
export type SweepReport = { projectId: string; calls: number; rollups: number; batches: number; finished: boolean };

const ROLLUP_TABLES = [CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS].flatMap(granularities);

/** Runs a `DELETE … LIMIT $last` statement until a batch comes back short or `stopAt` (epoch ms) has passed; adds its rows and batches to the report. */
async function deleteInBatches(sql: string, params: unknown[], batchSize: number, report: SweepReport, counter: "calls" | "rollups", stopAt: number) {
  for (;;) {
    const { rowCount } = await pool().query(sql, [...params, batchSize]);
    report.batches++;
    report[counter] += rowCount ?? 0;
    if ((rowCount ?? 0) < batchSize) return;
    if (Date.now() >= stopAt) {
      report.finished = false;
      return;
    }
  }
}

/**
 * Deletes one project's expired rows in small batches, each its own short statement: raw
 * calls older than callsDays (rows locked by a writer are skipped and caught by the next
 * sweep), then rollup rows older than rollupsDays. Deleting calls never touches the rollups:
 * charts of older ranges keep reading them.
 */
export async function sweepProject(projectId: string, now = new Date(), { batchSize = 5000, stopAt = Infinity } = {}): Promise<SweepReport> {
  const { callsDays, rollupsDays } = await getRetention(projectId);
  const report: SweepReport = { projectId, calls: 0, rollups: 0, batches: 0, finished: true };
  await deleteInBatches(
    `DELETE FROM tool_calls WHERE project_id = $1 AND id IN (
       SELECT id FROM tool_calls WHERE project_id = $1 AND timestamp < $2 LIMIT $3 FOR UPDATE SKIP LOCKED)`,
    [projectId, new Date(now.getTime() - callsDays * DAY_MS)],
    batchSize,
    report,
    "calls",
    stopAt,
  );
  // a rollup row goes once its whole bucket is older than the cutoff
  const rollupCutoff = now.getTime() - rollupsDays * DAY_MS;
  for (const { table, column } of ROLLUP_TABLES) {
    if (!report.finished) break;
    await deleteInBatches(
      `DELETE FROM ${table} WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM ${table} WHERE project_id = $1 AND ${column} <= $2 LIMIT $3 FOR UPDATE SKIP LOCKED))`,
      [projectId, new Date(rollupCutoff - BUCKET_MS[column])],
      batchSize,
      report,
      "rollups",
      stopAt,
    );
  }
  return report;
}

/**
 * The hourly sweep: every project, one after the other, until `budgetSeconds` have passed
 * (checked between batches). A sweep that stops early reports `finished: false` for the
 * project it was in and leaves the later ones untouched: the caller starts another.
 */
export async function sweepRetention(now = new Date(), { budgetSeconds = Infinity } = {}) {
  const stopAt = Date.now() + budgetSeconds * 1000;
  const projects = await prisma().project.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  const reports: SweepReport[] = [];
  for (const p of projects) {
    const report = await sweepProject(p.id, now, { stopAt });
    reports.push(report);
    if (!report.finished) break;
  }
  return { reports, finished: reports.every((r) => r.finished) && reports.length === projects.length };
}

import type { RetentionInput } from "../../../contracts/accounts";
import { DAY_MS } from "../../../contracts/metrics";
import { BUCKET_MS } from "../../../isomorphic/buckets";
import { pool, prisma } from "../../db/client";
import { ROLLUP_TABLES } from "../rollups/tables";
import { KEPT_SPIRALS } from "../metrics/spirals-kept";

export async function getRetention(projectId: string): Promise<RetentionInput> {
  const p = await prisma().project.findUniqueOrThrow({ where: { id: projectId }, select: { callRetentionDays: true, rollupRetentionDays: true } });
  return { callsDays: p.callRetentionDays, rollupsDays: p.rollupRetentionDays };
}

export async function setRetention(projectId: string, r: RetentionInput): Promise<RetentionInput> {
  await prisma().project.update({ where: { id: projectId }, data: { callRetentionDays: r.callsDays, rollupRetentionDays: r.rollupsDays } });
  return r;
}

/** Rows deleted: raw calls, OTLP call data (tool results and model-call spans) with the tool sets runs carried (`otlp`), rollup rows; `finished` is false when the sweep stopped at its deadline with rows left (the next sweep goes on). */
export type SweepReport = { projectId: string; calls: number; otlp: number; rollups: number; batches: number; finished: boolean };

/** Runs a `DELETE … LIMIT $last` statement until a batch comes back short or `stopAt` (epoch ms) has passed; adds its rows and batches to the report. */
async function deleteInBatches(sql: string, params: unknown[], batchSize: number, report: SweepReport, counter: "calls" | "otlp" | "rollups", stopAt: number) {
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

/** A batch of one project's rows of a table that meet `expired` (on $2); ctid, so any table fits whatever its key. */
const expiredBatch = (table: string, expired: string) =>
  `DELETE FROM ${table} WHERE ctid = ANY (ARRAY(
     SELECT ctid FROM ${table} WHERE project_id = $1 AND ${expired} LIMIT $3 FOR UPDATE SKIP LOCKED))`;

/**
 * The tables of raw call data beside tool_calls, swept on the calls setting by their own time
 * column: OTLP tool results by arrival (also those whose call never came), the OTLP
 * model-call spans that number a run's steps by their start (nanoseconds since the epoch),
 * the spans and log records still waiting for their other half, by arrival, the runs' kept
 * spirals by their attempts' times, and the tool sets runs carried, by their newest call.
 * The retention catalogue test holds this list, with RETENTION_EXEMPT, to the schema.
 */
const OTLP_CALL_DATA = [
  { table: "otlp_results", column: "received_at", cutoff: (ms: number) => new Date(ms) },
  { table: "otlp_model_calls", column: "started_ns", cutoff: (ms: number) => (BigInt(ms) * 1_000_000n).toString() },
  // the runs' conversations (the messages model calls were given and answered), by the start of the model call that delivered each
  { table: "otlp_messages", column: "started_ns", cutoff: (ms: number) => (BigInt(ms) * 1_000_000n).toString() },
  // servers' tool executions (their arguments and results are call data), by arrival
  { table: "otlp_tool_executions", column: "received_at", cutoff: (ms: number) => new Date(ms) },
  // spans and GenAI log records waiting for their other half (messages, content), by arrival
  { table: "otlp_pending_spans", column: "received_at", cutoff: (ms: number) => new Date(ms) },
  { table: "otlp_log_records", column: "received_at", cutoff: (ms: number) => new Date(ms) },
  // the runs' kept retry spirals (server/services/metrics/spirals-kept.ts), by each attempt's time, as its call
  { table: KEPT_SPIRALS, column: "at", cutoff: (ms: number) => new Date(ms) },
  // which tool set each run carried, by its newest call, then the sets no kept run can name (a set's last_at is its newest run's)
  { table: "run_tool_sets", column: "last_at", cutoff: (ms: number) => new Date(ms) },
  { table: "tool_sets", column: "last_at", cutoff: (ms: number) => new Date(ms) },
];

/** Every table swept, with its time column. */
export const SWEPT_TABLES = [{ table: "tool_calls", column: "timestamp" }, ...OTLP_CALL_DATA.map(({ table, column }) => ({ table, column })), ...ROLLUP_TABLES];

/** Tables with a project and a time column that the sweep leaves alone, and why. */
export const RETENTION_EXEMPT: Record<string, string> = {
  memberships: "who may see the project, not call data; goes when the member is removed",
  invitations: "pending invitations, not call data; go when accepted or revoked",
  api_keys: "credentials, not call data; revoked keys stay listed so their use can be traced",
  tool_definitions: "the tool schemas calls are checked against, not call data; a few rows per tool version",
  alert_rules: "configuration, not call data",
  alert_silences: "who silenced which alerts until when and why, not call data; a few rows per project",
  incidents: "alert history (a summary and figures, never call arguments); kept for the incident timeline",
  incident_events: "the timeline of an incident, kept with it",
  webhook_endpoints: "configuration, not call data",
  webhook_deliveries: "the delivery log of an incident (status codes and errors, no call data), kept with it",
  otlp_stats: "one row of counters per project",
  otlp_exports: "counts and reasons of the newest 20 OTLP exports per project (no call data), trimmed on every export",
  derived_answers:
    "stored answers of the pages' derived reads over preset ranges (server/services/derived/answers.ts): a project's go when the sweep deletes any of its calls, the worker deletes those unread for a day",
};

/**
 * Deletes one project's expired rows in small batches, each its own short statement: raw
 * calls and the OTLP call data older than callsDays (rows locked by a writer are skipped and
 * caught by the next sweep), then rollup rows older than rollupsDays. Deleting calls never
 * touches the rollups: charts of older ranges keep reading them.
 */
export async function sweepProject(projectId: string, now = new Date(), { batchSize = 5000, stopAt = Infinity } = {}): Promise<SweepReport> {
  const { callsDays, rollupsDays } = await getRetention(projectId);
  const report: SweepReport = { projectId, calls: 0, otlp: 0, rollups: 0, batches: 0, finished: true };
  const callsCutoff = now.getTime() - callsDays * DAY_MS;
  await deleteInBatches(
    `DELETE FROM tool_calls WHERE project_id = $1 AND id IN (
       SELECT id FROM tool_calls WHERE project_id = $1 AND timestamp < $2 LIMIT $3 FOR UPDATE SKIP LOCKED)`,
    [projectId, new Date(callsCutoff)],
    batchSize,
    report,
    "calls",
    stopAt,
  );
  // stored answers of derived reads may hold figures of the deleted calls: computed again on the next view
  if (report.calls > 0) await pool().query(`DELETE FROM derived_answers WHERE project_id = $1`, [projectId]);
  for (const { table, column, cutoff } of OTLP_CALL_DATA) {
    if (!report.finished) break;
    await deleteInBatches(expiredBatch(table, `${column} < $2`), [projectId, cutoff(callsCutoff)], batchSize, report, "otlp", stopAt);
  }
  // a rollup row goes once its whole bucket is older than the cutoff
  const rollupCutoff = now.getTime() - rollupsDays * DAY_MS;
  for (const { table, column } of ROLLUP_TABLES) {
    if (!report.finished) break;
    await deleteInBatches(
      expiredBatch(table, `${column} <= $2`),
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

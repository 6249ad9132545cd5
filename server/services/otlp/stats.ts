import type { PoolClient } from "pg";
import { storableText } from "../../../contracts/json-walk";
import type { IgnoredGroup } from "../../adapters/otlp/explain";
import type { SpanProblem } from "../../adapters/otlp/wire";
import { pool } from "../../db/client";

/**
 * What OTLP exports gave, for Settings → Connect: the project's running totals (otlp_stats) and
 * its newest exports (otlp_exports), written by the traces and logs sources in their
 * transaction, read by the otlp router.
 */

/** What one export adds to the project's totals. */
type StatsDelta = { spans: number; ignored: number; rejected: SpanProblem[]; definitionProblems: string[]; executions: number; executionsJoined: number };

export async function recordStats(client: PoolClient, projectId: string, r: StatsDelta) {
  const reason = r.rejected[0]?.reason ?? r.definitionProblems[0] ?? null;
  await client.query(
    `INSERT INTO otlp_stats AS s (project_id, last_span_at, spans, ignored, rejected, last_reason, last_reason_at, executions, executions_joined)
     VALUES ($1, now(), $2, $3, $4, $5, CASE WHEN $5::text IS NULL THEN NULL ELSE now() END, $6, $7)
     ON CONFLICT (project_id) DO UPDATE SET last_span_at = now(), spans = s.spans + excluded.spans, ignored = s.ignored + excluded.ignored,
       rejected = s.rejected + excluded.rejected, last_reason = coalesce(excluded.last_reason, s.last_reason),
       last_reason_at = coalesce(excluded.last_reason_at, s.last_reason_at),
       executions = s.executions + excluded.executions, executions_joined = s.executions_joined + excluded.executions_joined`,
    [projectId, r.spans, r.ignored, r.rejected.length, reason === null ? null : storableText(reason), r.executions, r.executionsJoined],
  );
}

/** The newest exports Settings → Connect shows, each with its groups of ignored spans. */
const EXPORTS_KEPT = 20;

/** Keeps what this export's spans gave, and why the others gave nothing; only the newest EXPORTS_KEPT of the project stay. */
export async function recordExport(
  client: PoolClient,
  projectId: string,
  r: { spans: number; accepted: number; rejected: SpanProblem[]; ignoredGroups: IgnoredGroup[] },
) {
  await client.query(
    `WITH added AS (
       INSERT INTO otlp_exports (project_id, spans, accepted, rejected, ignored) VALUES ($1, $2, $3, $4, $5) RETURNING id
     )
     DELETE FROM otlp_exports WHERE project_id = $1 AND id <= (SELECT id FROM otlp_exports WHERE project_id = $1 ORDER BY id DESC OFFSET ${EXPORTS_KEPT - 1} LIMIT 1)`,
    [projectId, r.spans, r.accepted, r.rejected.length, JSON.stringify(r.ignoredGroups)],
  );
}

/** The project's newest exports, newest first: spans received, calls stored, rejected, and the ignored groups with their reasons. */
export async function recentExports(projectId: string) {
  const { rows } = await pool().query<{ receivedAt: Date; spans: number; accepted: number; rejected: number; ignored: IgnoredGroup[] }>(
    `SELECT received_at AS "receivedAt", spans, accepted, rejected, ignored FROM otlp_exports WHERE project_id = $1 ORDER BY id DESC LIMIT ${EXPORTS_KEPT}`,
    [projectId],
  );
  return rows;
}

export async function otlpStats(projectId: string) {
  const { rows } = await pool().query<{
    lastSpanAt: Date | null;
    spans: string;
    ignored: string;
    rejected: string;
    lastReason: string | null;
    lastReasonAt: Date | null;
    executions: string;
    executionsJoined: string;
  }>(
    `SELECT last_span_at AS "lastSpanAt", spans, ignored, rejected, last_reason AS "lastReason", last_reason_at AS "lastReasonAt",
            executions, executions_joined AS "executionsJoined" FROM otlp_stats WHERE project_id = $1`,
    [projectId],
  );
  const row = rows[0];
  return row
    ? {
        lastSpanAt: row.lastSpanAt,
        spans: Number(row.spans),
        ignored: Number(row.ignored),
        rejected: Number(row.rejected),
        lastReason: row.lastReason,
        lastReasonAt: row.lastReasonAt,
        executions: Number(row.executions),
        executionsJoined: Number(row.executionsJoined),
      }
    : null;
}

// A tool's empty results (isomorphic/outcome.ts: isEmptyResult) as examples, each with what the
// model did next: the next call of the same run, whatever its tool (or none).
import { emptyResultSql } from "../../../isomorphic/outcome";
import { pool } from "../../db/client";

export type EmptyResultExample = {
  id: string;
  runId: string;
  timestamp: Date;
  arguments: unknown;
  summary: string;
  /** the run's next call after this one (run order: step, then time), or null when the run has none */
  next: { id: string; tool: string; valid: boolean | null; resultStatus: string | null; resultSummary: string | null } | null;
};

/** The tool's newest empty results in the range, at most `limit`, each with the run's next call. */
export async function emptyResultExamples(projectId: string, tool: string, range: { from: Date; to: Date }, limit = 5): Promise<EmptyResultExample[]> {
  // the next call in run order (step NULLS LAST, timestamp, id): after a stepped call, a later
  // step (or the same step, later) or any unstepped call; after an unstepped call, a later unstepped one
  const { rows } = await pool().query<{
    id: string;
    run_id: string;
    timestamp: Date;
    arguments: unknown;
    summary: string;
    next_id: string | null;
    next_tool: string | null;
    next_valid: boolean | null;
    next_status: string | null;
    next_summary: string | null;
  }>(
    `SELECT c.id, c.run_id, c.timestamp, c.arguments, c.result_summary AS summary,
            n.id AS next_id, n.tool AS next_tool, n.valid AS next_valid, n.result_status AS next_status, n.result_summary AS next_summary
       FROM tool_calls c
       LEFT JOIN LATERAL (
         SELECT n.id, n.tool, n.valid, n.result_status, n.result_summary FROM tool_calls n
          WHERE n.project_id = c.project_id AND n.run_id = c.run_id
            AND CASE WHEN c.step IS NULL THEN n.step IS NULL AND (n.timestamp, n.id) > (c.timestamp, c.id)
                     ELSE n.step IS NULL OR (n.step, n.timestamp, n.id) > (c.step, c.timestamp, c.id) END
          ORDER BY n.step NULLS LAST, n.timestamp, n.id LIMIT 1) n ON true
      WHERE c.project_id = $1 AND c.tool = $2 AND c.timestamp >= $3 AND c.timestamp < $4
        AND c.valid IS DISTINCT FROM false AND ${emptyResultSql("c.result_status", "c.result_summary")}
      ORDER BY c.timestamp DESC, c.id DESC LIMIT $5`,
    [projectId, tool, range.from, range.to, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    runId: r.run_id,
    timestamp: r.timestamp,
    arguments: r.arguments,
    summary: r.summary,
    next: r.next_id ? { id: r.next_id, tool: r.next_tool!, valid: r.next_valid, resultStatus: r.next_status, resultSummary: r.next_summary } : null,
  }));
}

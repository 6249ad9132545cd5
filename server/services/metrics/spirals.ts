// Retry spirals (server/domain/spirals.ts) read from the database, bounded whatever the project's
// size: only the failed attempts of the range (invalid calls and failed results), the latest
// SPIRAL_READ_LIMIT of them, and for each its two neighbours in its run (one index descent each).
// Never whole runs. A tool's failed attempts come from a partial index of them (docs/alerts.md).
import { statusesOf } from "../../../isomorphic/outcome";
import { sameToolNeighbourSql } from "../../domain/run-order";
import { spiralsOfAttempts, summarizeSpirals, type FailedAttempt, type LocatedSpiral } from "../../domain/spirals";
import { pool } from "../../db/client";
import { filterSql } from "../rollups/read";

/** The most failed attempts one read takes (the latest of the range); a read that reaches it says so. */
const SPIRAL_READ_LIMIT = 20_000;

/**
 * A failed attempt (server/domain/spirals.ts attemptFailed) in SQL: the predicate of the partial
 * index tool_calls_failed_tool_idx (prisma/schema.prisma), so that a tool's are read from it alone.
 * `valid IS FALSE`, not `valid = false`, which PostgreSQL does not prove from `valid = false`:
 * other statements' own `valid = false` (the pairing's, on stale statistics) cannot take the index.
 */
const FAILED_ATTEMPT_SQL = `(valid IS FALSE OR result_status IN (${statusesOf("failed")
  .map((s) => `'${s}'`)
  .join(", ")}))`;

export type SpiralScope = { tool?: string | null; model?: string | null; modelVersion?: string | null };
export type SpiralRead = { spirals: LocatedSpiral[]; failedRead: number; truncated: boolean };

type Row = {
  failed_read: number;
  id: string;
  run_id: string;
  turn: number | null;
  at: Date;
  tool: string;
  model_name: string;
  model_version: string | null;
  valid: boolean | null;
  result_status: string | null;
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  next_id: string | null;
  next_tool: string | null;
  next_turn: number | null;
  next_valid: boolean | null;
  next_status: string | null;
};

/** The spirals of `minLength` or more attempts among the failed attempts of [from, to) in scope. */
export async function readSpirals(projectId: string, range: { from: Date; to: Date }, scope: SpiralScope = {}, minLength = 3): Promise<SpiralRead> {
  const params: unknown[] = [projectId, range.from, range.to, SPIRAL_READ_LIMIT];
  const filters = filterSql({ tool: scope.tool, model_name: scope.model, model_version: scope.modelVersion }, params);
  const { rows } = await pool().query<Row>(
    `WITH failed AS MATERIALIZED (
       SELECT id, run_id, step, turn, timestamp, tool, model_name, model_version, valid, result_status, cost_usd, input_tokens, output_tokens
         FROM tool_calls
        WHERE project_id = $1 AND timestamp >= $2 AND timestamp < $3 AND ${FAILED_ATTEMPT_SQL}${filters}
        ORDER BY timestamp DESC LIMIT $4
     ), candidates AS (
       -- a spiral's attempts are all of one tool in one run: smaller groups cannot hold one
       SELECT * FROM (SELECT failed.*, count(*) OVER (PARTITION BY run_id, tool) AS attempts FROM failed) g WHERE attempts >= $${params.push(minLength)}
     ), located AS MATERIALIZED (
       SELECT f.*, ${sameToolNeighbourSql("f", "next", "ctid", false)} AS next_ctid FROM candidates f
     )
     -- one row at least, which says how many failed attempts were read (a read that reached the limit is cut)
     SELECT total.failed_read, l.id, l.run_id, l.turn, l.timestamp AS at, l.tool, l.model_name, l.model_version, l.valid, l.result_status,
            l.cost_usd, l.input_tokens, l.output_tokens, nx.id AS next_id, nx.tool AS next_tool, nx.turn AS next_turn, nx.valid AS next_valid, nx.result_status AS next_status
       FROM (SELECT count(*)::int AS failed_read FROM failed) total
       LEFT JOIN located l ON true
       -- the next call itself by its ctid (a join on it would let the planner scan the whole table)
       LEFT JOIN LATERAL (SELECT n.id, n.tool, n.turn, n.valid, n.result_status FROM tool_calls n WHERE n.ctid = l.next_ctid LIMIT 1) nx ON true
      ORDER BY l.run_id, l.step NULLS LAST, l.timestamp, l.id`,
    params,
  );
  const attempts: FailedAttempt[] = rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: r.id,
      tool: r.tool,
      turn: r.turn,
      valid: r.valid,
      resultStatus: r.result_status,
      costUsd: r.cost_usd,
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      runId: r.run_id,
      model: r.model_name,
      modelVersion: r.model_version,
      at: r.at.getTime(),
      next: r.next_id === null ? null : { id: r.next_id, tool: r.next_tool!, turn: r.next_turn, valid: r.next_valid, resultStatus: r.next_status },
    }));
  const failedRead = rows[0]?.failed_read ?? 0;
  return { spirals: spiralsOfAttempts(attempts, minLength), failedRead, truncated: failedRead >= SPIRAL_READ_LIMIT };
}

/** How many of the longest spirals the pages list. */
const LONGEST_SHOWN = 10;

/**
 * What the tool and models pages show: spirals of `minLength` or more attempts per tool and model
 * version, the longest ones with their run, and the attempts, tokens and money they burned.
 */
export async function spiralSummary(projectId: string, range: { from: Date; to: Date }, scope: SpiralScope = {}, minLength = 3) {
  const read = await readSpirals(projectId, range, scope, minLength);
  const { total, groups, longest } = summarizeSpirals(read.spirals, LONGEST_SHOWN);
  return {
    minLength,
    total,
    groups,
    longest: longest.map((s) => ({
      runId: s.runId,
      tool: s.tool,
      model: s.model,
      modelVersion: s.modelVersion,
      attempts: s.attempts.length,
      firstAttemptId: s.attempts[0]!,
      endedBy: s.endedBy,
      costUsd: s.costUsd,
      tokens: s.tokens,
      startedAt: new Date(Math.min(...s.times)).toISOString(),
    })),
    failedRead: read.failedRead,
    truncated: read.truncated,
    readLimit: SPIRAL_READ_LIMIT,
  };
}

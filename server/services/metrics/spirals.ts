// Retry spirals (server/domain/spirals.ts) read from the database, bounded whatever the project's
// size: only the failed attempts of the range (invalid calls and failed results), the latest
// SPIRAL_READ_LIMIT of them, a tool's from a partial index of them; of the runs with a group that
// can hold a spiral, the calls from its first such attempt on, as many as it has and one (one index
// descent per run, which holds the next call of each when they are consecutive), and the next
// call of any other by one descent each. Never whole runs. (docs/alerts.md.)
import { statusesOf } from "../../../isomorphic/outcome";
import { runOrderSql, sameToolNeighbourSql } from "../../domain/run-order";
import { spiralsOfAttempts, summarizeSpirals, type FailedAttempt, type LocatedSpiral } from "../../domain/spirals";
import { pool } from "../../db/client";
import { filterSql } from "../rollups/read";

/** The most failed attempts one read takes (the latest of the range); a read that reaches it says so. */
const SPIRAL_READ_LIMIT = 20_000;

/**
 * A failed attempt (server/domain/spirals.ts attemptFailed) in SQL: word for word the predicate of
 * the partial index tool_calls_failed_tool_idx (prisma/schema.prisma). `valid IS FALSE`, not
 * `valid = false`, which PostgreSQL does not prove from `valid = false`: other statements' own
 * `valid = false` (the pairing's, stale statistics) cannot take the index.
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

/**
 * A run's calls in run order from its first candidate (`f`, with `n` candidates) on, under
 * `where` (one of the three stretches of run order: stepped, then unstepped), at most n + 1.
 */
const windowSql = (where: string) =>
  `SELECT n.id, n.tool, n.turn, n.valid, n.result_status, n.step, n.timestamp FROM tool_calls n
    WHERE n.project_id = $1 AND n.run_id = f.run_id AND ${where} ORDER BY ${runOrderSql("n")} LIMIT f.n + 1`;

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
     ), candidates AS MATERIALIZED (
       -- a spiral's attempts are all of one tool in one run: smaller groups cannot hold one
       SELECT * FROM (SELECT failed.*, count(*) OVER (PARTITION BY run_id, tool) AS attempts FROM failed) g WHERE attempts >= $${params.push(minLength)}
     ), firsts AS (
       -- each run's first candidate in run order, and how many candidates the run holds
       SELECT DISTINCT ON (run_id) run_id, step, timestamp, id, count(*) OVER (PARTITION BY run_id) AS n
         FROM candidates ORDER BY run_id, ${runOrderSql()}
     ), windows AS MATERIALIZED (
       -- from it on, as many of the run's calls as it has candidates, and one: one index descent per
       -- run, which holds the next call of every candidate but the last when they are consecutive
       SELECT w.id, lead(w.id) OVER run AS next_id, lead(w.tool) OVER run AS next_tool, lead(w.turn) OVER run AS next_turn,
              lead(w.valid) OVER run AS next_valid, lead(w.result_status) OVER run AS next_status,
              -- fewer calls than asked: the window reaches the run's end, whose last call has no next
              count(*) OVER (PARTITION BY f.run_id) <= f.n AS ends_run
         FROM firsts f CROSS JOIN LATERAL (
           SELECT * FROM (
             (${windowSql("f.step IS NOT NULL AND n.step IS NOT NULL AND (n.step, n.timestamp, n.id) >= (f.step, f.timestamp, f.id)")})
             UNION ALL (${windowSql("f.step IS NOT NULL AND n.step IS NULL")})
             UNION ALL (${windowSql("f.step IS NULL AND n.step IS NULL AND (n.timestamp, n.id) >= (f.timestamp, f.id)")})
           ) u LIMIT f.n + 1
         ) w
       WINDOW run AS (PARTITION BY f.run_id ORDER BY ${runOrderSql("w")})
     ), located AS MATERIALIZED (
       -- the others' (not in their run's window, or last of a window that does not reach the run's end) by a descent each
       SELECT c.*, w.next_id AS window_next_id, w.next_tool, w.next_turn, w.next_valid, w.next_status,
              CASE WHEN w.next_id IS NULL AND w.ends_run IS NOT TRUE THEN ${sameToolNeighbourSql("c", "next", "ctid", false)} END AS next_ctid
         FROM candidates c LEFT JOIN windows w ON w.id = c.id
     )
     -- one row at least, which says how many failed attempts were read (a read that reached the limit is cut)
     SELECT total.failed_read, l.id, l.run_id, l.turn, l.timestamp AS at, l.tool, l.model_name, l.model_version, l.valid, l.result_status,
            l.cost_usd, l.input_tokens, l.output_tokens, coalesce(l.window_next_id, nx.id) AS next_id,
            CASE WHEN l.window_next_id IS NULL THEN nx.tool ELSE l.next_tool END AS next_tool,
            CASE WHEN l.window_next_id IS NULL THEN nx.turn ELSE l.next_turn END AS next_turn,
            CASE WHEN l.window_next_id IS NULL THEN nx.valid ELSE l.next_valid END AS next_valid,
            CASE WHEN l.window_next_id IS NULL THEN nx.result_status ELSE l.next_status END AS next_status
       FROM (SELECT count(*)::int AS failed_read FROM failed) total
       LEFT JOIN located l ON true
       -- the next call itself by its ctid (a join on it would let the planner scan the whole table)
       LEFT JOIN LATERAL (SELECT n.id, n.tool, n.turn, n.valid, n.result_status FROM tool_calls n WHERE n.ctid = l.next_ctid LIMIT 1) nx ON true
      ORDER BY l.run_id, ${runOrderSql("l")}`,
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

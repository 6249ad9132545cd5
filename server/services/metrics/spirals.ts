// Retry spirals (server/domain/spirals.ts) read from the database, bounded whatever the project's
// size. Most runs' spirals are kept by the worker (spirals-kept.ts): their attempts of the range are
// read and clipped to it. A run marked stale since is read from its calls: only its failed
// attempts of the range (invalid calls and failed results), the latest SPIRAL_READ_LIMIT of them,
// and for each its next call in its run (one index descent each). Never whole runs.
import { sameToolNeighbourSql } from "../../domain/run-order";
import { spiralsOfAttempts, spiralsOfKeptAttempts, summarizeSpirals, type FailedAttempt, type KeptAttempt, type LocatedSpiral } from "../../domain/spirals";
import { pool } from "../../db/client";
import { filterSql } from "../rollups/read";
import { FAILED_ATTEMPT_SQL, KEPT_ATTEMPT_COLUMNS, KEPT_SPIRALS, runCallOf, STALE_RUNS, timeMs, type CallRow } from "./spirals-kept";

/** The most attempts one read takes (the latest of the range); a read that reaches it says so. */
const SPIRAL_READ_LIMIT = 20_000;

/**
 * Above this many stale runs (a backfill, or the worker's first pass after the migration), a read
 * takes every run from its failed calls (a tool's from their partial index) rather than the stale
 * runs one by one.
 */
const STALE_RUNS_READ_APART = 2_000;

export type SpiralScope = { tool?: string | null; model?: string | null; modelVersion?: string | null };
/** The spirals, how many attempts the read took (kept attempts and stale runs' failed calls), and whether it reached SPIRAL_READ_LIMIT. */
export type SpiralRead = { spirals: LocatedSpiral[]; failedRead: number; truncated: boolean };

type Row = CallRow & {
  failed_read: number;
  next_id: string | null;
  next_tool: string | null;
  next_turn: number | null;
  next_valid: boolean | null;
  next_status: string | null;
};

type Range = { from: Date; to: Date };
const scopeFilters = (scope: SpiralScope, params: unknown[]) =>
  filterSql({ tool: scope.tool, model_name: scope.model, model_version: scope.modelVersion }, params);

/** The spirals of `minLength` or more attempts among the failed attempts of [from, to) in scope: kept runs' clipped, stale runs' from their calls. */
export async function readSpirals(projectId: string, range: Range, scope: SpiralScope = {}, minLength = 3): Promise<SpiralRead> {
  const { rows } = await pool().query<{ run_id: string }>(`SELECT run_id FROM ${STALE_RUNS} WHERE project_id = $1 LIMIT $2`, [
    projectId,
    STALE_RUNS_READ_APART + 1,
  ]);
  if (rows.length > STALE_RUNS_READ_APART) return readFailedAttempts(projectId, range, scope, minLength);
  const stale = rows.map((r) => r.run_id);
  const [kept, live] = await Promise.all([
    readKeptAttempts(projectId, range, scope, minLength, new Set(stale)),
    stale.length ? readFailedAttempts(projectId, range, scope, minLength, stale) : { spirals: [], failedRead: 0, truncated: false },
  ]);
  return { spirals: [...kept.spirals, ...live.spirals], failedRead: kept.failedRead + live.failedRead, truncated: kept.truncated || live.truncated };
}

/** The kept spirals' attempts of [from, to) in scope, the latest SPIRAL_READ_LIMIT, but those of the `stale` runs, clipped to the range. */
async function readKeptAttempts(projectId: string, range: Range, scope: SpiralScope, minLength: number, stale: Set<string>): Promise<SpiralRead> {
  const params: unknown[] = [projectId, range.from, range.to, SPIRAL_READ_LIMIT, minLength];
  const { rows } = await pool().query<KeptAttempt>(
    `SELECT ${KEPT_ATTEMPT_COLUMNS}
       FROM (SELECT * FROM ${KEPT_SPIRALS}
              WHERE project_id = $1 AND at >= $2 AND at < $3 AND length >= $5${scopeFilters(scope, params)}
              ORDER BY at DESC LIMIT $4) a
      ORDER BY run_id COLLATE "C", spiral COLLATE "C", position`,
    params,
  );
  return {
    spirals: spiralsOfKeptAttempts(stale.size ? rows.filter((r) => !stale.has(r.runId)) : rows, minLength),
    failedRead: rows.length,
    truncated: rows.length >= SPIRAL_READ_LIMIT,
  };
}

/** The spirals among the failed attempts of [from, to) in scope (of the `runs` only, when given), read with their next calls. */
async function readFailedAttempts(projectId: string, range: Range, scope: SpiralScope, minLength: number, runs?: string[]): Promise<SpiralRead> {
  const params: unknown[] = [projectId, range.from, range.to, SPIRAL_READ_LIMIT];
  const filters = scopeFilters(scope, params) + (runs ? ` AND run_id = ANY($${params.push(runs)}::text[])` : "");
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
     SELECT total.failed_read, l.id, l.run_id, l.turn, ${timeMs("l.timestamp")} AS at, l.tool, l.model_name, l.model_version, l.valid, l.result_status,
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
      ...runCallOf(r),
      runId: r.run_id,
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
export async function spiralSummary(projectId: string, range: Range, scope: SpiralScope = {}, minLength = 3) {
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

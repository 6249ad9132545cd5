// Retry spirals kept per run (server/domain/spirals.ts, keptAttemptsOfRun): the statements that
// change a run's calls mark the run stale (STALE_RUNS, markSpiralRunsStale), and this refresh, run
// by the worker every minute, computes each marked run's spirals from its whole run, keeps their
// attempts (KEPT_SPIRALS) and clears the mark. Reads (spirals.ts) clip the kept attempts to their
// range and take the stale runs from their calls, so no read waits for the refresh.
import type { ClientBase } from "pg";
import { statusesOf } from "../../../isomorphic/outcome";
import { keptAttemptsOfRun, type KeptAttempt, type RunCall } from "../../domain/spirals";
import { runOrderSql } from "../../domain/run-order";
import { refreshMarked } from "../rollups/marked";

/** One row per attempt of each kept spiral. */
export const KEPT_SPIRALS = "spiral_attempts";
/** The runs whose kept spirals may be out of date. */
export const STALE_RUNS = "spiral_stale_runs";

/** A call's time in ms, as CallRow and KeptAttempt have it. */
export const timeMs = (column: string) => `round(date_part('epoch', ${column}) * 1000)`;

/** A kept attempt's columns as a KeptAttempt (time in ms). */
export const KEPT_ATTEMPT_COLUMNS = `run_id AS "runId", tool, spiral, position, length, call_id AS id, ${timeMs("at")} AS at,
  model_name AS model, model_version AS "modelVersion", cost_usd AS "costUsd", tokens::float8 AS tokens, ended_by AS "endedBy"`;

/**
 * A failed attempt (server/domain/spirals.ts attemptFailed) in SQL: the predicate of the partial
 * index tool_calls_failed_tool_idx (prisma/schema.prisma), so that a tool's are read from it alone.
 * `valid IS FALSE`, not `valid = false`, which PostgreSQL does not prove from `valid = false`:
 * other statements' own `valid = false` (the pairing's, on stale statistics) cannot take the index.
 */
export const FAILED_ATTEMPT_SQL = `(valid IS FALSE OR result_status IN (${statusesOf("failed")
  .map((s) => `'${s}'`)
  .join(", ")}))`;

/**
 * Marks stale every run of the project that has a failed attempt, so that the worker keeps all
 * its spirals: for calls written by other means than ingestion's statements (the benchmark's
 * bulk load). The migration that made the kept spirals did the same for every project.
 */
export async function markRunsWithFailuresStale(client: ClientBase, projectId: string) {
  await client.query(
    `INSERT INTO ${STALE_RUNS} (project_id, run_id) SELECT DISTINCT $1::uuid, run_id FROM tool_calls WHERE project_id = $1 AND ${FAILED_ATTEMPT_SQL} ON CONFLICT DO NOTHING`,
    [projectId],
  );
}

/** The runs one transaction keeps again: the project's ingestion waits for it (below). */
const RUNS_PER_TRANSACTION = 500;

/**
 * A data-modifying CTE marking stale the runs of the calls in CTE `from` (with their `run_id`,
 * `valid` and `result_status`) whose spirals they may change: a run where one of them is a failed
 * attempt, or a run with kept spirals. A run with neither has no spiral, and calls that did not
 * fail cannot make one (they only break or end streaks); a run that is stale already stays
 * marked. A mark already there is left as it is (no row lock); sorted, so that concurrent batches
 * insert new marks in one order.
 */
export const markSpiralRunsStale = (from: string) => `spiral_stale_runs AS (
  INSERT INTO ${STALE_RUNS} (project_id, run_id)
  SELECT DISTINCT $1::uuid, run_id FROM ${from} c
   WHERE ${FAILED_ATTEMPT_SQL} OR EXISTS (SELECT FROM ${KEPT_SPIRALS} k WHERE k.project_id = $1 AND k.run_id = c.run_id)
   ORDER BY 2 ON CONFLICT DO NOTHING
)`;

/** Marks these runs stale, whole (statements without a CTE of their own: a re-check's verdicts, OTLP's renumbered steps and merged conversations). */
export async function markRunsStale(client: ClientBase, projectId: string, runIds: readonly string[]) {
  if (!runIds.length) return;
  await client.query(`INSERT INTO ${STALE_RUNS} (project_id, run_id) SELECT $1::uuid, r FROM unnest($2::text[]) r ORDER BY 2 ON CONFLICT DO NOTHING`, [
    projectId,
    [...new Set(runIds)],
  ]);
}

/** A call as the spirals' reads select it (`at`: its time in ms, timeMs). */
export type CallRow = {
  run_id: string;
  id: string;
  tool: string;
  turn: number | null;
  at: number;
  model_name: string;
  model_version: string | null;
  valid: boolean | null;
  result_status: string | null;
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
};

/** A selected call as the detector reads it. */
export const runCallOf = (r: CallRow): RunCall => ({
  id: r.id,
  tool: r.tool,
  turn: r.turn,
  valid: r.valid,
  resultStatus: r.result_status,
  costUsd: r.cost_usd,
  inputTokens: r.input_tokens,
  outputTokens: r.output_tokens,
  model: r.model_name,
  modelVersion: r.model_version,
  at: r.at,
});

/** The spirals of these runs (all the project's when null), computed from their whole runs: one row per attempt. */
export async function spiralAttemptsOfRuns(client: ClientBase, projectId: string, runIds: string[] | null): Promise<KeptAttempt[]> {
  const { rows } = await client.query<CallRow>(
    `SELECT run_id, id, tool, turn, ${timeMs("timestamp")} AS at, model_name, model_version, valid, result_status,
            cost_usd, input_tokens, output_tokens
       FROM tool_calls WHERE project_id = $1 AND ($2::text[] IS NULL OR run_id = ANY($2::text[])) ORDER BY run_id, ${runOrderSql()}`,
    [projectId, runIds],
  );
  const attempts: KeptAttempt[] = [];
  for (let i = 0; i < rows.length;) {
    const runId = rows[i]!.run_id;
    const run: RunCall[] = [];
    for (; i < rows.length && rows[i]!.run_id === runId; i++) run.push(runCallOf(rows[i]!));
    attempts.push(...keptAttemptsOfRun(runId, run));
  }
  return attempts;
}

/**
 * Keeps the spirals of up to `limit` of the project's stale runs again, from their whole runs, and
 * clears their marks, in the caller's transaction, which must hold the project's rollup lock
 * exclusively (server/services/rollups/marked.ts). Answers how many runs it kept.
 */
async function keepStaleRuns(client: ClientBase, projectId: string, limit = RUNS_PER_TRANSACTION) {
  const { rows: marks } = await client.query<{ run_id: string }>(
    `DELETE FROM ${STALE_RUNS} WHERE project_id = $1 AND run_id = ANY(array(SELECT run_id FROM ${STALE_RUNS} WHERE project_id = $1 ORDER BY run_id LIMIT $2)) RETURNING run_id`,
    [projectId, limit],
  );
  const runIds = marks.map((m) => m.run_id);
  if (!runIds.length) return 0;
  const attempts = await spiralAttemptsOfRuns(client, projectId, runIds);
  await client.query(`DELETE FROM ${KEPT_SPIRALS} WHERE project_id = $1 AND run_id = ANY($2::text[])`, [projectId, runIds]);
  if (attempts.length)
    await client.query(
      `INSERT INTO ${KEPT_SPIRALS} (project_id, run_id, call_id, tool, spiral, position, length, at, model_name, model_version, cost_usd, tokens, ended_by)
       SELECT $1::uuid, run_id, call_id, tool, spiral, position, length, to_timestamp(at / 1000.0), model_name, model_version, cost_usd, tokens, ended_by
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int4[], $7::int4[], $8::float8[], $9::text[], $10::text[], $11::float8[], $12::int8[], $13::text[])
           AS a(run_id, call_id, tool, spiral, position, length, at, model_name, model_version, cost_usd, tokens, ended_by)`,
      [
        projectId,
        attempts.map((a) => a.runId),
        attempts.map((a) => a.id),
        attempts.map((a) => a.tool),
        attempts.map((a) => a.spiral),
        attempts.map((a) => a.position),
        attempts.map((a) => a.length),
        attempts.map((a) => a.at),
        attempts.map((a) => a.model),
        attempts.map((a) => a.modelVersion),
        attempts.map((a) => a.costUsd),
        attempts.map((a) => a.tokens),
        attempts.map((a) => a.endedBy),
      ],
    );
  return runIds.length;
}

/**
 * The worker's refresh: every project's stale runs (or only `projectId`'s), RUNS_PER_TRANSACTION
 * at a time, until none is left or `budgetMs` has passed. Answers the projects and runs done.
 */
export async function refreshKeptSpirals(options: { projectId?: string; budgetMs?: number } = {}) {
  const { projects, done } = await refreshMarked(STALE_RUNS, RUNS_PER_TRANSACTION, keepStaleRuns, options);
  return { projects, runs: done };
}

// Parallel calls of a tool or of model versions (docs/events.md, "Parallel calls"), read from a
// bounded sample whatever the project's size: the scope's newest calls of the range that carry a
// turn (PARALLEL_READ_LIMIT each, from a partial index of the calls with a turn, read from the
// index alone), then every call of the turns they belong to (one descent each of
// tool_calls_turn_group_idx). Calls without a turn (sources that report none) are never read.
import { MIN_PARALLEL_GROUPS, parallelShares, summarizeParallel, type ParallelSummary, type TurnMember } from "../../domain/parallel-calls";
import { pool } from "../../db/client";

/** The most calls of one scope a read takes (the newest of the range); a read that reaches it says so. */
const PARALLEL_READ_LIMIT = 500;
/** The most calls of one turn read (far more than any model requests at once). */
const TURN_LIMIT = 1000;

type Range = { from: Date; to: Date };
type Row = {
  run_id: string;
  turn: number;
  tool: string;
  model_name: string;
  model_version: string | null;
  valid: boolean | null;
  result_status: string | null;
  result_id_kept: boolean | null;
  at: Date;
};

/** What a page shows for one scope: the counts, the shares (null where too few groups) and whether the read was cut. */
export type ParallelFigures = ParallelSummary & { shares: ReturnType<typeof parallelShares>; truncated: boolean; minGroups: number };

/**
 * Every call of the sampled turns (`sampled`: a FROM item giving scope, run_id, turn: `scope` numbers
 * the scopes of one read, each sampled on its own), per scope, with how many calls its sample read.
 */
const membersSql = (sampled: string) => `
  WITH sampled AS MATERIALIZED (${sampled}),
  turns AS (SELECT DISTINCT scope, run_id, turn FROM sampled),
  reads AS (SELECT scope, count(*)::int AS read FROM sampled GROUP BY scope)
  SELECT t.scope::int AS scope, r.read, c.run_id, c.turn, c.tool, c.model_name, c.model_version, c.valid, c.result_status, c.result_id_kept, c.timestamp AS at
    FROM turns t
    JOIN reads r ON r.scope = t.scope
    -- the LIMIT keeps the lookup a descent of tool_calls_turn_group_idx per turn (without it the planner may hash-join a scan of the project)
    JOIN LATERAL (SELECT run_id, turn, tool, model_name, model_version, valid, result_status, result_id_kept, timestamp
                    FROM tool_calls c WHERE c.project_id = $1 AND c.run_id = t.run_id AND c.turn = t.turn AND c.turn IS NOT NULL LIMIT ${TURN_LIMIT}) c ON true`;

type MemberRow = Row & { scope: number; read: number };

const member = (r: Row, sampled: boolean): TurnMember => ({
  runId: r.run_id,
  turn: r.turn,
  tool: r.tool,
  model: r.model_name,
  modelVersion: r.model_version,
  valid: r.valid,
  resultStatus: r.result_status,
  resultIdKept: r.result_id_kept,
  sampled,
});

/** The figures of one scope among the read turns: `own` says which calls are the scope's (and in the range). */
function figures(rows: readonly Row[], own: (r: Row) => boolean, read: number): ParallelFigures {
  const turnsOfScope = new Set(rows.filter(own).map((r) => `${r.run_id}\n${r.turn}`));
  const summary = summarizeParallel(rows.filter((r) => turnsOfScope.has(`${r.run_id}\n${r.turn}`)).map((r) => member(r, own(r))));
  return { ...summary, shares: parallelShares(summary), truncated: read >= PARALLEL_READ_LIMIT, minGroups: MIN_PARALLEL_GROUPS };
}

const inRange = (r: Row, range: Range) => r.at >= range.from && r.at < range.to;

/** A tool's parallel calls over the range (the tool page's card). */
export async function toolParallelCalls(projectId: string, tool: string, range: Range): Promise<ParallelFigures> {
  const { rows } = await pool().query<MemberRow>(
    membersSql(`SELECT 0 AS scope, run_id, turn FROM tool_calls
                 WHERE project_id = $1 AND tool = $2 AND timestamp >= $3 AND timestamp < $4 AND turn IS NOT NULL
                 ORDER BY timestamp DESC LIMIT $5`),
    [projectId, tool, range.from, range.to, PARALLEL_READ_LIMIT],
  );
  return figures(rows, (r) => r.tool === tool && inRange(r, range), rows[0]?.read ?? 0);
}

export type VersionRef = { model: string; version: string | null };

/**
 * Each model version's parallel calls over the range (the models page's card), in the order asked:
 * one read, each version sampled on its own (a null version and a named one each by their own index
 * descent, of which the version's own condition leaves one to run).
 */
export async function modelParallelCalls(projectId: string, versions: readonly VersionRef[], range: Range): Promise<(VersionRef & ParallelFigures)[]> {
  if (!versions.length) return [];
  const newest = (version: string) => `(SELECT run_id, turn FROM tool_calls
      WHERE project_id = $1 AND model_name = v.model AND ${version} AND timestamp >= $2 AND timestamp < $3 AND turn IS NOT NULL
      ORDER BY timestamp DESC LIMIT $4)`;
  const { rows } = await pool().query<MemberRow>(
    membersSql(`SELECT v.scope, s.run_id, s.turn
                  FROM unnest($5::text[], $6::text[]) WITH ORDINALITY v(model, version, scope)
                 CROSS JOIN LATERAL (${newest("v.version IS NULL AND model_version IS NULL")} UNION ALL ${newest("model_version = v.version")}) s`),
    [projectId, range.from, range.to, PARALLEL_READ_LIMIT, versions.map((v) => v.model), versions.map((v) => v.version)],
  );
  const byScope = new Map<number, MemberRow[]>();
  for (const r of rows) byScope.set(r.scope, [...(byScope.get(r.scope) ?? []), r]);
  return versions.map((v, i) => {
    const scope = byScope.get(i + 1) ?? [];
    const own = (r: Row) => r.model_name === v.model && r.model_version === v.version && inRange(r, range);
    return { ...v, ...figures(scope, own, scope[0]?.read ?? 0) };
  });
}

import type { PoolClient } from "pg";
import type { ToolCallEvent } from "../../../contracts/event";
import { patternOf } from "../../domain/failure-patterns";
import { recoveredTest } from "../rollups/tables";
import { ROLLUP_INSERT_INPUTS, rollupInsertCtes, rollupLinkCtes } from "../rollups/write";
import { runOrderSql, sameToolNeighbourSql } from "../../domain/run-order";
import { markSpiralRunsStale } from "../metrics/spirals-kept";
import type { CallVerdict } from "../../domain/verdicts";

export type PreparedCall = { event: ToolCallEvent; verdict: CallVerdict };

/** Column name → SQL array type and how to read it from a prepared call. */
const COLUMNS: [string, string, (c: PreparedCall) => unknown][] = [
  ["id", "text", (c) => c.event.id],
  ["run_id", "text", (c) => c.event.runId],
  ["step", "int4", (c) => c.event.step ?? null],
  ["turn", "int4", (c) => c.event.turn ?? null],
  ["timestamp", "timestamptz", (c) => c.event.timestamp],
  ["model_provider", "text", (c) => c.event.model.provider ?? null],
  ["model_name", "text", (c) => c.event.model.name],
  ["model_version", "text", (c) => c.event.model.version ?? null],
  ["tool", "text", (c) => c.event.tool],
  ["arguments", "jsonb", (c) => JSON.stringify(c.event.arguments)],
  ["valid", "bool", (c) => c.verdict.valid],
  ["category", "text", (c) => c.verdict.category],
  ["message", "text", (c) => c.verdict.message],
  ["harness_valid", "bool", (c) => c.event.outcome?.valid ?? null],
  ["harness_category", "text", (c) => c.event.outcome?.category ?? null],
  ["harness_message", "text", (c) => c.event.outcome?.message ?? null],
  ["checked_valid", "bool", (c) => c.verdict.checked?.valid ?? null],
  ["checked_category", "text", (c) => c.verdict.checked?.category ?? null],
  ["checked_message", "text", (c) => c.verdict.checked?.message ?? c.verdict.unchecked ?? null],
  ["checked_path", "text", (c) => c.verdict.checked?.path ?? null],
  ["checked_version", "text", (c) => c.verdict.checked?.version ?? null],
  ["violations", "jsonb", (c) => JSON.stringify(c.verdict.checked?.violations ?? [])],
  ["verdicts_differ", "bool", (c) => c.verdict.differ],
  ["result_status", "text", (c) => c.event.result?.status ?? null],
  ["result_summary", "text", (c) => c.event.result?.summary ?? null],
  ["latency_ms", "int4", (c) => c.event.result?.latencyMs ?? null],
  ["corrects_id", "text", (c) => c.event.correctsId ?? null],
  ["input_tokens", "int4", (c) => c.event.usage?.inputTokens ?? null],
  ["output_tokens", "int4", (c) => c.event.usage?.outputTokens ?? null],
  ["cost_usd", "float8", (c) => c.event.usage?.costUsd ?? null],
  ["tool_version", "text", (c) => c.event.toolVersion ?? null],
  ["metadata", "jsonb", (c) => JSON.stringify(c.event.metadata ?? {})],
  ["pattern", "text", (c) => patternOf({ ...c.event, ...c.verdict, violations: c.verdict.checked?.violations })],
];

const names = COLUMNS.map(([name]) => `"${name}"`).join(", ");
const unnest = COLUMNS.map(([, type], i) => `$${i + 2}::${type}[]`).join(", ");

/**
 * One statement per batch: insert the calls (a re-sent id is skipped), add only the newly
 * inserted ones to the hourly and daily rollups and mark stale the kept spirals of the runs they
 * may change (server/services/metrics/spirals-kept.ts). Hours and days are UTC. Returns the ids
 * it inserted, and where it put those rows (their ctids, for PAIR_SQL).
 */
const INSERT_SQL = `
WITH ins AS (
  INSERT INTO tool_calls (project_id, ${names})
  SELECT $1::uuid, * FROM unnest(${unnest}) ORDER BY 2
  ON CONFLICT (project_id, id) DO NOTHING
  RETURNING ctid, id, run_id, result_status, ${ROLLUP_INSERT_INPUTS}
), ${rollupInsertCtes}, ${markSpiralRunsStale("ins")}
SELECT coalesce(array_agg(id), '{}') AS ids, coalesce(array_agg(ctid::text), '{}') AS tids FROM ins`;

/** Whether call `n` may be the correction of call `c` by the turns: not when both are of one turn (one model response). */
const notOfTurnSql = (n: string, c: string) => `(${n}.turn = ${c}.turn) IS NOT TRUE`;

/**
 * Links invalid calls to their next corrected call (docs/pairing.md): the earliest call, in
 * run order, naming it in corrects_id, otherwise the next call of its run, in run order, that
 * names the same tool and is not of its turn (`notOfTurnSql`: a call written in the same model
 * response was written before the model saw the error). This is the only place the rule is
 * applied: every read follows the stored `correction_id`. With each link it stores whether the
 * link recovered the call (`recovered`: the correction exists and is not itself invalid, read by
 * the schema doctor's patterns), and each change of a link is applied to the rollups: `corrected`
 * (calls) and `followed`/`recovered` (messages, the difference of the stored `recovered`). After a
 * re-check (`verdictsChanged`) a link that stays may have changed whether it recovered (its
 * correction's verdict changed): those rows are updated too.
 *
 * Only the links a batch can change are recomputed, which is what keeps a batch's cost
 * independent of the length of the runs it touches: the new invalid calls ($2), the calls the
 * new ones name in corrects_id, and, for each new call, the call right before it among its
 * run's calls of the same tool (its next same-tool call may now be the new one) with, when the
 * new call is not of that call's turn, that turn's other calls of the tool (a call between
 * them and the new one was of their turn, so the new one may be their correction too: turn 0's
 * invalid a1 and a2 are both corrected by turn 1's a3). A correction that arrives before, with
 * or after the invalid call thus ends up linked the same way. `$3` names runs to recompute
 * whole (OTLP renumbers a run's steps, which may move any of its calls).
 *
 * The plan must not depend on the table's statistics, which for a new project (or new runs)
 * predate its rows (docs/PERFORMANCE.md): the rows to re-link are found and updated by their
 * physical address (`ctid`: the batch's from its INSERT, the others from the lookups that find
 * them, all within the project), never by an id or project the planner could look up through
 * the wrong index: a list of ctids leaves it a TID scan, or a sequential scan of the whole
 * table when its statistics say the table is empty (taken before the first calls came), which
 * pair() rules out; every neighbour
 * lookup is one index descent ordered by the run order (sameToolNeighbourSql), planned with
 * sorting disabled (pair()), which the turn condition only makes read past the invalid call's
 * own parallel calls of the tool; a turn's calls are read from the partial index
 * (project_id, run_id, turn), the only one that holds all three.
 */
const pairSql = (answer: string, verdictsChanged = false) => `
WITH new AS (
  SELECT ctid AS tid, id, run_id, tool, step, turn, timestamp, corrects_id, valid FROM tool_calls WHERE ctid = ANY($2::tid[])
), previous AS MATERIALIZED (
  SELECT ${sameToolNeighbourSql("new", "previous", "ctid")} AS tid, new.run_id, new.tool, new.turn AS new_turn FROM new
), before_new AS (
  -- the previous call's turn by its ctid, as a subplan: written as a join (or LATERAL), the
  -- planner hash-joined a scan of the whole table on ctid (214,000 rows for runs of 100,000 calls)
  SELECT p.tid, p.turn, p.run_id, p.tool, ${notOfTurnSql("n", "p")} AS new_may_correct
    FROM (SELECT b.tid, (SELECT c.turn FROM tool_calls c WHERE c.ctid = b.tid) AS turn, b.run_id, b.tool, b.new_turn
            FROM previous b WHERE b.tid IS NOT NULL) p, LATERAL (SELECT p.new_turn AS turn) n
), targets AS (
  SELECT tid FROM new WHERE valid = false
  UNION SELECT (SELECT c.ctid FROM tool_calls c WHERE c.project_id = $1 AND c.id = new.corrects_id) FROM new WHERE corrects_id IS NOT NULL
  UNION SELECT tid FROM before_new
  UNION SELECT unnest(array(SELECT s.ctid FROM tool_calls s WHERE s.project_id = $1 AND s.run_id = p.run_id AND s.turn = p.turn AND s.tool = p.tool))
          FROM before_new p WHERE p.turn IS NOT NULL AND p.new_may_correct
  UNION SELECT ctid FROM tool_calls WHERE cardinality($3::text[]) > 0 AND project_id = $1 AND run_id = ANY($3::text[]) AND valid = false
), links AS MATERIALIZED (
  SELECT t.ctid AS tid, t.tool, t.timestamp, t.correction_id AS previous, t.recovered AS was_recovered,
         coalesce((SELECT e.id FROM tool_calls e WHERE e.project_id = $1 AND e.corrects_id = t.id ORDER BY ${runOrderSql("e")} LIMIT 1),
                  ${sameToolNeighbourSql("t", "next", "id", true, notOfTurnSql("n", "t"))}) AS correction
    FROM tool_calls t
   WHERE t.ctid = ANY(array(SELECT tid FROM targets WHERE tid IS NOT NULL)) AND t.valid = false
), changed AS (
  UPDATE tool_calls t SET correction_id = l.correction, recovered = ${recoveredTest("l.correction")}
    FROM links l
   WHERE t.ctid = ANY(array(SELECT tid FROM links)) AND t.ctid = l.tid
     AND (t.correction_id IS DISTINCT FROM l.correction${verdictsChanged ? ` OR t.recovered <> ${recoveredTest("l.correction")}` : ""})
  RETURNING t.timestamp, t.tool, t.model_name, t.model_version, t.category, t.message,
            (l.previous IS NULL)::int - (t.correction_id IS NULL)::int AS followed,
            t.recovered::int - l.was_recovered::int AS recovered
), ${rollupLinkCtes}
${answer}`;
export const PAIR_SQL = pairSql("SELECT");
/** The same, answering the tool and time of every invalid call whose link it recomputed (changed or not). */
const RELINK_SQL = pairSql("SELECT DISTINCT tool, timestamp FROM links", true);

/** Runs the pairing statement for these rows (their ctids) and runs, planned without sorts or sequential scans (see PAIR_SQL). */
async function pair<Row extends object = object>(client: PoolClient, sql: string, projectId: string, rows: string[], runIds: string[]): Promise<Row[]> {
  // no finally: after an error the transaction is aborted, and its end undoes the SET LOCAL
  await client.query("SET LOCAL enable_sort = off; SET LOCAL enable_seqscan = off");
  const answer = await client.query<Row>(sql, [projectId, rows, runIds]);
  await client.query("RESET enable_sort; RESET enable_seqscan");
  return answer.rows;
}

/** Writes the calls in the caller's transaction; returns the ids of those that were new. */
export async function writeCalls(client: PoolClient, projectId: string, calls: PreparedCall[]): Promise<string[]> {
  if (!calls.length) return [];
  const columns = COLUMNS.map(([, , read]) => calls.map(read));
  const { rows } = await client.query<{ ids: string[]; tids: string[] }>(INSERT_SQL, [projectId, ...columns]);
  const { ids = [], tids = [] } = rows[0] ?? {};
  if (tids.length) await pair(client, PAIR_SQL, projectId, tids, []);
  return ids;
}

/** Re-links every invalid call of these runs to its correction, rollups included (after their steps were renumbered). */
export async function pairRuns(client: PoolClient, projectId: string, runIds: string[]): Promise<void> {
  await pair(client, PAIR_SQL, projectId, [], runIds);
}

/**
 * Re-links the calls whose verdicts were changed after they were stored (tools.recheck), as if
 * they had just arrived, and answers the tool and time of every invalid call whose link (and so
 * whose `corrected`, `followed` and `recovered` counts) may depend on them.
 */
export async function relinkCalls(client: PoolClient, projectId: string, ids: string[]): Promise<{ tool: string; timestamp: Date }[]> {
  if (!ids.length) return [];
  const { rows } = await client.query<{ tid: string }>("SELECT ctid::text AS tid FROM tool_calls WHERE project_id = $1 AND id = ANY($2::text[])", [
    projectId,
    ids,
  ]);
  return pair<{ tool: string; timestamp: Date }>(
    client,
    RELINK_SQL,
    projectId,
    rows.map((r) => r.tid),
    [],
  );
}

// The incremental writes of the rollups, as data-modifying CTEs for ingestion's statements
// (server/services/ingest/write-calls.ts): one per rollup table, hourly and daily, and one that
// marks the days written to as stale in the coarse tables (which the worker recomputes: coarse.ts).
import type { ClientBase } from "pg";
import {
  CALL_ROLLUPS,
  callKeyOf,
  dayOf,
  ERROR_MESSAGE_ROLLUPS,
  granularities,
  incrementalTables,
  messageKey,
  OUTCOME_COUNT_COLUMNS,
  outcomeAggregates,
  outcomeInputs,
  STALE_DAYS,
} from "./tables";

const MESSAGE_KEY = messageKey("message");

/**
 * A project's rollups are written by many transactions at once (each adds its calls), and
 * recomputed from the raw calls by one alone (rebuild.ts): the writers hold this lock shared and
 * a rebuild holds it exclusively, until their commit. A writer takes it first in its
 * transaction, before any other lock, so that no transaction holding it ever waits for one that
 * queues for it (a rebuild waits for the writers under way, and the writers that come after it
 * wait for the rebuild).
 */
export async function lockRollups(client: ClientBase, projectId: string, use: "write" | "rebuild") {
  await client.query(`SELECT pg_advisory_xact_lock${use === "write" ? "_shared" : ""}(hashtextextended('toolgate:rollups/' || $1::text, 0))`, [projectId]);
}

type Granularity = ReturnType<typeof granularities>[number];

/**
 * Marks the UTC days of the calls in `from` (a CTE, with an optional WHERE) stale in the coarse call
 * rollups. A mark already there is left as it is (no row lock); two batches inserting the same new
 * mark wait for each other as on a shared rollup row, sorted so that they insert in one order.
 */
const markStaleDays = (from: string) => `stale_days AS (
  INSERT INTO ${STALE_DAYS} (project_id, day) SELECT DISTINCT $1::uuid, ${dayOf("timestamp")} FROM ${from} ORDER BY 2 ON CONFLICT DO NOTHING
)`;

/** `SET` items adding the outcome columns of `from` to the rollup row `r`. */
const ADD_OUTCOMES = (from: string) =>
  [...OUTCOME_COUNT_COLUMNS.map((c) => `${c} = r.${c} + ${from}.${c}`), `latency_hist = toolgate_hist_add(r.latency_hist, ${from}.latency_hist)`].join(", ");

/** The bucket and the key columns of a rollup row by their places in a SELECT, the first at `first`: `2, 3, …` after the project. */
const bucketAndKeys = (keys: string[], first = 2) => Array.from({ length: keys.length + 1 }, (_, i) => i + first).join(", ");

/** Adds the new calls (`ins`) to one of the call rollups. Sorted, so that concurrent batches lock rows in one order. */
const addToCallRollup = ({ table, column, bucket, keys }: Granularity) => `
  INSERT INTO ${table} AS r (project_id, ${column}, ${keys.join(", ")}, calls, invalid, unchecked, input_tokens, output_tokens, cost_usd,
                             ${OUTCOME_COUNT_COLUMNS.join(", ")}, latency_hist)
  SELECT $1::uuid, ${bucket("timestamp")}, ${keys.map((k) => callKeyOf(k)).join(", ")},
         count(*), count(*) FILTER (WHERE valid = false), count(*) FILTER (WHERE valid IS NULL), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_usd), 0),
         ${outcomeAggregates()}
    FROM ins GROUP BY ${bucketAndKeys(keys)} ORDER BY ${bucketAndKeys(keys)}
  ON CONFLICT (project_id, ${column}, ${keys.join(", ")}) DO UPDATE SET
    calls = r.calls + excluded.calls, invalid = r.invalid + excluded.invalid, unchecked = r.unchecked + excluded.unchecked, input_tokens = r.input_tokens + excluded.input_tokens,
    output_tokens = r.output_tokens + excluded.output_tokens, cost_usd = r.cost_usd + excluded.cost_usd, ${ADD_OUTCOMES("excluded")}`;

/** Adds the new invalid calls' messages to one of the error-message rollups. */
const addToMessageRollup = ({ table, column, bucket }: Granularity) => `
  INSERT INTO ${table} AS r (project_id, ${column}, tool, message_hash, message, sent)
  SELECT $1::uuid, ${bucket("timestamp")}, tool, ${MESSAGE_KEY}, coalesce(message, ''), count(*)
    FROM ins WHERE valid = false GROUP BY 2, 3, 4, 5 ORDER BY 2, 3, 4
  ON CONFLICT (project_id, ${column}, tool, message_hash) DO UPDATE SET sent = r.sent + excluded.sent`;

/**
 * One data-modifying CTE per rollup table (both granularities of the call and the message
 * rollups), then the marks of the days of `stale` (the calls whose days they changed).
 */
const ROLLUP_WRITES = (calls: (g: Granularity) => string, messages: (g: Granularity) => string, stale: string) =>
  [
    ...[...incrementalTables(CALL_ROLLUPS).map(calls), ...incrementalTables(ERROR_MESSAGE_ROLLUPS).map(messages)].map((sql, i) => `rollup_${i} AS (${sql}\n)`),
    markStaleDays(stale),
  ].join(", ");

/** The key columns of a call rollup as computed from calls (`k AS k, …`), and `r.k = alias.k AND …` matching them. */
const callKeys = (keys: string[]) => keys.map((k) => `${callKeyOf(k)} AS ${k}`).join(", ");
const sameKeys = (keys: string[], alias: string) => keys.map((k) => `r.${k} = ${alias}.${k}`).join(" AND ");

/** Applies `changed` (the re-linked invalid calls) to one call rollup's `corrected` count. */
const correctCallRollup = ({ table, column, bucket, keys }: Granularity) => `
  UPDATE ${table} r SET corrected = r.corrected + c.change
    FROM (SELECT ${bucket("timestamp")} AS bucket, ${callKeys(keys)}, sum(followed) AS change
            FROM changed GROUP BY ${bucketAndKeys(keys, 1)} HAVING sum(followed) <> 0) c
   WHERE r.project_id = $1 AND r.${column} = c.bucket AND ${sameKeys(keys, "c")}`;

/** Applies `changed` to one error-message rollup's `followed` and `recovered` counts. */
const correctMessageRollup = ({ table, column, bucket }: Granularity) => `
  UPDATE ${table} r SET followed = r.followed + c.followed, recovered = r.recovered + c.recovered
    FROM (SELECT ${bucket("timestamp")} AS bucket, tool, ${MESSAGE_KEY} AS message_hash, sum(followed) AS followed, sum(recovered) AS recovered
            FROM changed GROUP BY 1, 2, 3 HAVING sum(followed) <> 0 OR sum(recovered) <> 0) c
   WHERE r.project_id = $1 AND r.${column} = c.bucket AND r.tool = c.tool AND r.message_hash = c.message_hash`;

/** What rollupInsertCtes read of each new call: the select list (a RETURNING's) of CTE `ins`. */
export const ROLLUP_INSERT_INPUTS = `timestamp, tool, model_name, model_version, category, message, valid, input_tokens, output_tokens, cost_usd, ${outcomeInputs()}`;

/** Adds the rows of CTE `ins` (newly inserted calls, with ROLLUP_INSERT_INPUTS) to every rollup table. */
export const rollupInsertCtes = ROLLUP_WRITES(addToCallRollup, addToMessageRollup, "ins");

/** Applies CTE `changed` (re-linked invalid calls with their `followed`/`recovered` changes) to every rollup table. */
export const rollupLinkCtes = ROLLUP_WRITES(correctCallRollup, correctMessageRollup, "changed WHERE followed <> 0");

/** What rollupResultCtes read of each call in CTE `moved` (besides its `weight`), over the columns of `alias` when given. */
export const rollupResultInputs = (alias?: string) =>
  `${["timestamp", "tool", "model_name", "model_version", "category"].map((c) => (alias ? `${alias}.${c}` : c)).join(", ")}, ${outcomeInputs(alias)}`;

/**
 * Moves calls' results in the call rollups: CTE `moved` holds calls (rollupResultInputs) with
 * `weight` -1 for a result taken out and 1 for the one put in its place (OTLP results that arrive
 * after their calls).
 */
export const rollupResultCtes = [
  ...incrementalTables(CALL_ROLLUPS).map(
    ({ table, column, bucket, keys }, i) => `result_rollup_${i} AS (
  UPDATE ${table} r SET ${ADD_OUTCOMES("m")}
    FROM (SELECT ${bucket("timestamp")} AS bucket, ${callKeys(keys)}, ${outcomeAggregates("weight")}
            FROM moved GROUP BY ${bucketAndKeys(keys, 1)}) m (bucket, ${keys.join(", ")}, ${OUTCOME_COUNT_COLUMNS.join(", ")}, latency_hist)
   WHERE r.project_id = $1 AND r.${column} = m.bucket AND ${sameKeys(keys, "m")}
)`,
  ),
  markStaleDays("moved"),
].join(", ");

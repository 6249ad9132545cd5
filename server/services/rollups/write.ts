// The incremental writes of the rollups, as data-modifying CTEs for ingestion's statements
// (server/services/ingest/write-calls.ts): one per rollup table, hourly and daily.
import { CALL_ROLLUPS, ERROR_MESSAGE_ROLLUPS, granularities, messageKey } from "./tables";

const MESSAGE_KEY = messageKey("message");

type Granularity = ReturnType<typeof granularities>[number];

/** Adds the new calls (`ins`) to one of the call rollups. Sorted, so that concurrent batches lock rows in one order. */
const addToCallRollup = ({ table, column, bucket }: Granularity) => `
  INSERT INTO ${table} AS r (project_id, ${column}, tool, model_name, model_version, category, calls, invalid, input_tokens, output_tokens, cost_usd)
  SELECT $1::uuid, ${bucket("timestamp")}, tool, model_name, coalesce(model_version, ''), coalesce(category, ''),
         count(*), count(*) FILTER (WHERE valid = false), coalesce(sum(input_tokens), 0), coalesce(sum(output_tokens), 0), coalesce(sum(cost_usd), 0)
    FROM ins GROUP BY 2, 3, 4, 5, 6 ORDER BY 2, 3, 4, 5, 6
  ON CONFLICT (project_id, ${column}, tool, model_name, model_version, category) DO UPDATE SET
    calls = r.calls + excluded.calls, invalid = r.invalid + excluded.invalid, input_tokens = r.input_tokens + excluded.input_tokens,
    output_tokens = r.output_tokens + excluded.output_tokens, cost_usd = r.cost_usd + excluded.cost_usd`;

/** Adds the new invalid calls' messages to one of the error-message rollups. */
const addToMessageRollup = ({ table, column, bucket }: Granularity) => `
  INSERT INTO ${table} AS r (project_id, ${column}, tool, message_hash, message, sent)
  SELECT $1::uuid, ${bucket("timestamp")}, tool, ${MESSAGE_KEY}, coalesce(message, ''), count(*)
    FROM ins WHERE valid = false GROUP BY 2, 3, 4, 5 ORDER BY 2, 3, 4
  ON CONFLICT (project_id, ${column}, tool, message_hash) DO UPDATE SET sent = r.sent + excluded.sent`;

/** One data-modifying CTE per rollup table (both granularities of the call and the message rollups). */
const ROLLUP_WRITES = (calls: (g: Granularity) => string, messages: (g: Granularity) => string) =>
  [...granularities(CALL_ROLLUPS).map(calls), ...granularities(ERROR_MESSAGE_ROLLUPS).map(messages)].map((sql, i) => `rollup_${i} AS (${sql}\n)`).join(", ");

/** Applies `changed` (the re-linked invalid calls) to one call rollup's `corrected` count. */
const correctCallRollup = ({ table, column, bucket }: Granularity) => `
  UPDATE ${table} r SET corrected = r.corrected + c.change
    FROM (SELECT ${bucket("timestamp")} AS bucket, tool, model_name, coalesce(model_version, '') AS model_version, coalesce(category, '') AS category,
                 sum(followed) AS change
            FROM changed GROUP BY 1, 2, 3, 4, 5 HAVING sum(followed) <> 0) c
   WHERE r.project_id = $1 AND r.${column} = c.bucket AND r.tool = c.tool AND r.model_name = c.model_name
     AND r.model_version = c.model_version AND r.category = c.category`;

/** Applies `changed` to one error-message rollup's `followed` and `recovered` counts. */
const correctMessageRollup = ({ table, column, bucket }: Granularity) => `
  UPDATE ${table} r SET followed = r.followed + c.followed, recovered = r.recovered + c.recovered
    FROM (SELECT ${bucket("timestamp")} AS bucket, tool, ${MESSAGE_KEY} AS message_hash, sum(followed) AS followed, sum(recovered) AS recovered
            FROM changed GROUP BY 1, 2, 3 HAVING sum(followed) <> 0 OR sum(recovered) <> 0) c
   WHERE r.project_id = $1 AND r.${column} = c.bucket AND r.tool = c.tool AND r.message_hash = c.message_hash`;

/** Adds the rows of CTE `ins` (newly inserted calls) to every rollup table. */
export const rollupInsertCtes = ROLLUP_WRITES(addToCallRollup, addToMessageRollup);

/** Applies CTE `changed` (re-linked invalid calls with their `followed`/`recovered` changes) to every rollup table. */
export const rollupLinkCtes = ROLLUP_WRITES(correctCallRollup, correctMessageRollup);

import { to as copyTo } from "pg-copy-streams";
import { CALL_VERDICTS, type CallsFilter, type CallVerdictName } from "../../../contracts/metrics";
import { emptyResultSql, statusesOf } from "../../../isomorphic/outcome";
import { checkedCalls, countVerdicts, observedAttemptsPerSuccess, validCalls } from "../../../isomorphic/stats";
import { DomainError, invalid as invalidInput } from "../../domain/errors";
import { RUN_ORDER } from "../../domain/run-order";
import { env } from "../../env";
import { pool, prisma } from "../../db/client";
import { callSelect } from "./call-detail";

/**
 * The calls filter as SQL over tool_calls: the one translation that the explorer's list
 * and its CSV export share, so that both always select the same calls. Values go into
 * `values` as bind parameters ($1, $2, …). Every filter is indexed or narrows an indexed scan.
 *
 * The verdict filter keeps one of the three verdicts: valid, invalid, or unchecked (`valid` is
 * null: no schema registered and no harness verdict), which is neither valid nor invalid.
 */
/** Each verdict (isomorphic/stats.ts verdictOf) as a condition on tool_calls' `valid` column: the filter and the CSV's verdict column. */
const VERDICT_SQL: Record<CallVerdictName, string> = { valid: "valid", invalid: "valid = false", unchecked: "valid IS NULL" };
const VERDICT_CELL = `CASE ${CALL_VERDICTS.map((v) => `WHEN ${VERDICT_SQL[v]} THEN '${v}'`).join(" ")} END AS "verdict"`;

function callsFilterSql(projectId: string, f: CallsFilter, values: unknown[]): string {
  const param = (value: unknown) => `$${values.push(value)}`;
  const clauses = [`project_id = ${param(projectId)}::uuid`];
  if (f.from) clauses.push(`timestamp >= ${param(f.from)}::timestamptz`);
  if (f.to) clauses.push(`timestamp < ${param(f.to)}::timestamptz`);
  if (f.tool) clauses.push(`tool = ${param(f.tool)}`);
  if (f.model) clauses.push(`model_name = ${param(f.model)}`);
  if (f.modelVersion) clauses.push(`model_version = ${param(f.modelVersion)}`);
  if (f.valid) clauses.push(VERDICT_SQL[f.valid]);
  if (f.category) clauses.push(`category = ${param(f.category)}`);
  if (f.runId) clauses.push(`run_id = ${param(f.runId)}`);
  if (f.q) clauses.push(`message ILIKE ${param(`%${f.q.replace(/[\\%_]/g, "\\$&")}%`)}`);
  if (f.disagree) clauses.push("verdicts_differ");
  if (f.outcome) {
    const statuses = statusesOf(f.outcome);
    clauses.push(`valid IS DISTINCT FROM false AND ${statuses.length ? `result_status = ANY(${param(statuses)}::text[])` : "result_status IS NULL"}`);
    if (f.outcome === "empty") clauses.push(emptyResultSql("result_status", "result_summary"));
  }
  return clauses.join(" AND ");
}

/** One row of the explorer's list. */
export type CallListRow = {
  id: string;
  runId: string;
  step: number | null;
  timestamp: Date;
  modelName: string;
  modelVersion: string | null;
  tool: string;
  valid: boolean | null;
  category: string | null;
  message: string | null;
  verdictsDiffer: boolean;
  correctionId: string | null;
};

const LIST_COLUMNS = `id, run_id AS "runId", step, timestamp, model_name AS "modelName", model_version AS "modelVersion", tool, valid, category,
  message, verdicts_differ AS "verdictsDiffer", correction_id AS "correctionId"`;

const encodeCursor = (c: { timestamp: Date; id: string }) => Buffer.from(JSON.stringify([c.timestamp.toISOString(), c.id])).toString("base64url");
function decodeCursor(cursor: string) {
  try {
    const [timestamp, id] = JSON.parse(Buffer.from(cursor, "base64url").toString()) as [string, string];
    if (typeof id !== "string" || typeof timestamp !== "string" || Number.isNaN(Date.parse(timestamp))) throw new Error("not a cursor");
    return { timestamp, id };
  } catch {
    throw invalidInput("The page cursor is not one this server gave out: start from the first page.");
  }
}

/** Newest first (or oldest first), paged by a (timestamp, id) cursor. */
export async function listCalls(projectId: string, filter: CallsFilter, cursor: string | undefined, limit: number, order: "newest" | "oldest" = "newest") {
  const after = cursor ? decodeCursor(cursor) : undefined;
  const values: unknown[] = [];
  let where = callsFilterSql(projectId, filter, values);
  const [beyond, direction] = order === "oldest" ? [">", "ASC"] : ["<", "DESC"];
  if (after) {
    const t = `$${values.push(after.timestamp)}::timestamptz`;
    where += ` AND (timestamp ${beyond} ${t} OR (timestamp = ${t} AND id ${beyond} $${values.push(after.id)}))`;
  }
  const { rows } = await pool().query<CallListRow>(
    `SELECT ${LIST_COLUMNS} FROM tool_calls WHERE ${where} ORDER BY timestamp ${direction}, id ${direction} LIMIT $${values.push(limit + 1)}`,
    values,
  );
  const page = rows.slice(0, limit);
  return { calls: page, nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null };
}

const CSV_COLUMNS = [
  "id",
  "run_id",
  "step",
  "timestamp",
  "model_provider",
  "model_name",
  "model_version",
  "tool",
  "arguments",
  "verdict",
  "valid",
  "category",
  "message",
  "harness_valid",
  "harness_category",
  "checked_valid",
  "checked_category",
  "checked_path",
  "correction_id",
  "result_status",
  "latency_ms",
  "input_tokens",
  "output_tokens",
  "cost_usd",
];
/** Columns holding text from harnesses or models (the others are numbers, booleans and timestamps). */
const CSV_TEXT_COLUMNS = new Set([
  "id",
  "run_id",
  "model_provider",
  "model_name",
  "model_version",
  "tool",
  "arguments",
  "category",
  "message",
  "harness_category",
  "checked_category",
  "checked_path",
  "correction_id",
  "result_status",
]);

const CSV_BOOLEAN_COLUMNS = new Set(["valid", "harness_valid", "checked_valid"]);

/**
 * A cell as spreadsheets and other tools read it: the verdict as a word (valid, invalid, unchecked),
 * timestamps in ISO 8601 (UTC, milliseconds),
 * booleans `true`/`false` (PostgreSQL writes `t`/`f`), unknown values empty. A text cell that a spreadsheet would run as a formula (it starts with =, +, -, @, tab or
 * carriage return: OWASP's CSV injection rule) gets a leading single quote, which makes it text.
 */
function csvCell(column: string) {
  if (column === "verdict") return VERDICT_CELL;
  if (column === "timestamp") return `to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "timestamp"`;
  if (CSV_BOOLEAN_COLUMNS.has(column)) return `CASE WHEN "${column}" THEN 'true' WHEN NOT "${column}" THEN 'false' END AS "${column}"`;
  if (!CSV_TEXT_COLUMNS.has(column)) return `"${column}"`;
  const text = column === "arguments" ? `"arguments"::text` : `"${column}"`;
  return `CASE WHEN ${text} ~ '^[-=+@\\t\\r]' THEN '''' || ${text} ELSE ${text} END AS "${column}"`;
}

/** Inlines $n parameters as literals, for statements that take none (COPY). */
const inline = (sql: string, values: unknown[], literal: (v: string) => string) =>
  sql.replace(/\$(\d+)\b/g, (_, n: string) => literal(String(values[Number(n) - 1])));

/** Exports running in this process: each holds a database connection until it ends. */
let runningExports = 0;

export type CsvOptions = {
  /** cancel the export when the client has not asked for more for this long */
  idleMs?: number;
  /** bytes queued for the client before reading from PostgreSQL pauses */
  highWaterMark?: number;
  /** called once when a started export ends, whichever way (the caller gives its project share back) */
  onEnd?: () => void;
};

/**
 * The filtered calls as CSV, written by PostgreSQL's own CSV writer (COPY … TO STDOUT) and
 * streamed with backpressure: PostgreSQL is read only when the client has taken what was
 * sent (pull), so a slow reader holds at most `highWaterMark` bytes here (plus socket
 * buffers) while PostgreSQL waits. A client that goes away, or that reads nothing for
 * `idleMs`, cancels the COPY and frees the connection.
 */
export async function streamCallsCsv(projectId: string, f: CallsFilter, options: CsvOptions = {}): Promise<ReadableStream<Uint8Array>> {
  const { TOOLGATE_EXPORT_IDLE_SECONDS, TOOLGATE_EXPORT_MAX_CONCURRENT } = env();
  const { idleMs = TOOLGATE_EXPORT_IDLE_SECONDS * 1000, highWaterMark = 64 * 1024, onEnd = () => {} } = options;
  if (runningExports >= TOOLGATE_EXPORT_MAX_CONCURRENT) {
    throw new DomainError(
      "rate_limited",
      `${runningExports} CSV exports are already running on this server, the limit (TOOLGATE_EXPORT_MAX_CONCURRENT): retry when one has finished.`,
      10,
    );
  }
  runningExports++;
  let client;
  try {
    client = await pool().connect();
    // a whole project's export may take minutes: it is bounded by its idle time, not by the statement timeout
    await client.query("SET statement_timeout = 0");
  } catch (error) {
    client?.release(true);
    runningExports--;
    throw error;
  }
  const values: unknown[] = [];
  const where = inline(callsFilterSql(projectId, f, values), values, (v) => client.escapeLiteral(v));
  const sql = `COPY (SELECT ${CSV_COLUMNS.map(csvCell).join(", ")} FROM tool_calls WHERE ${where}
    ORDER BY tool_calls.timestamp DESC, tool_calls.id DESC) TO STDOUT WITH (FORMAT csv, HEADER true)`;
  const copy = client.query(copyTo(sql));
  const chunks = copy[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let idle: NodeJS.Timeout | undefined;
  let finished = false;
  const finish = (error?: Error) => {
    if (finished) return;
    finished = true;
    clearTimeout(idle);
    if (error) copy.destroy();
    // closed, not kept: a COPY cut short is ended on the server that way, and the connection's
    // statement timeout was lifted for this export
    client.release(true);
    runningExports--;
    onEnd();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(idle);
        try {
          const next = await chunks.next();
          if (next.done) {
            finish();
            controller.close();
            return;
          }
          controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
        } catch (error) {
          finish(error as Error);
          controller.error(error);
          return;
        }
        idle = setTimeout(() => {
          const error = new Error(`CSV export cancelled: the client read nothing for ${Math.round(idleMs / 1000)} s.`);
          finish(error);
          controller.error(error);
        }, idleMs);
      },
      cancel() {
        finish(new Error("CSV export cancelled: the client went away."));
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark }),
  );
}

/**
 * Every call of one run, in run order, with the run's totals: attempts (every call), successes
 * (valid calls), invalid and unchecked ones (neither valid nor invalid: not a success), and the
 * attempts per success over the checked calls (null when none succeeded).
 */
export async function runTimeline(projectId: string, runId: string) {
  const calls = await prisma().toolCall.findMany({ where: { projectId, runId }, select: callSelect, orderBy: [...RUN_ORDER], take: 5000 });
  if (!calls.length) return null;
  const counts = countVerdicts(calls);
  const successes = validCalls(counts);
  return {
    runId,
    calls,
    attempts: calls.length,
    successes,
    invalid: counts.invalid,
    unchecked: counts.unchecked,
    attemptsPerSuccess: observedAttemptsPerSuccess(checkedCalls(counts), successes),
  };
}

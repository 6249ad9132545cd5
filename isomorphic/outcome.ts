// What happened when a call that passed the gate ran: one vocabulary for every source (the
// event's `result.status`, the SDK dispatcher, the MCP gateway, OTLP tool spans), decided here.
// docs/events.md and docs/otlp.md show each source's mapping onto it.
import type { ExecutionOutcome, OutcomeFilter, ResultStatus } from "../contracts/event";

/** The outcome of each stored result status (the event contract's `result.status`). */
export const OUTCOME_OF_STATUS: Record<ResultStatus, Exclude<ExecutionOutcome, "no_result">> = {
  ok: "ok",
  error: "tool_error",
  not_found: "not_found",
  timeout: "timeout",
  not_allowed: "not_allowed",
};

/** The failures among the outcomes: every outcome with a result but `ok`. */
export const FAILED_OUTCOMES = ["tool_error", "not_found", "timeout", "not_allowed"] as const satisfies readonly ExecutionOutcome[];
export type FailedOutcome = (typeof FAILED_OUTCOMES)[number];

/**
 * What happened to the calls that ran, as every reader counts it (the rollups' columns, the
 * metrics procedures, the pages, the alert evaluator's inputs): the results reported, the failed
 * ones by kind (FAILED_OUTCOMES), and the ok ones that said nothing (isEmptyResult). One type.
 */
export type ResultCounts = { results: number; toolErrors: number; notFound: number; timeouts: number; notAllowed: number; emptyResults: number };
/** The fields of ResultCounts: what sums over rows. */
export const RESULT_COUNT_KEYS = [
  "results",
  "toolErrors",
  "notFound",
  "timeouts",
  "notAllowed",
  "emptyResults",
] as const satisfies readonly (keyof ResultCounts)[];

/** Failed results (tool errors, not found, timeouts, refusals); a missing count is none. */
export const failures = (t: Partial<ResultCounts>) => (t.toolErrors ?? 0) + (t.notFound ?? 0) + (t.timeouts ?? 0) + (t.notAllowed ?? 0);

/** The tool error rate: failed results over results; null without results. */
export const toolErrorRate = (t: ResultCounts): number | null => (t.results > 0 ? failures(t) / t.results : null);

/** The empty-result rate: ok results that said nothing over results; null without results. */
export const emptyResultRate = (t: ResultCounts): number | null => (t.results > 0 ? t.emptyResults / t.results : null);

export const OUTCOME_LABELS: Record<OutcomeFilter, string> = {
  ok: "ok",
  tool_error: "tool error",
  not_found: "not found",
  timeout: "timeout",
  not_allowed: "not allowed",
  no_result: "no result",
  failed: "failed (any error, not found, timeout, not allowed)",
  empty: "empty result (ok, but says nothing)",
};

/**
 * The execution outcome of a stored call, or null for an invalid call (it was refused at the gate,
 * or should have been: what it ran into is the invalid rate's story, not the tool's). Unchecked
 * calls (`valid` null) ran, so they have an outcome.
 */
export function executionOutcome(call: { valid: boolean | null; resultStatus: string | null }): ExecutionOutcome | null {
  if (call.valid === false) return null;
  if (call.resultStatus === null) return "no_result";
  return OUTCOME_OF_STATUS[call.resultStatus as ResultStatus] ?? "tool_error";
}

/**
 * The result statuses that mean `outcome` (for SQL filters and counts): `failed` any failure,
 * `empty` the ok results, of which only the empty ones (emptyResultSql) are meant.
 */
export const statusesOf = (outcome: OutcomeFilter): ResultStatus[] =>
  (Object.keys(OUTCOME_OF_STATUS) as ResultStatus[]).filter((status) =>
    outcome === "failed"
      ? (FAILED_OUTCOMES as readonly string[]).includes(OUTCOME_OF_STATUS[status])
      : OUTCOME_OF_STATUS[status] === (outcome === "empty" ? "ok" : outcome),
  );

const TIMEOUT = /time[ds]?[\s_-]?out|timeout|deadline[\s_-]?exceeded|-32001\b/i;
const NOT_FOUND = /not[\s_-]?found|unknown[\s_-]?tool|no such tool|\b404\b/i;
const NOT_ALLOWED = /not[\s_-]?allowed|forbidden|permission[\s_-]?denied|access[\s_-]?denied|unauthori[sz]ed|\bdenied\b|policy|\b403\b/i;

/**
 * The result status of a failure described only by text: an OTLP span's `error.type` (and status
 * message), a JSON-RPC error's code and message. A timeout, a missing tool or a refusal by policy
 * say so in their names (`TimeoutError`, `DEADLINE_EXCEEDED`, `-32001 Request timed out`,
 * `ToolNotFound`, `PermissionDenied`); anything else is a tool error.
 */
export function failureStatus(...descriptions: (string | number | undefined | null)[]): Exclude<ResultStatus, "ok"> {
  const text = descriptions.filter((d) => d !== undefined && d !== null && d !== "").join(" ");
  if (TIMEOUT.test(text)) return "timeout";
  if (NOT_FOUND.test(text)) return "not_found";
  if (NOT_ALLOWED.test(text)) return "not_allowed";
  return "error";
}

// Empty results. A call that ran and whose tool said "ok" but gave the model nothing to read
// (an empty string, `[]`, `{}`, null, whitespace): the model, told nothing, tends to invent an
// answer. The fix is on the tool's side: say what was not found ("No loan 447", "No results for
// 'x'"). The rule is decided here, once, and spelled twice: for JavaScript (isEmptyResult) and for
// SQL (emptyResultSql, which the rollups and the calls explorer use); the two are tested on the
// same table of cases (outcome.test.ts, and against PostgreSQL in
// server/services/metrics/empty-results.integration.test.ts).

/** JavaScript's whitespace (`\s`, `trim()`), as a bracket expression that PostgreSQL's regular expressions read the same. */
const BLANK_CHARS = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff";
/** Only whitespace (or nothing). */
const ALL_BLANK = `^[${BLANK_CHARS}]*$`;
/** The words programs print for "no value": JSON's and SQL's null, Python's None, JavaScript's undefined, Go's and Ruby's nil. */
const NOTHING_WORD = `^[${BLANK_CHARS}]*(null|none|nil|<nil>|undefined)[${BLANK_CHARS}]*$`;
/** Text that may be a JSON array, object or string (after JSON's own whitespace): only those can be empty JSON. */
const JSON_CONTAINER = `^[ \\t\\n\\r]*[[{"]`;
/** A JSON value that holds something: a number, a boolean or a string with a character other than whitespace. */
const JSON_CONTENT = `strict $.** ? (@.type() == "number" || @.type() == "boolean" || (@.type() == "string" && @ like_regex "[^${BLANK_CHARS}]"))`;

const allBlank = new RegExp(ALL_BLANK);
const nothingWord = new RegExp(NOTHING_WORD, "i");
const jsonContainer = new RegExp(JSON_CONTAINER);
const contentChar = new RegExp(`[^${BLANK_CHARS}]`);

/** Whether a parsed JSON value holds nothing: null, a blank string, or arrays and objects of such values (keys say nothing). */
function holdsNothing(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value === "string") return !contentChar.test(value);
  if (Array.isArray(value)) return value.every(holdsNothing);
  if (typeof value === "object") return Object.values(value).every(holdsNothing);
  return false; // numbers and booleans say something (0 results, false)
}

/**
 * Whether a result is an empty one: the tool reported `ok` and a summary that says nothing —
 * empty or whitespace only; one of the words null, None, nil, <nil>, undefined (any case);
 * or JSON with no number, boolean or non-blank string anywhere in it (`[]`, `{}`, `""`, `null`,
 * `{"results": []}`, `[{}]`). `0`, `false`, `{"count": 0}` and any text say something. A
 * result without a summary is not judged (the harness did not report its content); a failed
 * result is counted by its kind, not here.
 */
export function isEmptyResult(result: { status: string | null; summary?: string | null }): boolean {
  if (result.status !== "ok" || result.summary === undefined || result.summary === null) return false;
  const s = result.summary;
  if (allBlank.test(s) || nothingWord.test(s)) return true;
  if (!jsonContainer.test(s)) return false;
  try {
    return holdsNothing(JSON.parse(s));
  } catch {
    return false;
  }
}

/** isEmptyResult in SQL, over a call's result status and summary columns (PostgreSQL 16 or later: pg_input_is_valid). */
export const emptyResultSql = (status: string, summary: string) =>
  `(${status} = 'ok' AND ${summary} IS NOT NULL AND (${summary} ~ '${ALL_BLANK}' OR ${summary} ~* '${NOTHING_WORD}'
    OR CASE WHEN ${summary} ~ '${JSON_CONTAINER}' AND pg_input_is_valid(${summary}, 'jsonb')
            THEN NOT jsonb_path_exists(${summary}::jsonb, '${JSON_CONTENT}') ELSE false END))`;

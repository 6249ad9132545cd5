// Failure patterns: an invalid call reduced to what went wrong where, so that a tool's failures
// group into a few rows ("`loannumber`: a number where a string is required"). The key is
// computed once per invalid call at ingestion (stored in tool_calls.pattern); the label is
// written at read time against the tool's current schema. Pure: no I/O.

import type { Violation } from "../../isomorphic/classify";
import { parsePath, type PathSegment } from "../../contracts/json-path";
import { isPlainObject, truncate, TYPE_WORDS } from "../../isomorphic/tool-schema";
import { recoveryRate, type RecoveryCounts } from "../../isomorphic/recovery";
import { DAY_MS } from "../../contracts/metrics";
import { schemaAt } from "../../isomorphic/definition-lint";

/** What a pattern key holds: category, the path with array indexes dropped (`items[].qty`), and the kind of value sent. */
export type PatternParts = { category: string; path: string; kind: string };

const SEPARATOR = "\t";
/** Values sent for an enum are kept as they are up to this length; longer ones are one kind. */
const MAX_CHOICE_LENGTH = 40;

export function encodePattern({ category, path, kind }: PatternParts): string {
  return [category, path, kind].join(SEPARATOR);
}

export function decodePattern(key: string): PatternParts {
  const [category = "", path = "", ...kind] = key.split(SEPARATOR);
  return { category, path, kind: kind.join(SEPARATOR) };
}

/** `items[2].qty` → `items[].qty`: every element of an array is one place. */
function patternPath(path: string): string {
  return path.replace(/\[\d+\]/g, "[]");
}

/** The JSON type of a value as JSON Schema names it (integer for whole numbers). */
function jsonType(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The value at a human path (`slot.time`, `tags[2]`) of the arguments; undefined when absent or not a path. */
function valueAt(root: unknown, path: string): unknown {
  const segments = parsePath(path);
  if (!segments) return undefined;
  let current = root;
  for (const segment of segments) {
    if (typeof segment === "number" ? Array.isArray(current) : isPlainObject(current)) current = (current as Record<PathSegment, unknown>)[segment];
    else return undefined;
  }
  return current;
}

function parsedObject(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The kind of value sent, per category: the JSON type for a wrong type, the value itself for a
 * choice outside an enum, the failed keyword for a value out of range, the name for an unknown
 * tool; nothing where the path says it all (missing and extra arguments).
 */
function kindOf(category: string, violation: Violation | undefined, tool: string, args: unknown): string {
  switch (category) {
    case "unknown_tool":
      return tool;
    case "wrong_type":
      return violation ? jsonType(valueAt(parsedObject(args), violation.path)) : "";
    case "invalid_choice": {
      if (!violation) return "";
      const value = valueAt(parsedObject(args), violation.path);
      const shown = JSON.stringify(value) ?? "";
      return shown.length <= MAX_CHOICE_LENGTH ? shown : `long ${jsonType(value)}`;
    }
    case "out_of_range":
      return violation?.keyword ?? "";
    default:
      return "";
  }
}

/**
 * The pattern key of one call, or null for a valid (or unchecked) call. `violations` are
 * Toolgate's own; they explain the call only when their category is the call's category (the
 * harness's verdict wins, e.g. a policy refusal has no path).
 */
export function patternOf(call: {
  tool: string;
  arguments: unknown;
  valid: boolean | null;
  category: string | null;
  violations?: readonly Violation[];
}): string | null {
  if (call.valid !== false) return null;
  const category = call.category ?? "";
  const violation = call.violations?.find((v) => v.category === category);
  const path = category === "unknown_tool" || category === "malformed_arguments" ? "" : patternPath(violation?.path ?? "");
  return encodePattern({ category, path, kind: kindOf(category, violation, call.tool, call.arguments) });
}

// ---------------------------------------------------------------------------------------------
// Reading a schema at a pattern's path

const A_TYPE: Record<string, string> = { ...TYPE_WORDS, nothing: "nothing" };
const typeWords = (types: unknown) =>
  [types]
    .flat()
    .map((t) => A_TYPE[String(t)] ?? String(t))
    .join(" or ");

const LIMIT_WORDS: Record<string, string> = {
  minLength: "too short",
  maxLength: "too long",
  minimum: "too small",
  exclusiveMinimum: "too small",
  maximum: "too large",
  exclusiveMaximum: "too large",
  multipleOf: "not a multiple of its step",
  pattern: "does not match its pattern",
  format: "not in its format",
  minItems: "too few items",
  maxItems: "too many items",
  uniqueItems: "repeated items",
  minProperties: "too few properties",
  maxProperties: "too many properties",
};

/** The human label of a pattern, read against the schema the tool has now (when it has one). */
export function describePattern(parts: PatternParts, parameters?: unknown): string {
  const at = parts.path ? `\`${parts.path}\`` : "the arguments";
  const schema = parts.path ? schemaAt(parameters, parts.path) : undefined;
  switch (parts.category) {
    case "unknown_tool":
      return `name \`${parts.kind}\` is not a registered tool`;
    case "malformed_arguments":
      return "the arguments are not a JSON object";
    case "missing_argument":
      return `${at} is required and was not sent`;
    case "extra_argument":
      return `${at} is sent but is not an argument`;
    case "wrong_type":
      return `${at}: ${typeWords(parts.kind || "a value")} where ${schema?.type !== undefined ? typeWords(schema.type) : "another type"} is required`;
    case "invalid_choice": {
      const allowed = Array.isArray(schema?.enum)
        ? `one of ${schema.enum.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ")}`
        : "an allowed value";
      return `${at}: ${truncate(parts.kind, 40)} is not ${allowed}`;
    }
    case "out_of_range":
      return `${at}: ${LIMIT_WORDS[parts.kind] ?? `out of range (${parts.kind || "limit"})`}`;
    case "not_allowed":
      return "refused by a policy of the harness";
    default:
      return `${at}: ${parts.category || "invalid"}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Grouping the counts a query read into the rows the tool page shows

/** One pattern's invalid calls on one day, with the recovery counts of isomorphic/recovery.ts. */
export type PatternDayRow = RecoveryCounts & { pattern: string; day: string; failures: number };

export type FailurePattern = PatternParts &
  RecoveryCounts & {
    key: string;
    label: string;
    failures: number;
    /** recovered / followed (isomorphic/recovery.ts): how often the model's next attempt was valid; null when none was tried again */
    recoveryRate: number | null;
    /** failures / all of the tool's failures in the range */
    share: number;
    /** failures per day, one entry per day of `days` (0 where none) */
    trend: number[];
    examples: string[];
  };

/**
 * Groups per-day counts into patterns, largest first (ties by key), each with its share of the
 * tool's failures, recovery rate and a per-day trend over `days` (UTC midnights, ISO strings).
 */
export function groupPatterns(rows: readonly PatternDayRow[], days: readonly string[], parameters?: unknown): FailurePattern[] {
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const byKey = new Map<string, { failures: number; followed: number; recovered: number; trend: number[] }>();
  let total = 0;
  for (const row of rows) {
    const entry = byKey.get(row.pattern) ?? { failures: 0, followed: 0, recovered: 0, trend: days.map(() => 0) };
    byKey.set(row.pattern, entry);
    entry.failures += row.failures;
    entry.followed += row.followed;
    entry.recovered += row.recovered;
    total += row.failures;
    const i = dayIndex.get(row.day);
    if (i !== undefined) entry.trend[i]! += row.failures;
  }
  return [...byKey.entries()]
    .map(([key, e]) => {
      const parts = decodePattern(key);
      return {
        ...parts,
        key,
        label: describePattern(parts, parameters),
        failures: e.failures,
        followed: e.followed,
        recovered: e.recovered,
        recoveryRate: recoveryRate(e),
        share: total ? e.failures / total : 0,
        trend: e.trend,
        examples: [],
      };
    })
    .sort((a, b) => b.failures - a.failures || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** UTC midnights (ISO) of every day that overlaps [from, to). */
export function daysOf(from: Date, to: Date): string[] {
  const days: string[] = [];
  for (let t = Math.floor(from.getTime() / DAY_MS) * DAY_MS; t < to.getTime(); t += DAY_MS) days.push(new Date(t).toISOString());
  return days;
}

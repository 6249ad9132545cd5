import { z } from "zod";
import { categorySchema } from "./categories";
import type { PathSegment } from "./json-path";
import { pathOf, preview, unstorableText, walkJson } from "./json-walk";
import { EVENT_NAME_LIMITS, refuseUnstorable } from "./text-limits";
import { formatCount } from "./format-number";
import { MAX_EVENTS_PER_BATCH, MAX_TOOL_SET } from "./request-limits";

/**
 * One tool request a model wrote, as the harness saw it (docs/events.md explains each field).
 * Strict objects: an unknown field is refused by name, never silently dropped.
 */
export { MAX_EVENTS_PER_BATCH, MAX_TOOL_SET };

/**
 * What one event may hold: only what the columns can store (docs/limits.md). Integers are
 * `integer` columns (32 bits); arguments and metadata are `jsonb`.
 */
const EVENT_LIMITS = {
  int4: 2_147_483_647,
  /** Per call; float8 sums of a rollup bucket then cannot overflow (1.8e308 / 1e6 calls is beyond reach). */
  costUsd: 1_000_000,
  argumentsDepth: 64,
  /** Characters of the arguments as JSON (or of the raw string). */
  argumentsChars: 1_048_576,
  metadataKeys: 50,
  metadataKeyChars: 100,
  metadataValueChars: 1000,
  toolSet: MAX_TOOL_SET,
} as const;

const shown = (value: unknown) => preview(value);

const freeText = (what: string, max: number) =>
  z
    .string({ error: (i) => `expected ${what} as a string, got ${shown(i.input)}` })
    .max(max, `${what} is at most ${formatCount(max)} characters`)
    .superRefine(refuseUnstorable(what));

const text = (what: string, max: number) =>
  z
    .string({ error: (i) => `expected ${what} as a string, got ${shown(i.input)}` })
    .min(1, `${what} must not be empty`)
    .max(max, `${what} is at most ${formatCount(max)} characters`)
    .superRefine(refuseUnstorable(what));

// ISO 8601 allows offsets up to ±23:59, PostgreSQL ±15:59 (every real time zone is within ±14:00);
// and years 0001 to 9999 of the 4-digit form (it refuses year 0000).
const OFFSET = /([+-])(\d{2}):(\d{2})$/;
const isoWithOffset = z.iso
  .datetime({
    offset: true,
    error: (i) => `expected an ISO 8601 date with offset such as "2026-11-30T09:15:00Z", got ${shown(i.input)}`,
  })
  .superRefine((value, ctx) => {
    const offset = OFFSET.exec(value);
    const utc = () => new Date(value).toISOString();
    if (offset && Number(offset[2]) > 15) {
      ctx.addIssue({
        code: "custom",
        message: `the offset ${offset[0]} of ${shown(value)} is beyond what PostgreSQL accepts (-15:59 to +15:59; real time zones are within ±14:00): send the time in UTC, ${JSON.stringify(utc())}`,
      });
    } else if (value.startsWith("0000")) {
      ctx.addIssue({ code: "custom", message: `the year 0000 of ${shown(value)} cannot be stored (PostgreSQL starts at 0001): send a date from 0001 to 9999` });
    }
  });

const count = (what: string) =>
  z
    .number({ error: (i) => `expected ${what} as a number, got ${shown(i.input)}` })
    .int(`${what} must be a whole number`)
    .min(0, `${what} must be 0 or more`)
    .max(EVENT_LIMITS.int4, { error: (i) => `${what} must be at most ${formatCount(EVENT_LIMITS.int4)} (a 32-bit integer), got ${shown(i.input)}` });

type Problem = { path: PathSegment[]; message: string };

/**
 * What in the arguments PostgreSQL's jsonb cannot hold or JSON.stringify cannot write: too deep,
 * a NUL or a lone surrogate in a key or a string, a number that JSON.parse made Infinity (1e400,
 * which would be stored as null), too long. Walks without recursion, and stops at the first.
 */
function argumentsProblem(args: unknown): Problem | undefined {
  const tooLong = (chars: number): Problem => ({
    path: [],
    message: `the arguments are ${formatCount(chars)} characters as JSON, more than ${formatCount(EVENT_LIMITS.argumentsChars)}: send large content by reference (a file name, a URL) rather than inline`,
  });
  if (typeof args === "string") {
    const problem = unstorableText(args);
    if (problem) return { path: [], message: `the arguments ${shown(args)} ${problem}` };
    return args.length > EVENT_LIMITS.argumentsChars ? tooLong(args.length) : undefined;
  }
  let found: Problem | undefined;
  walkJson(args, (node) => {
    const { value, key, depth } = node;
    let message: string | undefined;
    if (depth > EVENT_LIMITS.argumentsDepth) {
      message = `the arguments are nested more than ${EVENT_LIMITS.argumentsDepth} levels deep here: flatten them`;
    } else if (typeof key === "string" && unstorableText(key)) {
      message = `the key ${shown(key)} ${unstorableText(key)}`;
    } else if (typeof value === "string" && unstorableText(value)) {
      message = `the string ${shown(value)} ${unstorableText(value)}`;
    } else if (typeof value === "number" && !Number.isFinite(value)) {
      message = `the number ${value} cannot be stored (a JSON number beyond ±1.8e308, such as 1e400, reads as Infinity and would become null): send it as a string, such as "1e400"`;
    }
    if (!message) return true;
    found = { path: pathOf(node), message };
    return "stop";
  });
  if (found) return found;
  const chars = JSON.stringify(args).length;
  return chars > EVENT_LIMITS.argumentsChars ? tooLong(chars) : undefined;
}

const reportAt = (problem: Problem | undefined, ctx: z.RefinementCtx) => {
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: problem.path });
};

/** The arguments as the model wrote them: an object, or the raw string when they were not JSON. */
const argumentsSchema = z
  .custom<Record<string, unknown> | string>((value) => typeof value === "string" || (typeof value === "object" && value !== null && !Array.isArray(value)), {
    error: (i) => `expected the arguments as a JSON object, or as the raw string the model wrote; got ${shown(i.input)}`,
  })
  .superRefine((value, ctx) => reportAt(argumentsProblem(value), ctx))
  .meta({
    description: `The arguments as the model wrote them: a JSON object, or the raw string when they were not JSON. At most ${EVENT_LIMITS.argumentsDepth} levels deep and ${formatCount(EVENT_LIMITS.argumentsChars)} characters as JSON.`,
    anyOf: [{ type: "object" }, { type: "string", maxLength: EVENT_LIMITS.argumentsChars }],
  });

/**
 * A flat map of strings. Checked by hand rather than with z.record, which copies the map and so
 * dropped a `__proto__` key without a word: here every key is kept as sent, or refused by name.
 */
function metadataProblem(metadata: Record<string, unknown>): Problem | undefined {
  const keys = Object.keys(metadata);
  if (keys.length > EVENT_LIMITS.metadataKeys) {
    return { path: [], message: `metadata holds at most ${EVENT_LIMITS.metadataKeys} keys, got ${keys.length}: keep the ones you filter or group by` };
  }
  for (const key of keys) {
    const value = metadata[key];
    const keyProblem = unstorableText(key);
    if (keyProblem) return { path: [key], message: `the metadata key ${shown(key)} ${keyProblem}` };
    if (key.length > EVENT_LIMITS.metadataKeyChars)
      return { path: [key], message: `metadata keys are at most ${EVENT_LIMITS.metadataKeyChars} characters, got ${key.length}` };
    if (typeof value !== "string") return { path: [key], message: `expected metadata values as strings, got ${shown(value)}: send it as a string` };
    if (value.length > EVENT_LIMITS.metadataValueChars) {
      return {
        path: [key],
        message: `metadata values are at most ${formatCount(EVENT_LIMITS.metadataValueChars)} characters, got ${formatCount(value.length)}`,
      };
    }
    const valueProblem = unstorableText(value);
    if (valueProblem) return { path: [key], message: `the metadata value ${shown(value)} ${valueProblem}` };
  }
  return undefined;
}

const metadataSchema = z
  .custom<Record<string, string>>((value) => typeof value === "object" && value !== null && !Array.isArray(value), {
    error: (i) => `expected metadata as a flat map of strings, got ${shown(i.input)}`,
  })
  .superRefine((value, ctx) => reportAt(metadataProblem(value), ctx))
  .meta({
    description: "A flat map of strings to filter and group calls by.",
    type: "object",
    maxProperties: EVENT_LIMITS.metadataKeys,
    propertyNames: { maxLength: EVENT_LIMITS.metadataKeyChars },
    additionalProperties: { type: "string", maxLength: EVENT_LIMITS.metadataValueChars },
  });

/** A strict object whose errors name unknown fields and show a wrong value. */
function strict<T extends z.core.$ZodLooseShape>(what: string, shape: T) {
  return z.strictObject(shape, {
    error: (i) =>
      i.code === "unrecognized_keys"
        ? `unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => `"${k}"`).join(", ")}: remove it, or put it in metadata`
        : `expected ${what} as an object, got ${shown(i.input)}`,
  });
}

/**
 * What the harness says happened when a valid call ran: the tool answered (`ok`), failed (`error`),
 * found nothing it was asked for (`not_found`), did not answer in time (`timeout`) or was refused by
 * a policy before it ran (`not_allowed`). A call without `result` reported none. What each means on
 * the dashboards is isomorphic/outcome.ts.
 */
export const RESULT_STATUSES = ["ok", "error", "not_found", "timeout", "not_allowed"] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** A valid call's execution outcome: what its result status says, or `no_result` (isomorphic/outcome.ts maps them). */
export const EXECUTION_OUTCOMES = ["ok", "tool_error", "not_found", "timeout", "not_allowed", "no_result"] as const;
export type ExecutionOutcome = (typeof EXECUTION_OUTCOMES)[number];
/**
 * The calls explorer's outcome filter: one outcome, `failed` (any but ok and no_result), or
 * `empty` (ok results that say nothing: isomorphic/outcome.ts, isEmptyResult).
 */
export const OUTCOME_FILTERS = [...EXECUTION_OUTCOMES, "failed", "empty"] as const;
export type OutcomeFilter = (typeof OUTCOME_FILTERS)[number];

export const eventSchema = strict("the event", {
  id: text("id", EVENT_NAME_LIMITS.id),
  runId: text("runId", EVENT_NAME_LIMITS.runId),
  step: count("step").optional(),
  /** Which model response of the run wrote the call: calls with the same turn were requested together (in parallel). */
  turn: count("turn").optional(),
  timestamp: isoWithOffset,
  model: strict("model", {
    provider: text("model.provider", EVENT_NAME_LIMITS.modelProvider).optional(),
    name: text("model.name", EVENT_NAME_LIMITS.model),
    version: text("model.version", EVENT_NAME_LIMITS.modelVersion).optional(),
  }),
  tool: text("tool", EVENT_NAME_LIMITS.tool),
  arguments: argumentsSchema,
  outcome: strict("outcome", { valid: z.boolean(), category: categorySchema.optional(), message: freeText("outcome.message", 10_000).optional() }).optional(),
  result: strict("result", {
    status: z.enum(RESULT_STATUSES, {
      error: (i) => `expected result.status as one of ${RESULT_STATUSES.map((s) => `"${s}"`).join(", ")}, got ${shown(i.input)}`,
    }),
    summary: freeText("result.summary", 10_000).optional(),
    latencyMs: count("result.latencyMs").optional(),
  }).optional(),
  correctsId: text("correctsId", EVENT_NAME_LIMITS.id).optional(),
  usage: strict("usage", {
    inputTokens: count("usage.inputTokens").optional(),
    outputTokens: count("usage.outputTokens").optional(),
    costUsd: z
      .number({ error: (i) => `expected usage.costUsd as a number, got ${shown(i.input)}` })
      .min(0, "usage.costUsd must be 0 or more")
      .max(EVENT_LIMITS.costUsd, {
        error: (i) =>
          `usage.costUsd is at most ${formatCount(EVENT_LIMITS.costUsd)} (US dollars for one call), got ${shown(i.input)}: send the cost of this call in dollars`,
      })
      .optional(),
  }).optional(),
  toolVersion: text("toolVersion", EVENT_NAME_LIMITS.toolVersion).optional(),
  /**
   * The names of the tool definitions the model call that wrote this call was given (its request's
   * `tools`): the run's context cost counts this set rather than every registered tool. Repeated
   * names count once; sent on one event of a run or on all of them alike.
   */
  toolSet: z
    .array(text("toolSet[]", EVENT_NAME_LIMITS.tool), { error: (i) => `expected toolSet as an array of tool names, got ${shown(i.input)}` })
    .max(EVENT_LIMITS.toolSet, `toolSet names at most ${formatCount(EVENT_LIMITS.toolSet)} tools`)
    .optional()
    .meta({
      description: `The names of the tool definitions the model call was given (its request's tools), at most ${formatCount(EVENT_LIMITS.toolSet)}: context cost counts the run's calls with this set rather than every registered tool.`,
    }),
  metadata: metadataSchema.optional(),
});

export type ToolCallEvent = z.infer<typeof eventSchema>;

/** The batch is checked loosely; each event is then checked on its own so one bad event never sinks the rest. */
export const ingestBatchInput = z.object({
  events: z.array(z.unknown(), { error: "expected { events: [...] } with an array of events" }),
});

export type RejectedEvent = { index: number; id?: string; path: string; message: string };
export type IngestResult = { accepted: number; duplicates: number; rejected: RejectedEvent[] };

import { z } from "zod";
import { categorySchema } from "./categories";

/**
 * One tool request a model wrote, as the harness saw it (DESIGN.md, "The event").
 * Strict objects: an unknown field is refused by name, never silently dropped.
 */
export const MAX_EVENTS_PER_BATCH = 1000;

const shown = (value: unknown) => {
  const text = typeof value === "string" ? JSON.stringify(value) : value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

const text = (what: string, max: number) =>
  z
    .string({ error: (i) => `expected ${what} as a string, got ${shown(i.input)}` })
    .min(1, `${what} must not be empty`)
    .max(max, `${what} is at most ${max} characters`);

const isoWithOffset = z.iso.datetime({
  offset: true,
  error: (i) => `expected an ISO 8601 date with offset such as "2026-11-30T09:15:00Z", got ${shown(i.input)}`,
});

const count = (what: string) =>
  z
    .number({ error: (i) => `expected ${what} as a number, got ${shown(i.input)}` })
    .int(`${what} must be a whole number`)
    .min(0, `${what} must be 0 or more`);

/** The arguments as the model wrote them: an object, or the raw string when they were not JSON. */
const argumentsSchema = z.custom<Record<string, unknown> | string>(
  (value) => typeof value === "string" || (typeof value === "object" && value !== null && !Array.isArray(value)),
  { error: (i) => `expected the arguments as a JSON object, or as the raw string the model wrote; got ${shown(i.input)}` },
);

/** A strict object whose errors name unknown fields and show a wrong value. */
function strict<T extends z.core.$ZodLooseShape>(what: string, shape: T) {
  return z.strictObject(shape, {
    error: (i) =>
      i.code === "unrecognized_keys"
        ? `unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.map((k) => `"${k}"`).join(", ")}: remove it, or put it in metadata`
        : `expected ${what} as an object, got ${shown(i.input)}`,
  });
}

export const eventSchema = strict("the event", {
  id: text("id", 128),
  runId: text("runId", 256),
  step: count("step").optional(),
  timestamp: isoWithOffset,
  model: strict("model", { provider: text("model.provider", 100).optional(), name: text("model.name", 200), version: text("model.version", 200).optional() }),
  tool: text("tool", 200),
  arguments: argumentsSchema,
  outcome: strict("outcome", { valid: z.boolean(), category: categorySchema.optional(), message: z.string().max(10_000).optional() }).optional(),
  result: strict("result", {
    status: z.enum(["ok", "error", "not_found"]),
    summary: z.string().max(10_000).optional(),
    latencyMs: count("result.latencyMs").optional(),
  }).optional(),
  correctsId: text("correctsId", 128).optional(),
  usage: strict("usage", {
    inputTokens: count("usage.inputTokens").optional(),
    outputTokens: count("usage.outputTokens").optional(),
    costUsd: z.number().min(0).optional(),
  }).optional(),
  toolVersion: text("toolVersion", 100).optional(),
  metadata: z
    .record(z.string().max(100), z.string().max(1000, "metadata values are at most 1,000 characters"), {
      error: (i) => `expected metadata as a flat map of strings, got ${shown(i.input)}`,
    })
    .refine((m) => Object.keys(m).length <= 50, "metadata holds at most 50 keys")
    .optional(),
});

export type ToolCallEvent = z.infer<typeof eventSchema>;

/** The batch is checked loosely; each event is then checked on its own so one bad event never sinks the rest. */
export const ingestBatchInput = z.object({
  events: z.array(z.unknown(), { error: "expected { events: [...] } with an array of events" }),
});

export type RejectedEvent = { index: number; id?: string; path: string; message: string };
export type IngestResult = { accepted: number; duplicates: number; rejected: RejectedEvent[] };

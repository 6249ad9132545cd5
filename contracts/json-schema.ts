import { z } from "zod";
import { eventSchema } from "./event";

/**
 * A zod contract as JSON Schema (draft 2020-12), by zod's own `z.toJSONSchema`. What zod cannot
 * express (a `z.custom` check) says its shape in `.meta()`; without it, it would come out as `{}`
 * (anything), which json-schema.test.ts refuses.
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
}

/** The event contract (`eventSchema`) as JSON Schema: contracts/generated/event.schema.json. */
export function eventJsonSchema(): Record<string, unknown> {
  return {
    ...jsonSchemaOf(eventSchema, "input"),
    title: "Toolgate tool-call event",
    description:
      "One tool request a model wrote, as a harness sends it to ingest.batch (docs/events.md). Generated from contracts/event.ts by `npm run contracts`; the server's zod contract also refuses what JSON Schema cannot say (text PostgreSQL cannot store, a time-zone offset beyond ±15:59, the year 0000).",
  };
}

import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { eventSchema } from "./event";
import { eventJsonSchema } from "./json-schema";

// The event contract as JSON Schema (contracts/generated/event.schema.json, kept current by
// scripts/contracts.test.ts) says what the zod contract says, for what JSON Schema can say.
const full = {
  id: "call-1",
  runId: "run-1",
  step: 3,
  timestamp: "2026-11-30T09:15:00+01:00",
  model: { provider: "acme", name: "acme-large", version: "2026-10" },
  tool: "getloan",
  arguments: { loannumber: "4471" },
  outcome: { valid: false, category: "wrong_type", message: "loannumber: expected a string" },
  result: { status: "error", summary: "no such loan", latencyMs: 12 },
  correctsId: "call-0",
  usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.002 },
  toolVersion: "v1",
  metadata: { tenant: "acme" },
};

const refused: [string, unknown][] = [
  ["an unknown field", { ...full, extra: 1 }],
  ["an unknown field in model", { ...full, model: { name: "m", size: "xl" } }],
  ["an empty id", { ...full, id: "" }],
  ["a missing tool", { ...full, tool: undefined }],
  ["a category that does not exist", { ...full, outcome: { valid: false, category: "bad" } }],
  ["a negative step", { ...full, step: -1 }],
  ["a fractional step", { ...full, step: 1.5 }],
  ["a step beyond 32 bits", { ...full, step: 2 ** 31 }],
  ["arguments as an array", { ...full, arguments: [1] }],
  ["arguments as null", { ...full, arguments: null }],
  ["a metadata value that is not a string", { ...full, metadata: { n: 1 } }],
  ["51 metadata keys", { ...full, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) }],
  ["a metadata key of 101 characters", { ...full, metadata: { ["k".repeat(101)]: "v" } }],
  ["a cost beyond a million dollars", { ...full, usage: { costUsd: 1_000_001 } }],
  ["a time without offset", { ...full, timestamp: "2026-11-30T09:15:00" }],
  ["a result status that does not exist", { ...full, result: { status: "maybe" } }],
];

describe("the event contract as JSON Schema", () => {
  const schema = eventJsonSchema();
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  const validate = ajv.compile(schema);

  it("is a valid draft 2020-12 schema that accepts a full event and raw-string arguments, as the zod contract does", () => {
    for (const event of [full, { ...full, arguments: "{loannumber: 4471" }]) {
      expect(eventSchema.safeParse(event).success).toBe(true);
      expect(validate(event), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it.each(refused)("refuses %s, as the zod contract does", (_what, event) => {
    expect(eventSchema.safeParse(event).success).toBe(false);
    expect(validate(event)).toBe(false);
  });

  it("describes every field (none is `{}`, which would allow anything)", () => {
    const empty: string[] = [];
    const walk = (node: Record<string, unknown>, at: string) => {
      for (const [name, property] of Object.entries((node.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (Object.keys(property).filter((k) => k !== "description").length === 0) empty.push(`${at}${name}`);
        walk(property, `${at}${name}.`);
      }
    };
    walk(schema, "");
    expect(empty).toEqual([]);
    expect(Object.keys(schema.properties as object)).toEqual(Object.keys(eventSchema.shape));
  });
});

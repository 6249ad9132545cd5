import { describe, expect, it } from "vitest";
import { classifyCall, registryFrom } from "../../isomorphic/classify";
import { daysOf, groupPatterns, patternOf, type FailurePattern } from "./failure-patterns";
import { MIN_FAILURES, suggestSchemaChanges, type SuggestionKind } from "./schema-suggestions";

/** A tool that the lint has nothing to say about. */
const clean = {
  type: "object",
  properties: {
    loannumber: { type: "string", pattern: "^[0-9]+$", minLength: 4, maxLength: 8, description: "The loan number: 4 to 8 digits, as a string." },
    channel: { type: "string", enum: ["email", "sms"], description: "How to send it: email or sms." },
    limit: { type: "integer", minimum: 1, maximum: 100, description: "How many, 1 to 100." },
    slot: {
      type: "object",
      description: "When to call.",
      properties: { time: { type: "string", pattern: "^[0-2][0-9]:[0-5][0-9]$", description: "HH:MM, 24-hour clock" } },
      required: ["time"],
      additionalProperties: false,
    },
  },
  required: ["loannumber", "channel"],
  additionalProperties: false,
};

const DAYS = daysOf(new Date("2026-11-01T00:00:00Z"), new Date("2026-11-02T00:00:00Z"));

/** Patterns from real classifier verdicts: each call sent `n` times. */
function patternsFrom(parameters: object, calls: [string, unknown, number][]): FailurePattern[] {
  const registry = registryFrom([{ name: "getloan", version: "v", parameters }]);
  const rows = calls.flatMap(([tool, args, n]) => {
    const verdict = classifyCall({ tool, arguments: args, registry });
    const pattern = patternOf({ tool, arguments: args, valid: verdict.valid, category: verdict.category ?? null, violations: verdict.violations });
    return pattern ? [{ pattern, day: DAYS[0]!, failures: n, followed: 0, recovered: 0 }] : [];
  });
  return groupPatterns(rows, DAYS, parameters).map((p, i) => ({ ...p, examples: [`call-${i}`] }));
}

const kinds = (parameters: object, calls: [string, unknown, number][] = [], description = "Gets one loan.") =>
  suggestSchemaChanges({ tool: "getloan", description, parameters: parameters as never, patterns: patternsFrom(parameters, calls) });
const only = (kind: SuggestionKind, list: ReturnType<typeof kinds>) => list.filter((s) => s.kind === kind);
const withProperty = (name: string, schema: object) => ({ ...clean, properties: { ...clean.properties, [name]: schema } });
const ok = { loannumber: "4471", channel: "email" };

describe("suggestSchemaChanges", () => {
  it("suggests nothing for a clean tool, with or without a few valid and rare failures", () => {
    expect(kinds(clean)).toEqual([]);
    expect(kinds(clean, [["getloan", ok, 50]])).toEqual([]);
    expect(kinds(clean, [["getloan", { ...ok, loannumber: 4471 }, MIN_FAILURES - 1]])).toEqual([]);
  });

  it("makes a call-based suggestion from exactly MIN_FAILURES failures, not one fewer", () => {
    const schema = withProperty("limit", { type: "integer", minimum: 1, maximum: 100, description: "How many, 1 to 100." });
    const wrongLimit = (n: number) => only("state_type", kinds(schema, [["getloan", { ...ok, limit: "20" }, n]])).length;
    expect(wrongLimit(MIN_FAILURES - 1)).toBe(0);
    expect(wrongLimit(MIN_FAILURES)).toBe(1);
  });

  it("digits sent as a number → say 'digits, as a string' (or accept both), with the description diff", () => {
    const schema = withProperty("loannumber", { type: "string", pattern: "^[0-9]+$", minLength: 4, maxLength: 8, description: "The 4 to 8 digit loan number" });
    const [s, ...rest] = only("digits_as_string", kinds(schema, [["getloan", { ...ok, loannumber: 4471 }, 12]]));
    expect(rest).toEqual([]);
    expect(s!.evidence).toContain("sent 12 times (100% of the tool's failures)");
    expect(s!.change).toContain('accept both types (type ["string", "integer"])');
    expect((s!.after.parameters.properties as Record<string, { description: string }>).loannumber!.description).toBe(
      'The 4 to 8 digit loan number. Digits, as a string (for example "4471"); not a number.',
    );
    expect(s!.before.parameters).toEqual(schema); // the input is not changed
    expect(s!.examples).toEqual(["call-0"]);
    // Not made once the description says it.
    expect(only("digits_as_string", kinds(clean, [["getloan", { ...ok, loannumber: 4471 }, 12]]))).toEqual([]);
  });

  it("another wrong type → name the type in the description", () => {
    const schema = withProperty("limit", { type: "integer", minimum: 1, maximum: 100, description: "How many, 1 to 100." });
    const [s] = only("state_type", kinds(schema, [["getloan", { ...ok, limit: "20" }, 5]]));
    expect(s!.after.parameters.properties).toMatchObject({ limit: { description: "How many, 1 to 100. Send a whole number." } });
  });

  it("values outside an enum → name the allowed values, telling near misses from other words", () => {
    const schema = withProperty("channel", { type: "string", enum: ["email", "sms"], description: "How to send it." });
    const [s] = only(
      "name_enum_values",
      kinds(schema, [
        ["getloan", { ...ok, channel: "Email" }, 4],
        ["getloan", { ...ok, channel: "letter" }, 3],
      ]),
    );
    expect(s!.evidence).toBe('Values outside email, sms at `channel`: "Email" ×4 (other case), "letter" ×3 (another word).');
    expect(s!.change).toContain("normalise");
    expect(s!.after.parameters.properties).toMatchObject({ channel: { description: "How to send it. One of: email, sms." } });
    expect(only("name_enum_values", kinds(clean, [["getloan", { ...ok, channel: "Email" }, 4]]))).toEqual([]);
  });

  it("an unknown name close to the tool's → an alias or a clearer name", () => {
    const [s] = only("alias_name", kinds(clean, [["get_loan", ok, 7]]));
    expect(s!.title).toBe("Accept `get_loan` as an alias of `getloan`");
    expect(s!.after.description).toBe('Gets one loan. Call this tool exactly as "getloan".');
  });

  it("a limit often broken and not stated → state it", () => {
    const schema = withProperty("limit", { type: "integer", minimum: 1, maximum: 100, description: "How many to list." });
    const [s] = only("state_limit", kinds(schema, [["getloan", { ...ok, limit: 500 }, 9]]));
    expect(s!.title).toBe("State the limit of `limit`: at least 1 and at most 100");
    expect(s!.after.parameters.properties).toMatchObject({ limit: { description: "How many to list. At least 1 and at most 100." } });
    expect(only("state_limit", kinds(clean, [["getloan", { ...ok, limit: 500 }, 9]]))).toEqual([]);
  });

  it("a required argument often missing → a default or a clearer description, also nested", () => {
    const schema = withProperty("slot", { ...clean.properties.slot, properties: { time: { type: "string", description: "HH:MM" } } });
    const list = kinds(schema, [
      ["getloan", { channel: "email" }, 6],
      ["getloan", { ...ok, slot: {} }, 4],
    ]);
    expect(only("missing_required", list).map((s) => s.path)).toEqual(["loannumber", "slot.time"]);
    expect(only("missing_required", list)[1]!.after.parameters).toMatchObject({
      properties: { slot: { properties: { time: { description: "Required: HH:MM" } } } },
    });
  });

  it("an argument the model keeps adding → maybe the tool lacks it", () => {
    const [s] = only("extra_argument", kinds(clean, [["getloan", { ...ok, customername: "Ada" }, 8]]));
    expect(s!.title).toBe("Models keep sending `customername`: does `getloan` lack it?");
    // accepted as any value: no made-up description; what Toolgate cannot know is said instead
    expect(s!.after.parameters.properties).toMatchObject({ customername: {} });
    expect(s!.before.parameters.properties).not.toHaveProperty("customername");
    expect(s!.unknown).toMatch(/what `customername` means to `getloan`/);
    expect(s!.changesVerdicts).toBe(true);
  });

  it("never writes placeholder text into the schema: an unknown description is named as unknown, the schema left as it is", () => {
    const schema = withProperty("includehistory", { type: "boolean" });
    const list = kinds(schema, [["getloan", { ...ok, customername: "Ada" }, 8]]);
    for (const s of list) expect(JSON.stringify(s.after)).not.toMatch(/\(what |means to this tool|is for and where/);
    const [undescribed] = only("undescribed_parameter", list);
    expect(undescribed!.after).toEqual(undescribed!.before);
    expect(undescribed!.unknown).toMatch(/what `includehistory` is for/);
    expect(undescribed!.changesVerdicts).toBe(false);
  });

  it("marks which suggestions can change a verdict: a description-only change never can", () => {
    const list = kinds(withProperty("limit", { type: "integer", minimum: 1, maximum: 100, description: "How many to list." }), [
      ["getloan", { ...ok, limit: 500 }, 9],
    ]);
    const [limit] = only("state_limit", list);
    expect(limit!.after).not.toEqual(limit!.before); // the description changed…
    expect(limit!.changesVerdicts).toBe(false); // …and nothing the validator reads
    const nested = kinds({ ...clean, properties: { ...clean.properties, filters: { type: "object", description: "Filters.", properties: {} } } });
    expect(only("nested_additional_properties", nested)[0]!.changesVerdicts).toBe(true);
  });

  it("lints the schema: undescribed parameters, unexplained enums, unstated limits, nested objects without additionalProperties", () => {
    const schema = {
      type: "object",
      properties: {
        includehistory: { type: "boolean" },
        status: { type: "string", enum: ["open", "closed"], description: "Which loans." },
        note: { type: "string", maxLength: 200, description: "A note." },
        filters: { type: "object", description: "Filters.", properties: { q: { type: "string", description: "Text." } } },
      },
      additionalProperties: false,
    };
    const list = kinds(schema);
    expect(list.map((s) => [s.kind, s.path])).toEqual([
      ["undescribed_parameter", "includehistory"],
      ["enum_unexplained", "status"],
      ["limit_unstated", "note"],
      ["nested_additional_properties", "filters"],
    ]);
    expect(list.every((s) => s.source === "lint" && s.failures === 0)).toBe(true);
    expect(list[3]!.after.parameters).toMatchObject({ properties: { filters: { additionalProperties: false } } });
  });
});

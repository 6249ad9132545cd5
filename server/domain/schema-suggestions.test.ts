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
  // the version names the compiled schema in the classifier's cache: one per schema, as the content hash does
  const registry = registryFrom([{ name: "getloan", version: JSON.stringify(parameters), parameters }]);
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

describe("suggestSchemaChanges: each rule's edges", () => {
  it("a number for a string without a digits pattern → 'text, as a string', no example; a union type is not that case", () => {
    const schema = withProperty("ref", { type: "string", description: "The reference." });
    const [s] = only("digits_as_string", kinds(schema, [["getloan", { ...ok, ref: 12.5 }, 3]]));
    expect(s!.title).toBe("Say that `ref` is text, as a string");
    expect(s!.change).toMatch(/^Add "Text, as a string" to the description of `ref`\./);
    expect(s!.after.parameters.properties).toMatchObject({ ref: { description: "The reference. Text, as a string; not a number." } });
    expect(
      only("digits_as_string", kinds(withProperty("ref", { type: "string", description: "The reference, in quotes." }), [["getloan", { ...ok, ref: 7 }, 3]])),
    ).toEqual([]);
    const union = withProperty("ref", { type: ["string", "null"], description: "The reference." });
    const list = kinds(union, [["getloan", { ...ok, ref: 7 }, 3]]);
    expect(only("digits_as_string", list)).toEqual([]);
    expect(only("state_type", list)[0]!.after.parameters.properties).toMatchObject({ ref: { description: "The reference. Send a string or null." } });
  });

  it("a type already named in the description is not suggested again; a boolean is named as true or false", () => {
    const flag = (description: string) => withProperty("flag", { type: "boolean", description });
    expect(only("state_type", kinds(flag("Send true or false."), [["getloan", { ...ok, flag: "yes" }, 3]]))).toEqual([]);
    const [s] = only("state_type", kinds(flag("Whether to."), [["getloan", { ...ok, flag: "yes" }, 3]]));
    expect(s!.change).toBe('Say "a boolean (true or false)" in the description of `flag`; models read descriptions more closely than types.');
    expect(s!.evidence).toMatch(/: sent 3 times \(100% of the tool's failures\)\.$/);
  });

  it("enum misses add up per path to MIN_FAILURES; plural, typo and other words told apart", () => {
    const schema = withProperty("channel", { type: "string", enum: ["email", "sms"], description: "How to send it." });
    const call = (channel: string, n: number): [string, unknown, number] => ["getloan", { ...ok, channel }, n];
    expect(only("name_enum_values", kinds(schema, [call("emails", 1), call("emai", MIN_FAILURES - 2)]))).toEqual([]);
    const [s] = only("name_enum_values", kinds(schema, [call("emails", 3), call("emai", 2), call("fax", 1)]));
    expect(s!.failures).toBe(6);
    expect(s!.evidence).toBe('Values outside email, sms at `channel`: "emails" ×3 (plural), "emai" ×2 (typo of email), "fax" ×1 (another word).');
    expect(s!.examples).toEqual(["call-0", "call-1", "call-2"]);
    const [other] = only("name_enum_values", kinds(schema, [call("fax", 2), call("pigeon", 1)]));
    expect(other!.change).toBe(
      "List the values in the description of `channel`. When one of these words means an allowed value, say which in the description.",
    );
    // a description that names every value already explains them
    expect(
      only("name_enum_values", kinds(withProperty("channel", { type: "string", enum: ["email", "sms"], description: "email or sms" }), [call("fax", 5)])),
    ).toEqual([]);
  });

  it("several misspelt names → aliases; the tool's own name is none", () => {
    const [s] = only(
      "alias_name",
      kinds(clean, [
        ["get_loan", ok, 4],
        ["getLoan", ok, 3],
        ["getloan", { ...ok, loannumber: 1 }, 3],
      ]),
    );
    expect(s!.title).toBe("Accept `get_loan`, `getLoan` as aliases of `getloan`");
    expect(s!.failures).toBe(7);
    expect(s!.evidence).toBe("`get_loan` ×4, `getLoan` ×3 (70% of the tool's failures).");
    expect(s!.change).toMatch(/^Route these names to getloan in the harness, or rename the tool to the spelling models use \(e\.g\. `get_loan`\)/);
    expect(only("alias_name", kinds(clean, [["get_loan", ok, MIN_FAILURES - 1]]))).toEqual([]);
  });

  it("states each kind of limit in words, unless the description gives its numbers or words", () => {
    const limit = (schema: object, args: object) => only("state_limit", kinds(withProperty("x", schema), [["getloan", { ...ok, ...args }, 3]]))[0]?.title;
    expect(limit({ type: "string", minLength: 2, description: "X." }, { x: "a" })).toBe("State the limit of `x`: at least 2 characters");
    expect(limit({ type: "string", maxLength: 3, description: "X." }, { x: "abcd" })).toBe("State the limit of `x`: at most 3 characters");
    expect(limit({ type: "string", maxLength: 3, description: "X, up to 3." }, { x: "abcd" })).toBeUndefined();
    // 3 inside 30 is not the number 3
    expect(limit({ type: "string", maxLength: 3, description: "X, 30 at most." }, { x: "abcd" })).toBe("State the limit of `x`: at most 3 characters");
    expect(limit({ type: "number", exclusiveMinimum: 0.5, description: "X." }, { x: 0.5 })).toBe("State the limit of `x`: more than 0.5");
    expect(limit({ type: "number", exclusiveMinimum: 0.5, description: "X, over 0.5." }, { x: 0.5 })).toBeUndefined();
    expect(limit({ type: "number", exclusiveMaximum: 9, description: "X." }, { x: 9 })).toBe("State the limit of `x`: less than 9");
    expect(limit({ type: "array", minItems: 1, maxItems: 2, description: "X." }, { x: [] })).toBe("State the limit of `x`: 1 to 2 items");
    expect(limit({ type: "array", minItems: 2, description: "X." }, { x: [1] })).toBe("State the limit of `x`: at least 2 items");
    expect(limit({ type: "array", maxItems: 1, description: "X." }, { x: [1, 2] })).toBe("State the limit of `x`: at most 1 items");
    expect(limit({ type: "array", uniqueItems: true, description: "X." }, { x: [1, 1] })).toBe("State the limit of `x`: no item twice");
    expect(limit({ type: "array", uniqueItems: true, description: "X, no duplicates." }, { x: [1, 1] })).toBeUndefined();
    expect(limit({ type: "string", pattern: "^\\d+$", description: "X." }, { x: "a" })).toBe("State the limit of `x`: digits only");
    expect(limit({ type: "string", pattern: "^[a-z]+$", description: "X." }, { x: "1" })).toBe("State the limit of `x`: matching the pattern ^[a-z]+$");
    expect(limit({ type: "string", pattern: "^[a-z]+$", description: "X, for example abc." }, { x: "1" })).toBeUndefined();
    expect(limit({ type: "string", format: "uuid", description: "X." }, { x: "1" })).toBe("State the limit of `x`: a UUID");
    expect(limit({ type: "string", format: "ipv4", description: "X." }, { x: "1" })).toBe("State the limit of `x`: in ipv4 format");
    expect(limit({ type: "string", format: "uuid", description: "The UUID of it." }, { x: "1" })).toBeUndefined();
  });

  it("a missing argument the description calls required is left alone; one the schema lacks keeps the tool as it is", () => {
    const schema = withProperty("loannumber", { type: "string", description: "Required: the loan number." });
    expect(only("missing_required", kinds(schema, [["getloan", { channel: "email" }, 5]]))).toEqual([]);
    const undescribed = { ...clean, properties: { ...clean.properties, loannumber: { type: "string" } } };
    const [s] = only("missing_required", kinds(undescribed, [["getloan", { channel: "email" }, 5]]));
    expect(s!.after.parameters.properties).toMatchObject({ loannumber: { description: "Required: the loannumber" } });
    expect(s!.evidence).toBe("`loannumber` left out 5 times (100% of the tool's failures).");
    const ghost = { ...clean, required: [...clean.required, "ghost"] };
    const [g] = only("missing_required", kinds(ghost, [["getloan", ok, 3]]));
    expect(g!.after).toEqual(g!.before);
  });

  it("an extra argument in a nested object is proposed there, with the keys the tool takes", () => {
    const [s] = only("extra_argument", kinds(clean, [["getloan", { ...ok, slot: { time: "09:00", zone: "UTC" } }, 3]]));
    expect(s!.path).toBe("slot.zone");
    expect(s!.change).toMatch(/add `zone` to the schema .* "Takes only time\."$/);
    expect(s!.after.parameters.properties).toMatchObject({ slot: { properties: { time: {}, zone: {} } } });
    expect(s!.evidence).toBe("`slot.zone` sent 3 times though the schema has no such argument (100% of the tool's failures).");
  });

  it("orders call-based suggestions by failures, then by id, before the lint; the lint skips what they cover", () => {
    const schema = withProperty("note", { type: "string", maxLength: 5, description: "A note." });
    const list = kinds(schema, [
      ["getloan", { ...ok, note: "toolong" }, 3],
      ["getloan", { ...ok, limit: "20" }, 3],
      ["getloan", { ...ok, extra: 1 }, 4],
    ]);
    // the note's unstated limit is the call-based state_limit's: the lint does not repeat it
    expect(list.map((s) => s.id)).toEqual(["extra_argument:extra", "state_limit:note:length", "state_type:limit"]);
    const lintOnly = kinds(schema);
    expect(lintOnly.map((s) => s.id)).toEqual(["limit_unstated:note:length"]);
  });

  it("lints array items: an enum or a limit explained by the array's description, else per item", () => {
    const tags = (description: string, items: object) => ({
      type: "object",
      properties: { tags: { type: "array", description, items } },
      additionalProperties: false,
    });
    expect(kinds(tags("Tags: red or blue.", { type: "string", enum: ["red", "blue"] }))).toEqual([]);
    const list = kinds(tags("Tags.", { type: "string", enum: ["red", "blue"], maxLength: 4 }));
    expect(list.map((s) => [s.kind, s.path])).toEqual([
      ["enum_unexplained", "tags"],
      ["limit_unstated", "tags"],
    ]);
    expect(list[0]!.after.parameters.properties).toMatchObject({ tags: { description: "Tags. Each item is one of: red, blue." } });
    expect(list[1]!.title).toBe("State the limit of `tags[]` in words: at most 4 characters");
    expect(list[1]!.after.parameters.properties).toMatchObject({ tags: { description: "Tags. Each item: At most 4 characters." } });
    // an undescribed enum: its description is empty; objects inside items are linted too
    const bare = kinds({ type: "object", properties: { mode: { enum: [1, "a"] } }, additionalProperties: false });
    expect(bare.map((s) => s.evidence)).toEqual([
      "`mode` has no description: the model has only its name to go on.",
      "`mode` allows 1, a, but its description is empty.",
    ]);
    const rows = kinds(tags("Rows.", { type: "object", properties: { id: { type: "string", description: "Id." } }, unevaluatedProperties: false }));
    expect(rows).toEqual([]);
    const open = kinds(tags("Rows.", { type: "object", properties: { id: { type: "string", description: "Id." } } }));
    expect(open.map((s) => [s.kind, s.path])).toEqual([["nested_additional_properties", "tags[]"]]);
  });
});

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

const kinds = (
  parameters: object,
  calls: [string, unknown, number][] = [],
  description = "Returns one loan by its number. Use it when the user names a loan.",
) => suggestSchemaChanges({ tool: "getloan", description, parameters: parameters as never, patterns: patternsFrom(parameters, calls) });
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
    expect(s!.after.description).toBe('Returns one loan by its number. Use it when the user names a loan. Call this tool exactly as "getloan".');
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

/** Suggestions for `parameters` from calls that were checked against `calledWith` (an older version of the schema). */
const against = (parameters: object, calledWith: object, calls: [string, unknown, number][]) =>
  suggestSchemaChanges({
    tool: "getloan",
    description: "Returns one loan by its number. Use it when the user names a loan.",
    parameters: parameters as never,
    patterns: patternsFrom(calledWith, calls),
  });
/** The suggestions made from calls (the lint's findings about the same schema aside). */
const fromCalls = <T extends { source: string }>(list: T[]) => list.filter((s) => s.source === "calls");
const descriptionAt = (s: { after: { parameters: object } }, name: string) =>
  (s.after.parameters as { properties: Record<string, { description?: string }> }).properties[name]!.description;

describe("suggestSchemaChanges: what the page shows, rule by rule", () => {
  it("makes one suggestion per path and limit, however many patterns lead to it", () => {
    const schema = withProperty("ref", { type: "string", minLength: 2, maxLength: 4, description: "The reference." });
    const list = kinds(schema, [
      ["getloan", { ...ok, ref: true }, 3],
      ["getloan", { ...ok, ref: {} }, 3],
      ["getloan", { ...ok, ref: 4471 }, 3],
      ["getloan", { ...ok, ref: 44.71 }, 3],
      ["getloan", { ...ok, ref: "a" }, 3],
      ["getloan", { ...ok, ref: "abcdef" }, 3],
    ]);
    expect(list.map((s) => s.id)).toEqual(["digits_as_string:ref", "state_limit:ref:length", "state_type:ref"]);
    const [digits, limit, type] = list;
    expect(digits!.failures).toBe(6);
    expect(digits!.evidence).toBe("A number instead of a string at `ref`: sent 6 times (33% of the tool's failures).");
    expect(limit!.title).toBe("State the limit of `ref`: 2 to 4 characters");
    expect(limit!.evidence).toBe(
      "`ref`: too long; `ref`: too short: sent 6 times (33% of the tool's failures); the description does not say 2 to 4 characters.",
    );
    expect(type!.evidence).toBe(
      "`ref`: a boolean (true or false) where a string is required; `ref`: an object where a string is required: sent 6 times (33% of the tool's failures).",
    );
    // the examples of both patterns (patterns of equal counts come in the order of their keys: the two limits, then the types)
    expect(type!.examples).toEqual(["call-2", "call-5"]);
  });

  it("a wrong type: the words proposed, and which descriptions already name the type", () => {
    const sent = (schema: object, value: unknown) => kinds(withProperty("x", schema), [["getloan", { ...ok, x: value }, 3]]);
    // a number where no string is wanted is no case of digits
    expect(sent({ type: "boolean", description: "Whether." }, 1).map((s) => s.title)).toEqual(["Name the type of `x` in its description"]);
    expect(only("state_type", sent({ type: "integer", description: "How many." }, 2.5))[0]!.change).toBe(
      'Say "a whole number" in the description of `x`; models read descriptions more closely than types.',
    );
    // a string sent as something else than a number is told its type, not "as a string"
    expect(descriptionAt(only("state_type", sent({ type: "string", description: "The code." }, true))[0]!, "x")).toBe("The code. Send a string.");
    // a pattern without digits: text, not digits
    expect(only("digits_as_string", sent({ type: "string", pattern: "^[a-z]+$", description: "The code." }, 5))[0]!.title).toBe(
      "Say that `x` is text, as a string",
    );
    // a description naming one of the types, or the type in the words the suggestion proposes
    expect(fromCalls(sent({ type: ["string", "null"], description: "The code string." }, 5))).toEqual([]);
    expect(fromCalls(sent({ type: "integer", description: "An integer, how many." }, "2"))).toEqual([]);
    expect(fromCalls(sent({ type: "integer", description: "How many. Send a whole number." }, "2"))).toEqual([]);
    expect(only("state_type", sent({ type: ["string", "null"], description: "The code." }, 5))[0]!.change).toBe(
      'Say "a string or null" in the description of `x`; models read descriptions more closely than types.',
    );
  });

  it("digits sent as a number: the title and the words proposed", () => {
    const [s] = only(
      "digits_as_string",
      kinds(withProperty("loannumber", { type: "string", pattern: "^\\d+$", description: "The loan." }), [["getloan", { ...ok, loannumber: 4471 }, 3]]),
    );
    expect(s!.title).toBe("Say that `loannumber` is digits, as a string");
    expect(s!.change).toMatch(/^Add "Digits, as a string \(for example "4471"\)" to the description of `loannumber`\. Alternative:/);
  });

  it("patterns at a path the current schema no longer has, or no longer limits, suggest nothing", () => {
    const old = {
      ...clean,
      properties: {
        ...clean.properties,
        old: { type: "string", enum: ["a", "b"], description: "Old." },
        older: { type: "integer", maximum: 5, description: "Older." },
        box: { type: "object", description: "Box.", properties: {}, additionalProperties: false },
      },
    };
    const calls: [string, unknown, number][] = [
      ["getloan", { ...ok, old: 5 }, 3],
      ["getloan", { ...ok, old: "c" }, 3],
      ["getloan", { ...ok, older: 9 }, 3],
      ["getloan", { ...ok, box: { x: 1 } }, 3],
    ];
    expect(fromCalls(against(clean, old, calls))).toEqual([]);
    // the path is there, its enum and its maximum are not
    const loose = withProperty("old", { type: "string", description: "Old, as a string." });
    expect(
      fromCalls(against({ ...loose, properties: { ...loose.properties, older: { type: "integer", description: "Older, an integer." } } }, old, calls)),
    ).toEqual([]);
    // a limit Toolgate has no words for
    expect(
      only("state_limit", kinds(withProperty("step", { type: "integer", multipleOf: 5, description: "Step." }), [["getloan", { ...ok, step: 7 }, 3]])),
    ).toEqual([]);
  });

  it("values outside an enum: plurals, the examples shown, a long value, a partial description", () => {
    const schema = withProperty("sort", { type: "string", enum: ["status", "rule", "box"], description: "Sort by status or rule." });
    const call = (sort: string, n: number): [string, unknown, number] => ["getloan", { ...ok, sort }, n];
    const [s] = only("name_enum_values", kinds(schema, [call("statuses", 1), call("rules", 1), call("boxes", 1), call("date", 1)]));
    expect(s!.title).toBe("Name the allowed values of `sort` in its description");
    expect(s!.evidence).toBe(
      'Values outside status, rule, box at `sort`: "boxes" ×1 (plural), "date" ×1 (another word), "rules" ×1 (plural), "statuses" ×1 (plural).',
    );
    expect(s!.failures).toBe(4);
    expect(s!.examples).toEqual(["call-0", "call-1", "call-2"]);
    const [long] = only("name_enum_values", kinds(schema, [call("x".repeat(50), 3)]));
    expect(long!.evidence).toBe('Values outside status, rule, box at `sort`: "long string" ×3 (another word).');
  });

  it("an enum's path with other failures, an enum of numbers or a const: no suggestion about words outside the enum", () => {
    const channel = withProperty("channel", { type: "string", enum: ["email", "sms"], description: "How to send it." });
    // the lint's enum finding is covered by the call-based suggestion at the same path
    expect(kinds(channel, [["getloan", { ...ok, channel: true }, 3]]).map((s) => s.kind)).toEqual(["state_type"]);
    const priority = withProperty("priority", { type: "integer", enum: [1, 2, 3], description: "Priority." });
    expect(kinds(priority, [["getloan", { ...ok, priority: 4 }, 3]]).map((s) => s.evidence)).toEqual([
      "`priority` allows 1, 2, 3, but its description does not name them all.",
    ]);
    expect(kinds(withProperty("mode", { const: "fast", description: "Fast." }), [["getloan", { ...ok, mode: "slow" }, 3]])).toEqual([]);
  });

  it("misspelt names: one alias's wording, at most three examples, the tool's own name unregistered is no alias", () => {
    const [one] = only("alias_name", kinds(clean, [["get_loan", ok, 3]]));
    expect(one!.path).toBe(""); // about the tool, not a parameter
    expect(one!.change).toMatch(/^Route this name to getloan in the harness/);
    const [many] = only(
      "alias_name",
      kinds(clean, [
        ["get_loan", ok, 3],
        ["getLoan", ok, 3],
        ["get-loan", ok, 3],
        ["getloans", ok, 3],
      ]),
    );
    expect(many!.examples).toEqual(["call-0", "call-1", "call-2"]);
    // calls made under the tool's own name before it was registered were unknown then
    const beforeRegistration = patternOf({ tool: "getloan", arguments: ok, valid: false, category: "unknown_tool" })!;
    const patterns = groupPatterns([{ pattern: beforeRegistration, day: DAYS[0]!, failures: 5, followed: 0, recovered: 0 }], DAYS, clean);
    expect(
      suggestSchemaChanges({
        tool: "getloan",
        description: "Returns one loan by its number. Use it when the user names a loan.",
        parameters: clean as never,
        patterns,
      }),
    ).toEqual([]);
  });

  it("a limit broken: which limit, its words, and the description it proposes", () => {
    const broken = (schema: object, x: unknown) => only("state_limit", kinds(withProperty("x", schema), [["getloan", { ...ok, x }, 3]]));
    const [pattern] = broken({ type: "string", maxLength: 8, pattern: "^[0-9]+$", description: "Up to 8 characters." }, "abc");
    expect(pattern!.title).toBe("State the limit of `x`: digits only");
    expect(pattern!.evidence).toBe("`x`: does not match its pattern: sent 3 times (100% of the tool's failures); the description does not say digits only.");
    expect(pattern!.change).toBe(
      'Add "digits only" to the description of `x`. If the limit is not a real one, widen it instead (a dry run shows which calls that would let through).',
    );
    const range = { type: "integer", minimum: 1, maximum: 100 };
    expect(descriptionAt(broken({ ...range, description: "How many to list. " }, 500)[0]!, "x")).toBe("How many to list. At least 1 and at most 100.");
    expect(descriptionAt(broken({ ...range, description: "How many, e.g. 20" }, 500)[0]!, "x")).toBe("How many, e.g. 20. At least 1 and at most 100.");
  });

  it("a missing argument: the title, the change, and a nested one named by its own name", () => {
    const schema = withProperty("slot", { ...clean.properties.slot, properties: { time: { type: "string" } } });
    const [s] = only("missing_required", kinds(schema, [["getloan", { ...ok, slot: {} }, 3]]));
    expect(s!.title).toBe("Make `slot.time` optional with a default, or say it is required");
    expect(s!.change).toBe(
      'If most calls would use one value, give `slot.time` a default and drop it from "required". Otherwise start its description with "Required:" and say where the value comes from.',
    );
    expect(s!.after.parameters).toMatchObject({ properties: { slot: { properties: { time: { description: "Required: the time" } } } } });
  });

  it("an extra argument: the keys the tool takes; odd names and arrays of objects are proposed where they belong", () => {
    const [top] = only("extra_argument", kinds(clean, [["getloan", { ...ok, extra: 1 }, 3]]));
    expect(top!.change).toMatch(/"Takes only loannumber, channel, limit, slot\."$/);
    const [odd] = only("extra_argument", kinds(clean, [["getloan", { ...ok, "first name": "Ada" }, 3]]));
    expect(odd!.path).toBe('["first name"]');
    expect(odd!.after.parameters.properties).toHaveProperty(["first name"], {});
    const [nested] = only("extra_argument", kinds(clean, [["getloan", { ...ok, slot: { time: "09:00", "time zone": "UTC" } }, 3]]));
    expect(nested!.after.parameters).toMatchObject({ properties: { slot: { properties: { time: {}, "time zone": {} } } } });
    const rows = withProperty("rows", {
      type: "array",
      description: "Rows.",
      items: { type: "object", properties: { id: { type: "string", description: "Id." } }, additionalProperties: false },
    });
    const [item] = only("extra_argument", kinds(rows, [["getloan", { ...ok, rows: [{ id: "1", x: 1 }] }, 3]]));
    expect(item!.path).toBe("rows[].x");
    expect(item!.after.parameters).toMatchObject({ properties: { rows: { items: { properties: { id: {}, x: {} } } } } });
    expect(item!.after.parameters.properties).not.toHaveProperty("x");
  });

  it("the lint: undescribed parameters where they are, with their types; a schema of true is left alone", () => {
    const slot = { ...clean.properties.slot, properties: { ...clean.properties.slot.properties, zone: { type: ["string", "null"] } } };
    const rows = { type: "array", description: "Rows.", items: { type: "object", properties: { id: { type: "string" } }, additionalProperties: false } };
    const list = kinds({ ...clean, properties: { ...clean.properties, slot, rows, anything: true } });
    expect(list.map((s) => s.path)).toEqual(["slot.zone", "rows[].id"]);
    expect(list[0]!.title).toBe("Describe `slot.zone`");
    expect(list[0]!.evidence).toBe("`slot.zone` has no description: the model has only its name and type (string, null) to go on.");
    expect(list[0]!.change).toBe("Say what `slot.zone` is for, where its value comes from and, if it is optional, what happens without it.");
    expect(list.every((s) => s.examples.length === 0)).toBe(true); // no call to show
  });

  it("the lint: an enum's values and a limit in words, with what it proposes", () => {
    const level = kinds(withProperty("level", { enum: ["low", "high", null], description: "Level: low or high." }));
    expect(level.map((s) => [s.title, s.evidence, s.change])).toEqual([
      [
        "Explain the values of `level`",
        "`level` allows low, high, null, but its description does not name them all.",
        'Name the values and when to use each; models guess synonyms (e.g. "pending" for "open") when they only see a type.',
      ],
    ]);
    expect(descriptionAt(level[0]!, "level")).toBe("Level: low or high. One of: low, high, null.");
    const bareEnum = kinds(withProperty("mode", { enum: ["a", "b"] }));
    expect(descriptionAt(only("enum_unexplained", bareEnum)[0]!, "mode")).toBe("One of: a, b.");
    const tags = kinds(withProperty("tags", { type: "array", items: { type: "string", enum: ["red", "blue"] } }));
    expect(only("enum_unexplained", tags)[0]!.evidence).toBe("`tags` allows red, blue, but its description is empty.");
    const [note] = kinds(withProperty("note", { type: "string", maxLength: 200, description: "A note." }));
    expect(note!.evidence).toBe("The schema enforces at most 200 characters at `note`; the description does not say so.");
    expect(note!.change).toBe('Add "at most 200 characters" to the description of `note`: a limit the model cannot see is one it will break.');
    expect(descriptionAt(note!, "note")).toBe("A note. At most 200 characters.");
    const odd = kinds(withProperty("first name", { type: "string", enum: ["a", "b"], description: "Name." }));
    expect(odd.map((s) => s.path)).toEqual(['["first name"]']);
    expect(descriptionAt(odd[0]!, "first name")).toBe("Name. One of: a, b.");
  });

  it("the lint: limits stated by their numbers, and words for patterns that are more than digits", () => {
    const lintOf = (schema: object) => kinds(withProperty("x", schema)).map((s) => s.title);
    expect(lintOf({ type: "array", minItems: 2, description: "X, 2 or more." })).toEqual([]);
    expect(lintOf({ type: "array", maxItems: 3, description: "X, up to 3." })).toEqual([]);
    expect(lintOf({ type: "string", minLength: 4, maxLength: 8, description: "X, up to 8." })).toEqual(["State the limit of `x` in words: 4 to 8 characters"]);
    for (const pattern of ["^[0-9]+$|^-$", "^-$|^[0-9]+$", "^\\d+$|^-$", "^-$|^\\d+$"])
      expect(lintOf({ type: "string", pattern, description: "X." })).toEqual([`State the limit of \`x\` in words: matching the pattern ${pattern}`]);
  });

  it("the lint: objects without additionalProperties, with or without their properties listed", () => {
    for (const filters of [
      { type: "object", description: "Filters." },
      { description: "Filters.", properties: { q: { type: "string", description: "Q." } } },
    ]) {
      const [s] = kinds(withProperty("filters", filters));
      expect(s!.title).toBe("Say whether `filters` takes other keys");
      expect(s!.evidence).toBe('`filters` is an object without "additionalProperties": keys the model invents there are accepted silently.');
      expect(s!.change).toMatch(/^Set "additionalProperties": false so that an invented key is refused with a message naming the allowed ones; or true/);
    }
  });

  it("orders ties by id; the lint leaves out only the enum and limit findings a call-based suggestion covers", () => {
    const tie = kinds(withProperty("loannumber", { type: "string", description: "The loan number." }), [
      ["getloan", { ...ok, loannumber: 4471 }, 3],
      ["getloan", { ...ok, extra: 1 }, 3],
    ]);
    expect(tie.map((s) => s.id)).toEqual(["digits_as_string:loannumber", "extra_argument:extra"]);
    const schema = {
      ...clean,
      properties: { ...clean.properties, channel: { type: "string", enum: ["email", "sms"], description: "How." }, note: { type: "string", maxLength: 5 } },
    };
    const list = kinds(schema, [
      ["getloan", { ...ok, channel: "fax" }, 3],
      ["getloan", { ...ok, note: "toolong" }, 3],
    ]);
    expect(list.map((s) => s.id)).toEqual(["name_enum_values:channel", "state_limit:note:length", "undescribed_parameter:note"]);
  });

  it("gives every suggestion its own id, so that the page lists each once", () => {
    const text = { type: "string", description: "Text." };
    const choice = { type: "string", enum: ["x", "y"], description: "Choice." };
    const schema = {
      type: "object",
      properties: {
        a: text,
        b: text,
        c: choice,
        d: choice,
        e: { type: "string" },
        f: { type: "string" },
        g: { type: "object", description: "G." },
        h: { type: "object", description: "H." },
        i: { ...choice, description: "I." },
        j: { ...choice, description: "J." },
      },
      required: ["e", "f"],
      additionalProperties: false,
    };
    const valid = { e: "1", f: "1" };
    const list = kinds(schema, [
      ["getloan", { ...valid, a: 1 }, 3],
      ["getloan", { ...valid, b: 2 }, 3],
      ["getloan", { ...valid, c: "z" }, 3],
      ["getloan", { ...valid, d: "z" }, 3],
      ["getloan", { f: "1" }, 3],
      ["getloan", { e: "1" }, 3],
    ]);
    const ids = list.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(list.map((s) => s.kind))).toEqual(
      new Set(["digits_as_string", "name_enum_values", "missing_required", "undescribed_parameter", "enum_unexplained", "nested_additional_properties"]),
    );
    expect(list.length).toBe(12);
  });
});

describe("suggestSchemaChanges: patterns at different paths", () => {
  it("make a suggestion each, with their own counts and examples", () => {
    const schema = {
      ...clean,
      properties: {
        ...clean.properties,
        mode: { type: "string", enum: ["fast", "slow"], description: "Speed." },
        tier: { type: "string", enum: ["gold", "basic"], description: "Tier." },
        note: { type: "string", maxLength: 5, description: "A note." },
        ref: { type: "string", minLength: 2, description: "A reference." },
      },
    };
    const list = kinds(schema, [
      ["getloan", { ...ok, tier: "silver" }, 3],
      ["getloan", { ...ok, mode: "quick" }, 3],
      ["getloan", { ...ok, note: "toolong" }, 3],
      ["getloan", { ...ok, ref: "a" }, 3],
      ["getloan", { channel: "email" }, 5],
    ]);
    expect(list.map((s) => [s.id, s.failures, s.examples.length])).toEqual([
      ["missing_required:loannumber", 5, 1],
      ["name_enum_values:mode", 3, 1],
      ["name_enum_values:tier", 3, 1],
      ["state_limit:note:length", 3, 1],
      ["state_limit:ref:length", 3, 1],
    ]);
  });
});

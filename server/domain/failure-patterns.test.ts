import { describe, expect, it } from "vitest";
import { classifyCall, registryFrom } from "../../isomorphic/classify";
import { daysOf, decodePattern, describePattern, encodePattern, groupPatterns, patternOf } from "./failure-patterns";
import { schemaAt } from "../../isomorphic/definition-lint";

const parameters = {
  type: "object",
  properties: {
    loannumber: { type: "string", pattern: "^[0-9]+$", minLength: 4 },
    channel: { type: "string", enum: ["email", "sms"] },
    items: { type: "array", items: { type: "object", properties: { qty: { type: "integer" } }, required: ["qty"] } },
  },
  required: ["loannumber"],
  additionalProperties: false,
};
const registry = registryFrom([{ name: "getloan", version: "v1", parameters }]);

function patternFor(tool: string, args: unknown) {
  const verdict = classifyCall({ tool, arguments: args, registry });
  const key = patternOf({ tool, arguments: args, valid: verdict.valid, category: verdict.category ?? null, violations: verdict.violations });
  return key === null ? null : decodePattern(key);
}

describe("patternOf", () => {
  it("is null for a valid call", () => {
    expect(patternFor("getloan", { loannumber: "4471" })).toBeNull();
  });

  it("keeps the kind of value sent, per category", () => {
    expect(patternFor("getloan", { loannumber: 4471 })).toEqual({ category: "wrong_type", path: "loannumber", kind: "integer" });
    expect(patternFor("getloan", { loannumber: "4471", channel: "letter" })).toEqual({ category: "invalid_choice", path: "channel", kind: '"letter"' });
    expect(patternFor("getloan", { loannumber: "12" })).toEqual({ category: "out_of_range", path: "loannumber", kind: "minLength" });
    expect(patternFor("get_loan", { loannumber: "4471" })).toEqual({ category: "unknown_tool", path: "", kind: "get_loan" });
    expect(patternFor("getloan", {})).toEqual({ category: "missing_argument", path: "loannumber", kind: "" });
    expect(patternFor("getloan", { loannumber: "4471", name: "x" })).toEqual({ category: "extra_argument", path: "name", kind: "" });
    expect(patternFor("getloan", "{loannumber: 4471")).toEqual({ category: "malformed_arguments", path: "", kind: "" });
  });

  it("puts every element of an array in one place, and reads raw JSON text", () => {
    expect(patternFor("getloan", { loannumber: "4471", items: [{ qty: 1 }, { qty: "2" }] })).toEqual({
      category: "wrong_type",
      path: "items[].qty",
      kind: "string",
    });
    expect(patternFor("getloan", '{"loannumber": 4471}')).toEqual({ category: "wrong_type", path: "loannumber", kind: "integer" });
  });

  it("drops every index of a path through nested arrays", () => {
    const grid = { type: "object", properties: { rows: { type: "array", items: { type: "array", items: { type: "integer" } } } } };
    const check = (args: unknown) => {
      const verdict = classifyCall({ tool: "grid", arguments: args, registry: registryFrom([{ name: "grid", version: "v1", parameters: grid }]) });
      const key = patternOf({ tool: "grid", arguments: args, valid: verdict.valid, category: verdict.category ?? null, violations: verdict.violations });
      return key === null ? null : decodePattern(key);
    };
    expect(check({ rows: [[1], [2, "3"]] })).toEqual({ category: "wrong_type", path: "rows[][]", kind: "string" });
    expect(check({ rows: [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "11"]] })).toEqual({ category: "wrong_type", path: "rows[][]", kind: "string" });
  });

  it("has no path when the harness's category is not the one Toolgate found (a policy refusal)", () => {
    const verdict = classifyCall({ tool: "getloan", arguments: { loannumber: "4471" }, registry });
    expect(patternOf({ tool: "getloan", arguments: {}, valid: false, category: "not_allowed", violations: verdict.violations })).toBe("not_allowed\t\t");
  });

  it("keeps a long value out of the key", () => {
    expect(patternFor("getloan", { loannumber: "4471", channel: "x".repeat(80) })?.kind).toBe("long string");
  });
});

describe("describePattern", () => {
  it("reads the expected type and the allowed values from the schema", () => {
    expect(describePattern({ category: "wrong_type", path: "loannumber", kind: "integer" }, parameters)).toBe(
      "`loannumber`: a whole number where a string is required",
    );
    expect(describePattern({ category: "invalid_choice", path: "channel", kind: '"letter"' }, parameters)).toBe('`channel`: "letter" is not one of email, sms');
    expect(describePattern({ category: "unknown_tool", path: "", kind: "get_loan" })).toBe("name `get_loan` is not a registered tool");
    expect(schemaAt(parameters, "items[].qty")).toEqual({ type: "integer" });
  });

  it("has a label for every category, and says so when the schema no longer knows the path", () => {
    const label = (category: string, path = "", kind = "") => describePattern({ category, path, kind }, parameters);
    expect(label("malformed_arguments")).toBe("the arguments are not a JSON object");
    expect(label("missing_argument", "loannumber")).toBe("`loannumber` is required and was not sent");
    expect(label("extra_argument", "name")).toBe("`name` is sent but is not an argument");
    expect(label("out_of_range", "loannumber", "minLength")).toBe("`loannumber`: too short");
    expect(label("out_of_range", "loannumber", "divisibleBy")).toBe("`loannumber`: out of range (divisibleBy)");
    expect(label("out_of_range", "loannumber")).toBe("`loannumber`: out of range (limit)");
    expect(label("not_allowed")).toBe("refused by a policy of the harness");
    expect(label("something_new", "loannumber")).toBe("`loannumber`: something_new");
    expect(label("", "")).toBe("the arguments: invalid");
    // the schema changed since: no type or allowed values to name
    expect(label("wrong_type", "gone", "integer")).toBe("`gone`: a whole number where another type is required");
    expect(label("wrong_type", "gone")).toBe("`gone`: a value where another type is required");
    expect(label("invalid_choice", "gone", '"x"')).toBe('`gone`: "x" is not an allowed value');
  });
});

describe("groupPatterns", () => {
  it("sums days into patterns with share, recovery (next attempt valid, of those tried again) and a trend, largest first", () => {
    const days = daysOf(new Date("2026-11-01T06:00:00Z"), new Date("2026-11-03T00:00:00Z"));
    expect(days).toEqual(["2026-11-01T00:00:00.000Z", "2026-11-02T00:00:00.000Z"]);
    const a = "wrong_type\tloannumber\tinteger";
    const b = "missing_argument\tloannumber\t";
    const patterns = groupPatterns(
      [
        { pattern: b, day: days[0]!, failures: 1, followed: 0, recovered: 0 },
        { pattern: a, day: days[0]!, failures: 2, followed: 2, recovered: 1 },
        { pattern: a, day: days[1]!, failures: 4, followed: 2, recovered: 2 },
      ],
      days,
      parameters,
    );
    // a followed by a corrected call 4 times of 6, 3 of those valid; b never tried again: unknown, not 0 %
    expect(patterns.map((p) => [p.key, p.failures, p.followed, p.recovered, p.trend, p.share, p.recoveryRate])).toEqual([
      [a, 6, 4, 3, [2, 4], 6 / 7, 0.75],
      [b, 1, 0, 0, [1, 0], 1 / 7, null],
    ]);
  });
});

describe("failure patterns at their edges", () => {
  const key = (call: Partial<Parameters<typeof patternOf>[0]>) => patternOf({ tool: "getloan", arguments: {}, valid: false, category: null, ...call });
  const at = (path: string, category = "wrong_type", keyword = "type") => [{ category, path, keyword, message: "" }] as never;

  it("a key holds its three parts, a tab inside the kind included", () => {
    const parts = { category: "invalid_choice", path: "a", kind: '"x\ty"' };
    expect(decodePattern(encodePattern({ ...parts, kind: "x\ty" }))).toEqual({ ...parts, kind: "x\ty" });
    expect(decodePattern("wrong_type")).toEqual({ category: "wrong_type", path: "", kind: "" });
  });

  it("only an invalid call has a pattern; a call without a category has an empty one", () => {
    expect(key({ valid: null })).toBeNull();
    expect(key({ valid: true })).toBeNull();
    expect(key({})).toBe("\t\t");
  });

  it("names the JSON type sent, nothing for a path the arguments do not have", () => {
    const kind = (value: unknown) => decodePattern(key({ category: "wrong_type", arguments: { a: value }, violations: at("a") })!).kind;
    expect([null, [1], true, 1.5, 2, "s", { b: 1 }].map(kind)).toEqual(["null", "array", "boolean", "number", "integer", "string", "object"]);
    expect(decodePattern(key({ category: "wrong_type", arguments: {}, violations: at("a") })!).kind).toBe("nothing");
    // through arrays and objects; a path whose steps do not fit the value finds nothing
    expect(decodePattern(key({ category: "wrong_type", arguments: { a: [{ b: 1.5 }] }, violations: at("a[0].b") })!)).toEqual({
      category: "wrong_type",
      path: "a[].b",
      kind: "number",
    });
    expect(decodePattern(key({ category: "wrong_type", arguments: { a: { 0: 1 } }, violations: at("a[0]") })!).kind).toBe("nothing");
    expect(decodePattern(key({ category: "wrong_type", arguments: { a: [1] }, violations: at("a.length") })!).kind).toBe("nothing");
    // arguments that are not JSON: nothing to read
    expect(decodePattern(key({ category: "wrong_type", arguments: "{oops", violations: at("a") })!).kind).toBe("nothing");
    expect(decodePattern(key({ category: "wrong_type", arguments: '{"a": true}', violations: at("a") })!).kind).toBe("boolean");
  });

  it("keeps a choice of up to 40 characters as JSON, a longer one as its type", () => {
    const kind = (value: unknown) =>
      decodePattern(key({ category: "invalid_choice", arguments: { c: value }, violations: at("c", "invalid_choice", "enum") })!).kind;
    expect(kind("x".repeat(38))).toBe(`"${"x".repeat(38)}"`);
    expect(kind("x".repeat(39))).toBe("long string");
    expect(kind(7)).toBe("7");
    expect(kind(undefined)).toBe("");
  });

  it("without a matching violation of Toolgate's, only the category (and the tool's name) is kept", () => {
    for (const category of ["wrong_type", "invalid_choice", "out_of_range", "missing_argument"]) {
      expect(key({ category, violations: at("a", "extra_argument") })).toBe(`${category}\t\t`);
    }
    expect(key({ category: "out_of_range", violations: at("a", "out_of_range", "maximum") })).toBe("out_of_range\ta\tmaximum");
    // a malformed call or an unknown tool has no path, even when a violation has one
    expect(key({ category: "malformed_arguments", violations: at("a", "malformed_arguments") })).toBe("malformed_arguments\t\t");
    expect(key({ tool: "x", category: "unknown_tool", violations: at("a", "unknown_tool") })).toBe("unknown_tool\t\tx");
  });

  it("reads the schema at a path through tuples, and nothing past what it says", () => {
    const schema = { type: "object", properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] }, n: { type: "number" } } };
    expect(schemaAt(schema, "pair[]")).toEqual({ type: "string" });
    expect(schemaAt(schema, "n.deeper")).toBeUndefined();
    expect(schemaAt(schema, "n.deeper.still")).toBeUndefined();
    expect(schemaAt(schema, "n[]")).toBeUndefined();
    expect(schemaAt(schema, "gone")).toBeUndefined();
    expect(schemaAt({ properties: [] }, "a")).toBeUndefined();
    expect(schemaAt(schema, "a..b")).toBeUndefined();
    expect(schemaAt("not a schema", "a")).toBeUndefined();
  });

  it("labels types of a union, non-string enum values and long values", () => {
    const schema = { type: "object", properties: { v: { type: ["string", "null"], enum: ["a", 1, null] } } };
    expect(describePattern({ category: "wrong_type", path: "v", kind: "boolean" }, schema)).toBe(
      "`v`: a boolean (true or false) where a string or null is required",
    );
    expect(describePattern({ category: "wrong_type", path: "v", kind: "nothing" }, schema)).toBe("`v`: nothing where a string or null is required");
    expect(describePattern({ category: "invalid_choice", path: "v", kind: "2" }, schema)).toBe("`v`: 2 is not one of a, 1, null");
    expect(describePattern({ category: "invalid_choice", path: "v", kind: "long string" }, schema)).toBe("`v`: long string is not one of a, 1, null");
    expect(describePattern({ category: "invalid_choice", path: "v", kind: `"${"y".repeat(50)}"` }, schema)).toBe(
      `\`v\`: "${"y".repeat(38)}… is not one of a, 1, null`,
    );
  });

  it("groups ties by key, counts rows of days outside the range without a trend entry, and copes with nothing", () => {
    const days = daysOf(new Date("2026-11-01T00:00:00Z"), new Date("2026-11-02T00:00:00Z"));
    const rows = ["c", "a", "b"].map((pattern) => ({ pattern, day: days[0]!, failures: 1, followed: 0, recovered: 0 }));
    expect(groupPatterns(rows, days).map((p) => p.key)).toEqual(["a", "b", "c"]);
    const late = groupPatterns([{ pattern: "a", day: "2026-12-01T00:00:00.000Z", failures: 3, followed: 2, recovered: 1 }], days);
    expect(late).toMatchObject([{ key: "a", failures: 3, followed: 2, recovered: 1, recoveryRate: 0.5, trend: [0], share: 1 }]);
    expect(groupPatterns([], days)).toEqual([]);
    expect(groupPatterns([{ pattern: "a", day: days[0]!, failures: 0, followed: 0, recovered: 0 }], days)).toMatchObject([{ share: 0, recoveryRate: null }]);
  });

  it("takes every UTC day that overlaps the range, the end excluded", () => {
    expect(daysOf(new Date("2026-11-01T00:00:00Z"), new Date("2026-11-02T00:00:00Z"))).toEqual(["2026-11-01T00:00:00.000Z"]);
    expect(daysOf(new Date("2026-11-01T23:59:59Z"), new Date("2026-11-02T00:00:01Z"))).toEqual(["2026-11-01T00:00:00.000Z", "2026-11-02T00:00:00.000Z"]);
    expect(daysOf(new Date("2026-11-02T00:00:00Z"), new Date("2026-11-02T00:00:00Z"))).toEqual([]);
  });
});

describe("failure patterns, one mutant at a time", () => {
  it("a wrong type at a path that cannot be read is a pattern of nothing sent, not a crash", () => {
    const violations = [{ category: "wrong_type", path: "a[", keyword: "type", message: "must be string" }] as never;
    expect(patternOf({ tool: "getloan", arguments: { a: 1 }, valid: false, category: "wrong_type", violations })).toBe("wrong_type\ta[\tnothing");
  });

  it("every pattern starts without examples (the service adds them to the top rows only)", () => {
    const rows = ["a", "b"].map((pattern) => ({ pattern, day: "2026-11-30T00:00:00.000Z", failures: 1, followed: 0, recovered: 0 }));
    expect(groupPatterns(rows, ["2026-11-30T00:00:00.000Z"]).map((p) => p.examples)).toEqual([[], []]);
  });
});

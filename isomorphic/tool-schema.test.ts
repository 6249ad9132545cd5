import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  checkJsonSchema,
  checkSchemaCost,
  describeValue,
  normalizeToolInput,
  SCHEMA_LIMITS,
  schemaDraft,
  schemaForAjv,
  storedKeyOrder,
  TOOL_NAME_MAX,
  validationDiffers,
} from "./tool-schema";

const parameters = {
  type: "object",
  properties: { loannumber: { type: "string", minLength: 4, maxLength: 8 } },
  required: ["loannumber"],
};
const description = "Returns the status, due date and fee for one loan.";
const expected = { ok: true, tool: { name: "getloan", description, parameters } };

/** The message of a schema checkJsonSchema refuses. */
function refusal(schema: unknown): string {
  const result = checkJsonSchema(schema);
  if (result.ok) throw new Error("expected a refusal");
  return result.message;
}

describe("normalizeToolInput", () => {
  it("accepts our shape", () => {
    expect(normalizeToolInput({ name: "getloan", description, parameters })).toEqual(expected);
    expect(normalizeToolInput({ name: "getloan", parameters })).toEqual({ ok: true, tool: { name: "getloan", parameters } });
  });

  it("accepts OpenAI Chat Completions and Responses tools", () => {
    expect(normalizeToolInput({ type: "function", function: { name: "getloan", description, parameters, strict: true } })).toEqual(expected);
    expect(normalizeToolInput({ type: "function", name: "getloan", description, parameters, strict: true })).toEqual(expected);
  });

  it("reads an OpenAI tool without parameters as a tool without arguments", () => {
    expect(normalizeToolInput({ type: "function", function: { name: "ping" } })).toEqual({
      ok: true,
      tool: { name: "ping", parameters: { type: "object", properties: {} } },
    });
  });

  it("accepts Anthropic tools", () => {
    expect(normalizeToolInput({ name: "getloan", description, input_schema: parameters })).toEqual(expected);
    expect(normalizeToolInput({ type: "custom", name: "getloan", description, input_schema: parameters })).toEqual(expected);
  });

  it("accepts MCP tools (tools/list's inputSchema)", () => {
    expect(normalizeToolInput({ name: "getloan", description, inputSchema: parameters, annotations: { readOnlyHint: true } })).toEqual(expected);
    expect(normalizeToolInput({ name: "getloan", inputSchema: "x" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("'inputSchema' of tool 'getloan'"),
    });
  });

  it("refuses other shapes, saying what was wrong, what was sent and how to fix it", () => {
    const message = (input: unknown) => {
      const result = normalizeToolInput(input);
      if (result.ok) throw new Error("expected a refusal");
      return result.message;
    };
    expect(message("getloan")).toMatch(/^Error: a tool must be a JSON object, you sent the string "getloan"\. Send \{"name"/);
    expect(message({ type: "function", function: { description, parameters } })).toBe(
      `Error: 'function.name' must be a string of 1 to 128 characters, you sent nothing. Give the tool a name such as "getloan".`,
    );
    expect(message({ name: "getloan", input_schema: "loannumber: string" })).toContain(
      `'input_schema' of tool 'getloan' must be a JSON Schema object, you sent the string "loannumber: string". Send a schema such as`,
    );
    expect(message({ name: "getloan" })).toContain("'parameters' of tool 'getloan' must be a JSON Schema object, you sent nothing.");
    expect(message({ name: "getloan", description: 5, parameters })).toContain("'description' must be a string, you sent the number 5.");
    expect(message({ type: "web_search_20250305", name: "web_search" })).toContain(
      `only function tools with a JSON Schema can be registered, you sent type "web_search_20250305".`,
    );
    expect(message({ type: "function", function: "getloan" })).toContain("'function' must be an object");
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: undefined, b: "x" })).toBe('{"b":"x"}');
  });

  it("keeps __proto__ as a plain key", () => {
    expect(canonicalJson(JSON.parse('{"__proto__": {"x": 1}, "a": 2}'))).toBe('{"__proto__":{"x":1},"a":2}');
  });
});

describe("checkJsonSchema", () => {
  it("accepts object schemas in draft 2020-12 (declared or not) and draft-07", () => {
    expect(checkJsonSchema(parameters)).toEqual({ ok: true });
    expect(checkJsonSchema({ properties: { a: { type: "string" } } })).toEqual({ ok: true });
    expect(checkJsonSchema({ $schema: "https://json-schema.org/draft/2020-12/schema", ...parameters, $defs: { x: { type: "string" } } })).toEqual({
      ok: true,
    });
    for (const $schema of ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema"]) {
      expect(checkJsonSchema({ $schema, ...parameters, definitions: { x: { type: "string" } } })).toEqual({ ok: true });
    }
  });

  it("checks schemas that share an $id one after another, each on its own (the meta-schema check is shared, the compile is not)", () => {
    const id = "https://tools.example/loan.json";
    expect(checkJsonSchema({ $id: id, type: "object", properties: { a: { type: "string" } } })).toEqual({ ok: true });
    expect(checkJsonSchema({ $id: id, type: "object", properties: { b: { type: "number" } } })).toEqual({ ok: true });
    expect(refusal({ $id: id, type: "object", properties: { c: { type: "strnig" } } })).toContain("parameters/properties/c/type must be equal");
    expect(checkJsonSchema({ $id: id, type: "object", properties: { a: { type: "string" } } })).toEqual({ ok: true });
  });

  it("refuses a broken schema with Ajv's own message", () => {
    const message = refusal({ type: "object", properties: { a: { type: "strnig" } } });
    expect(message).toContain("Error: parameters is not a valid JSON Schema (draft 2020-12):");
    expect(message).toContain("parameters/properties/a/type must be equal to one of the allowed values");
    expect(refusal({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", required: "a" })).toContain(
      "(draft draft-07): parameters/required must be array",
    );
  });

  it("refuses schemas Ajv cannot compile", () => {
    expect(refusal({ type: "object", properties: { a: { type: "string", pattern: "[" } } })).toContain("Invalid regular expression");
    expect(refusal({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } })).toContain("can't resolve reference #/$defs/missing");
  });

  it("refuses a schema no object of arguments can satisfy, saying where it says so", () => {
    expect(refusal({ type: "string" })).toBe(
      'Error: parameters must describe an object of arguments, you sent type "string". Use {"type": "object", "properties": {…}} at the top level.',
    );
    expect(refusal({ $defs: { a: { type: ["string", "null"] } }, $ref: "#/$defs/a" })).toContain('you sent type ["string","null"] at #/$defs/a.');
    expect(refusal({ allOf: [{ type: "object" }, { allOf: [false] }] })).toContain("you sent a schema that accepts nothing at #/allOf/1/allOf/0.");
    expect(refusal({ enum: [1, "a"] })).toContain('you sent an enum of no object [1,"a"].');
    expect(refusal({ const: null })).toContain("you sent const null.");
    expect(refusal([{ type: "object" }])).toContain("parameters must be a JSON Schema object, you sent the array");
  });

  it("accepts every schema an object can satisfy, whatever its root keywords", () => {
    const pydantic = {
      $defs: { Loan: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
      $ref: "#/$defs/Loan",
    };
    for (const schema of [
      {},
      pydantic,
      { allOf: [{ $ref: "#/$defs/a" }], $defs: { a: { type: "object" } } },
      { anyOf: [{ type: "string" }, { type: "object" }] },
      { enum: [{ a: 1 }, 2] },
      { $schema: "https://json-schema.org/draft/2019-09/schema", properties: { a: true }, unevaluatedProperties: false },
    ]) {
      expect(checkJsonSchema(schema)).toEqual({ ok: true });
    }
  });

  it("refuses drafts it does not know", () => {
    expect(refusal({ $schema: "http://json-schema.org/draft-03/schema#", type: "object" })).toBe(
      `Error: '$schema' must name JSON Schema draft 2020-12, 2019-09, draft-07, draft-06 or draft-04, you sent "http://json-schema.org/draft-03/schema#". Use "https://json-schema.org/draft/2020-12/schema" or leave '$schema' out.`,
    );
  });

  it("checks draft-04 and draft-06 schemas against their own meta-schema", () => {
    const d4 = "http://json-schema.org/draft-04/schema#";
    const d6 = "http://json-schema.org/draft-06/schema#";
    expect(checkJsonSchema({ $schema: d4, type: "object", properties: { n: { type: "number", minimum: 0, exclusiveMinimum: true } } })).toEqual({ ok: true });
    // a number where draft-04 wants its flag, and the flag where draft-06 wants a number
    expect(refusal({ $schema: d4, type: "object", properties: { n: { minimum: 0, exclusiveMinimum: 0 } } })).toContain("(draft draft-04)");
    expect(refusal({ $schema: d6, type: "object", properties: { n: { minimum: 0, exclusiveMinimum: true } } })).toContain("(draft draft-06)");
    // draft-04 has no boolean schemas; draft-06 has
    expect(refusal({ $schema: d4, type: "object", properties: { n: false } })).toContain("(draft draft-04)");
    expect(checkJsonSchema({ $schema: d6, type: "object", properties: { n: false } })).toEqual({ ok: true });
  });
});

describe("what one schema may cost", () => {
  const nested = (levels: number) => {
    let schema: object = { type: "string" };
    for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
    return schema;
  };

  it("refuses patterns RE2 cannot run, saying which, where, why and how to fix it", () => {
    const message = refusal({ type: "object", properties: { code: { type: "string", pattern: "^(a)\\1$" } } });
    expect(message).toMatch(/^Error: the pattern "\^\(a\)\\\\1\$" at #\/properties\/code\/pattern cannot be used \(RE2 says: .*\)\./);
    expect(message).toContain("no backreferences");
    expect(message).toContain("Rewrite the pattern without them");
    expect(refusal({ type: "object", patternProperties: { "^(?!x)": { type: "string" } } })).toMatch(
      /the pattern "\^\(\?!x\)" at #\/patternProperties\/\^\(\?!x\) cannot be used.*lookaround/,
    );
    // not a schema keyword here: a property named "pattern"
    expect(checkJsonSchema({ type: "object", properties: { pattern: { type: "string" } } })).toEqual({ ok: true });
  });

  it("accepts the patterns RE2 and JavaScript share, including \\u escapes and named groups", () => {
    for (const pattern of ["^(a+)+$", "^[0-9]{4}$", "^\\u00e9+$", "^(?<year>\\d{4})-\\d{2}$", "^\\p{L}+$"]) {
      expect(checkJsonSchema({ type: "object", properties: { a: { type: "string", pattern } } })).toEqual({ ok: true });
    }
  });

  it("refuses a schema nested too deep, without overflowing the stack, at any depth", () => {
    expect(checkJsonSchema(nested(SCHEMA_LIMITS.depth / 2 - 1))).toEqual({ ok: true });
    for (const levels of [SCHEMA_LIMITS.depth, 1_000, 100_000]) {
      expect(refusal(nested(levels))).toMatch(
        /^Error: parameters is nested more than 64 levels deep \(objects and arrays\) at #\/properties\/a\/properties\/a\//,
      );
    }
  });

  it("refuses too many subschemas and too many bytes", () => {
    const wide = (count: number) => ({
      type: "object",
      properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: "string" }])),
    });
    expect(checkJsonSchema(wide(SCHEMA_LIMITS.subschemas - 1))).toEqual({ ok: true });
    expect(refusal(wide(SCHEMA_LIMITS.subschemas))).toMatch(/holds more than 500 schemas .* the 501th is at #\/properties\/p499\)/);
    const big = { type: "object", properties: { a: { type: "string", description: "x".repeat(SCHEMA_LIMITS.bytes) } } };
    expect(refusal(big)).toMatch(/^Error: parameters is 65,\d{3} bytes as JSON; a schema may be at most 65,536 bytes\./);
  });

  it("refuses text PostgreSQL cannot store, in the schema and in the tool's name and description", () => {
    expect(refusal({ type: "object", properties: { "a\u0000": { type: "string" } } })).toMatch(/the key "a\\u0000" at #\/properties\/a\\u0000 contains a NUL/);
    expect(refusal({ type: "object", description: "\ud800" })).toMatch(/the string "\\ud800" at #\/description contains a lone UTF-16 surrogate/);
    expect(normalizeToolInput({ name: "get\u0000loan", parameters })).toMatchObject({ ok: false, message: expect.stringContaining("'name'") });
  });
});

describe("validationDiffers", () => {
  const base = {
    type: "object",
    description: "A loan.",
    properties: { description: { type: "string", title: "Text" }, n: { type: "integer", examples: [1] } },
    items: { description: "x" },
  };
  it("is false when only annotations changed, at any level", () => {
    const edited = structuredClone(base);
    edited.description = "Another text.";
    edited.properties.description.title = "Other";
    edited.properties.n.examples = [2];
    edited.items.description = "y";
    expect(validationDiffers(base, edited)).toBe(false);
    expect(validationDiffers(base, { ...base, $comment: "note" })).toBe(false);
  });
  it("is true when a validation keyword changed, or a property named description", () => {
    expect(validationDiffers(base, { ...base, required: ["n"] })).toBe(true);
    expect(validationDiffers(base, { ...base, properties: { ...base.properties, n: { type: "string" } } })).toBe(true);
    const { description: _gone, ...properties } = base.properties;
    expect(validationDiffers(base, { ...base, properties })).toBe(true);
    expect(validationDiffers(base, { ...base, properties: { ...base.properties, extra: {} } })).toBe(true);
  });
});

describe("tool schemas at their edges", () => {
  it("describes what was sent", () => {
    expect(describeValue(undefined)).toBe("nothing");
    expect(describeValue({})).toBe("an empty object");
    expect(describeValue({ a: 1, b: 2 })).toBe("an object with keys a, b");
    expect(describeValue(true)).toBe("the boolean true");
    expect(describeValue("x")).toBe('the string "x"');
    expect(describeValue([1])).toBe("the array [1]");
    expect(describeValue(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`key${i}`, i])))).toMatch(/^an object with keys key0, key1, .{40,}…$/);
  });

  it("a tool name of 1 to 128 characters, not blank; unstorable descriptions refused", () => {
    expect(normalizeToolInput({ name: "n".repeat(TOOL_NAME_MAX), parameters }).ok).toBe(true);
    for (const name of ["n".repeat(TOOL_NAME_MAX + 1), "  ", "", 7]) {
      expect(normalizeToolInput({ name, parameters })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/^Error: 'name' must be a string of 1 to 128 characters/),
      });
    }
    expect(normalizeToolInput({ name: "getloan", description: "a\u0000b", parameters })).toEqual({
      ok: false,
      message: expect.stringMatching(/^Error: 'description' "a\\u0000b" contains a NUL character/),
    });
    expect(normalizeToolInput({ type: "function", function: { name: "get\u0000loan", parameters } })).toMatchObject({
      message: expect.stringMatching(/^Error: 'function\.name' "get\\u0000loan" contains a NUL/),
    });
  });

  it("parameters win over input_schema; only OpenAI's function tools may leave the schema out", () => {
    const other = { type: "object", properties: { x: { type: "number" } } };
    expect(normalizeToolInput({ name: "t", parameters, input_schema: other })).toEqual({ ok: true, tool: { name: "t", parameters } });
    expect(normalizeToolInput({ type: "function", name: "ping" })).toEqual({
      ok: true,
      tool: { name: "ping", parameters: { type: "object", properties: {} } },
    });
    expect(normalizeToolInput({ type: "custom", name: "ping" })).toMatchObject({ ok: false });
    expect(normalizeToolInput({ name: "ping" })).toMatchObject({ ok: false });
  });

  it("reads the draft from $schema", () => {
    expect(schemaDraft({})).toBe("2020-12");
    expect(schemaDraft({ $schema: 7 })).toBeUndefined();
    expect(schemaDraft({ $schema: "http://json-schema.org/draft-07/schema" })).toBe("draft-07");
    expect(schemaDraft({ $schema: "https://json-schema.org/draft/2019-09/schema" })).toBe("2019-09");
    expect(schemaDraft({ $schema: "http://json-schema.org/draft-06/schema#" })).toBe("draft-06");
    expect(schemaDraft({ $schema: "http://json-schema.org/draft-04/schema" })).toBe("draft-04");
    expect(schemaDraft({ $schema: "http://json-schema.org/draft-03/schema#" })).toBeUndefined();
  });

  it("orders keys as jsonb does: fewer UTF-8 bytes first, then byte by byte, at every level", () => {
    // "é" is two bytes: as long as "ab", and its first byte (0xc3) comes after "a"
    const ordered = storedKeyOrder({ abc: 1, é: 2, ab: 3, b: [{ zz: 1, y: 2 }], a: 4 });
    expect(Object.keys(ordered)).toEqual(["a", "b", "ab", "é", "abc"]);
    expect(Object.keys(ordered.b[0]!)).toEqual(["y", "zz"]);
    expect(storedKeyOrder({ b: 1, a: 2 })).toEqual({ a: 2, b: 1 });
    expect(Object.keys(storedKeyOrder({ ba: 1, ab: 2, aa: 3 }))).toEqual(["aa", "ab", "ba"]);
  });

  it("compiles a schema synchronously, with the one spelling of $schema Ajv knows", () => {
    expect(schemaForAjv({ $async: true, type: "object" }, "2020-12")).toEqual({ type: "object" });
    expect(schemaForAjv({ $schema: "https://json-schema.org/draft-07/schema", type: "object" }, "draft-07")).toEqual({
      type: "object",
      $schema: "http://json-schema.org/draft-07/schema#",
    });
  });

  it("refuses at one level past the depth limit and one byte past the size limit", () => {
    const nested = (levels: number) => {
      let schema: Record<string, unknown> = { type: "string" };
      for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema } };
      return schema;
    };
    // nested(n) puts its innermost "string" 2n + 1 levels down
    expect(checkSchemaCost(nested(SCHEMA_LIMITS.depth / 2 - 1)).ok).toBe(true);
    expect(checkSchemaCost(nested(SCHEMA_LIMITS.depth / 2)).ok).toBe(false);
    const sized = (bytes: number) => {
      const schema = (description: string) => ({ type: "object", properties: { a: { type: "string", description } } });
      return schema("x".repeat(bytes - canonicalJson(schema("")).length));
    };
    expect(checkSchemaCost(sized(SCHEMA_LIMITS.bytes))).toEqual({ ok: true, bytes: SCHEMA_LIMITS.bytes });
    expect(refusal(sized(SCHEMA_LIMITS.bytes + 1))).toMatch(/^Error: parameters is 65,537 bytes as JSON/);
    // bytes, not characters
    expect(checkSchemaCost(sized(100))).toEqual({ ok: true, bytes: 100 });
    expect(checkSchemaCost({ type: "object", description: "é" })).toEqual({ ok: true, bytes: canonicalJson({ type: "object", description: "é" }).length + 1 });
  });

  it("counts the schemas in lists, maps and keywords, booleans included, and nothing else", () => {
    const padded = (schemas: object[]) => ({
      type: "object",
      properties: Object.fromEntries([
        ...Array.from({ length: SCHEMA_LIMITS.subschemas - 1 - schemas.length }, (_, i) => [`p${i}`, true] as const),
        ...schemas.map((s, i) => [`s${i}`, s] as const),
      ]),
    });
    // the root, 499 − n boolean properties and n more: 500 in all is the limit
    expect(checkSchemaCost(padded([{ anyOf: [] }])).ok).toBe(true);
    expect(checkSchemaCost(padded([{ items: false }])).ok).toBe(false);
    expect(checkSchemaCost(padded([{ items: [] }])).ok).toBe(true);
    expect(checkSchemaCost(padded([{ allOf: [true] }])).ok).toBe(false);
    expect(checkSchemaCost(padded([{ $defs: { x: {} } }])).ok).toBe(false);
    expect(checkSchemaCost(padded([{ patternProperties: { "^a": {} } }])).ok).toBe(false);
    expect(checkSchemaCost(padded([{ not: {} }])).ok).toBe(false);
    // not schemas: a property list's values, an enum, an example, a $defs that is not a map
    expect(checkSchemaCost(padded([{ enum: [{}, {}] }])).ok).toBe(true);
    expect(checkSchemaCost(padded([{ examples: [{ type: "x" }] }])).ok).toBe(true);
    expect(checkSchemaCost(padded([{ $defs: [{}] }])).ok).toBe(true);
    expect(checkSchemaCost(padded([{ required: ["a"] }])).ok).toBe(true);
  });

  it("says where a bad pattern is, escaping the pointer, and why it is not one", () => {
    expect(refusal({ type: "object", properties: { "a/b~c": { type: "string", pattern: "[" } } })).toMatch(
      /^Error: the pattern "\[" at #\/properties\/a~1b~0c\/pattern is not a valid regular expression: .*\. Fix the pattern and register the tool again\.$/,
    );
    expect(refusal({ type: "object", patternProperties: { "^ok$": {}, "^(?=x)": {} } })).toMatch(/at #\/patternProperties\/\^\(\?=x\) cannot be used/);
  });
});

describe("tool schemas, one mutant at a time", () => {
  it("a 'function' member is read as the tool only in an OpenAI function tool", () => {
    const other = { type: "object", properties: { x: { type: "number" } } };
    expect(normalizeToolInput({ name: "getloan", parameters, function: { name: "other", parameters: other } })).toEqual({
      ok: true,
      tool: { name: "getloan", parameters },
    });
    expect(normalizeToolInput({ type: "custom", name: "getloan", parameters, function: "not a tool" })).toMatchObject({ ok: true });
  });

  it("a tool without a description has no description member at all", () => {
    const result = normalizeToolInput({ name: "getloan", parameters });
    expect(result).toStrictEqual({ ok: true, tool: { name: "getloan", parameters } });
  });

  it("writes what JSON would write for undefined: null in an array, and at the top", () => {
    expect(canonicalJson([1, undefined, 2])).toBe(JSON.stringify([1, undefined, 2]));
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson([() => 1])).toBe("[null]");
  });

  it("ignores annotations inside lists of schemas, and tells boolean schemas apart", () => {
    const branch = (text: string) => ({ type: "object", properties: { a: { anyOf: [{ type: "string", description: text }, { type: "null" }] } } });
    expect(validationDiffers(branch("a loan number"), branch("the loan's number"))).toBe(false);
    expect(validationDiffers({ type: "object", additionalProperties: true }, { type: "object", additionalProperties: false })).toBe(true);
  });

  it("accepts a schema 64 levels deep (the limit) and refuses one 65 deep", () => {
    // the default is at depth 1; each array around "x" adds one level
    const withDefaultDepth = (depth: number) => {
      let value: unknown = "x";
      for (let i = 1; i < depth; i++) value = [value];
      return { type: "object", default: value };
    };
    expect(checkSchemaCost(withDefaultDepth(SCHEMA_LIMITS.depth)).ok).toBe(true);
    expect(checkSchemaCost(withDefaultDepth(SCHEMA_LIMITS.depth + 1))).toEqual({
      ok: false,
      message: expect.stringMatching(/^Error: parameters is nested more than 64 levels deep/),
    });
  });

  it("reports the first problem met, whatever comes after it", () => {
    let deep: unknown = "x";
    for (let i = 0; i < SCHEMA_LIMITS.depth; i++) deep = [deep];
    const fine = { type: "string", pattern: "^[a-z]+$" };
    // too deep, then a pattern that is fine, then a key PostgreSQL cannot store
    expect(refusal({ type: "object", properties: { a: { default: deep }, b: fine, "c\u0000": {} } })).toMatch(
      /^Error: parameters is nested more than 64 levels deep/,
    );
    // a key that cannot be stored, then a pattern that is fine
    expect(refusal({ type: "object", properties: { "a\u0000": {}, b: fine } })).toMatch(/^Error: the key "a\\u0000" at #\/properties\/a\\u0000 /);
    // a pattern RE2 cannot run, then one it can
    expect(refusal({ type: "object", properties: { a: { type: "string", pattern: "(?=x)" }, b: fine } })).toMatch(
      /^Error: the pattern "\(\?=x\)" at #\/properties\/a\/pattern cannot be used/,
    );
    expect(refusal({ type: "object", patternProperties: { "^(?=x)": {}, "^ok$": {} } })).toMatch(/at #\/patternProperties\/\^\(\?=x\) cannot be used/);
    // schema 501 of 503 is named, and the two after it do not clear the refusal
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 502 }, (_, i) => [`p${i}`, fine])) };
    expect(refusal(wide)).toMatch(/the 501th is at #\/properties\/p499\)/);
  });

  it("says which string in a list PostgreSQL cannot store", () => {
    expect(refusal({ type: "object", properties: { status: { enum: ["open", "cl\u0000osed"] } } })).toMatch(
      /^Error: the string "cl\\u0000osed" at #\/properties\/status\/enum\/1 contains a NUL character \(\\u0000\) at character 3/,
    );
  });

  it("counts only objects and booleans as schemas, and looks for patterns only in schemas", () => {
    // 500 list members that are not schemas (Ajv refuses them later, with its own message)
    expect(checkSchemaCost({ type: "object", allOf: Array.from({ length: SCHEMA_LIMITS.subschemas }, () => 1) }).ok).toBe(true);
    // a value under const looks like a schema with a lookahead pattern but is data
    const data = { not: { pattern: "(?=a)" }, properties: { x: { pattern: "(?=a)" } } };
    expect(checkSchemaCost({ type: "object", properties: { a: { const: data } } }).ok).toBe(true);
    expect(checkJsonSchema({ type: "object", properties: { a: { const: data } } })).toEqual({ ok: true });
  });

  it("judges a pattern RE2 refuses by the u flag Ajv compiles with", () => {
    // a lookahead RE2 cannot run, and an escape that only the u flag refuses
    expect(refusal({ type: "object", properties: { a: { type: "string", pattern: "(?=a)\\q" } } })).toMatch(
      /^Error: the pattern .* at #\/properties\/a\/pattern is not a valid regular expression: .*Invalid escape/,
    );
  });

  it("ends every refusal of the schema's text or of Ajv with how to fix it", () => {
    expect(refusal({ type: "object", properties: { "a\u0000": {} } })).toMatch(/\. Fix the schema and register the tool again\.$/);
    expect(refusal({ type: "object", properties: { a: { type: "strnig" } } })).toMatch(/\. Fix the schema and register the tool again\.$/);
    expect(refusal({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } })).toMatch(/\. Fix the schema and register the tool again\.$/);
  });
});

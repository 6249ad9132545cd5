import { describe, expect, it } from "vitest";
import { canonicalJson, checkJsonSchema, normalizeToolInput, SCHEMA_LIMITS, validationDiffers } from "./tool-schema";

const parameters = {
  type: "object",
  properties: { loannumber: { type: "string", minLength: 4, maxLength: 8 } },
  required: ["loannumber"],
};
const description = "Returns the status, due date and fee for one loan.";
const expected = { ok: true, tool: { name: "getloan", description, parameters } };

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
  const refusal = (schema: unknown) => {
    const result = checkJsonSchema(schema);
    if (result.ok) throw new Error("expected a refusal");
    return result.message;
  };

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

  it("refuses anything but an object schema at the top level", () => {
    expect(refusal({ type: "string" })).toBe(
      'Error: parameters must describe an object of arguments, you sent type "string". Use {"type": "object", "properties": {…}} at the top level.',
    );
    expect(refusal({})).toContain("you sent a schema with neither type nor properties");
    expect(refusal([{ type: "object" }])).toContain("parameters must be a JSON Schema object, you sent the array");
  });

  it("refuses drafts other than 2020-12 and draft-07", () => {
    expect(refusal({ $schema: "http://json-schema.org/draft-04/schema#", type: "object" })).toBe(
      `Error: '$schema' must name JSON Schema draft 2020-12 or draft-07, you sent "http://json-schema.org/draft-04/schema#". Use "https://json-schema.org/draft/2020-12/schema" or leave '$schema' out.`,
    );
  });
});

describe("what one schema may cost", () => {
  const refusal = (schema: unknown) => {
    const result = checkJsonSchema(schema);
    if (result.ok) throw new Error("expected a refusal");
    return result.message;
  };
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

import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "@/contracts/categories";
import { likelyTool, rankToolNames } from "./tool-names";
import {
  classifyCall,
  closeMatch,
  registryFrom,
  ToolSchemaError,
  validatorFor,
  VALIDATOR_CACHE_LIMIT,
  VALIDATOR_CACHE_SCHEMA_BYTES,
  type Verdict,
} from "./classify";

const getloan = {
  type: "object",
  properties: {
    loannumber: { type: "string", minLength: 4, maxLength: 8, pattern: "^[0-9]+$", examples: ["4471"] },
    includehistory: { type: "boolean", default: false },
  },
  required: ["loannumber"],
  additionalProperties: false,
};

const listopenloans = {
  type: "object",
  properties: { status: { type: "string", enum: ["open", "closed", "overdue"] } },
  required: ["status"],
  additionalProperties: false,
};

const createorder = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    customer: {
      type: "object",
      properties: {
        id: { type: "string" },
        email: { type: "string", format: "email" },
        tier: { enum: ["basic", "gold"] },
      },
      required: ["id"],
      additionalProperties: false,
    },
    items: {
      type: "array",
      minItems: 1,
      maxItems: 5,
      items: {
        type: "object",
        properties: {
          sku: { type: "string", pattern: "^[A-Z]{3}-[0-9]+$" },
          qty: { type: "integer", minimum: 1, maximum: 100 },
        },
        required: ["sku", "qty"],
        additionalProperties: false,
      },
    },
    deliverby: { type: "string", format: "date-time" },
    note: { anyOf: [{ type: "string", maxLength: 20 }, { type: "null" }] },
    tags: { type: "array", items: { type: "string" }, uniqueItems: true },
  },
  required: ["customer", "items"],
  additionalProperties: false,
};

// Pydantic-style draft-07 schema: an optional model behind a $ref inside anyOf.
const shipto = {
  $schema: "http://json-schema.org/draft-07/schema#",
  definitions: {
    Address: {
      type: "object",
      properties: { city: { type: "string" }, zip: { type: "string", pattern: "^[0-9]{5}$" } },
      required: ["city"],
    },
  },
  type: "object",
  properties: { address: { anyOf: [{ $ref: "#/definitions/Address" }, { type: "null" }] } },
  required: ["address"],
};

const tools = { getloan, listopenloans, createorder, shipto };
const registry = registryFrom(Object.entries(tools).map(([name, parameters]) => ({ name, version: "v1", parameters })));

function classify(tool: string, args: unknown): Verdict {
  return classifyCall({ tool, arguments: args, registry });
}

const validOrder = { customer: { id: "c1" }, items: [{ sku: "ABC-1", qty: 2 }] };

function only(verdict: Verdict, category: Category, path: string) {
  expect(verdict.valid).toBe(false);
  expect(verdict.category).toBe(category);
  expect(verdict.violations.map((v) => [v.category, v.path])).toEqual([[category, path]]);
  return verdict.message!;
}

describe("classifyCall: valid calls", () => {
  it("accepts valid objects and JSON strings of objects", () => {
    expect(classify("getloan", { loannumber: "4471", includehistory: true })).toEqual({ valid: true, violations: [] });
    expect(classify("getloan", '{"loannumber": "4471"}')).toEqual({ valid: true, violations: [] });
    expect(classify("createorder", { ...validOrder, note: null, tags: ["a", "b"], deliverby: "2026-10-02T09:30:00Z" }).valid).toBe(true);
    expect(classify("shipto", { address: { city: "Oslo", zip: "01234" } }).valid).toBe(true);
    expect(classify("shipto", { address: null }).valid).toBe(true);
  });

  it("classifies the parsed object when the arguments are a JSON string", () => {
    const message = only(classify("getloan", '{"loannumber": 4471}'), "wrong_type", "loannumber");
    expect(message).toBe(`Error: 'loannumber' must be a string, you sent the number 4471. Send it as "4471".`);
  });
});

describe("classifyCall: malformed_arguments and unknown_tool", () => {
  it("refuses arguments that are not a JSON object", () => {
    expect(only(classify("getloan", "loannumber=4471"), "malformed_arguments", "")).toBe(
      `Error: the arguments must be a JSON object, you sent text that is not valid JSON: loannumber=4471. Send the arguments as a JSON object such as {"loannumber": "4471"}.`,
    );
    for (const args of [[1, 2], 4471, null, "[1, 2]", "", undefined, '"4471"']) {
      const verdict = classify("getloan", args);
      expect(verdict.category).toBe("malformed_arguments");
      expect(verdict.path).toBeUndefined();
    }
    expect(classify("getloan", [1, 2]).message).toContain("you sent the array [1,2]");
    expect(classify("getloan", "[1, 2]").message).toContain("you sent the array [1,2]");
    expect(classify("getloan", null).message).toContain("you sent null");
  });

  it("truncates long echoed values", () => {
    const message = classify("getloan", "x".repeat(500)).message!;
    expect(message).toContain(`${"x".repeat(59)}…`);
    expect(message.length).toBeLessThan(220);
  });

  it("names the available tools, closest first, and suggests a close one", () => {
    const message = only(classify("getloans", { loannumber: "4471" }), "unknown_tool", "");
    expect(message).toBe("Error: no tool named 'getloans'. Available tools: getloan, listopenloans, createorder, shipto. Did you mean 'getloan'?");
    expect(classify("list_open_loans", {}).message).toMatch(/Available tools: listopenloans, .*Did you mean 'listopenloans'\?$/);
    expect(classify("transfer_money", {}).message).toMatch(/Call one of these instead\.$/);
    const empty = classifyCall({ tool: "getloan", arguments: {}, registry: registryFrom([]) });
    expect(empty.message).toContain("No tools are registered");
  });

  it("with a big tool list: the obvious guess inside template debris, closest names first, a short list", () => {
    // 1,364 tools as a real project had them, in no useful order; the model wrote a leaked chat-template token after `ls`
    const names = [...Array.from({ length: 1360 }, (_, i) => `tool_${(i * 7919) % 1360}_action`), "cancel_order", "comment", "ls", "lsof"];
    const registry = registryFrom(names.map((name) => ({ name, version: "1", parameters: { type: "object" } })));
    const message = classifyCall({ tool: "ls<|channel|>commentary", arguments: {}, registry }).message!;
    expect(message).toMatch(/^Error: no tool named 'ls<\|channel\|>commentary'\. The closest of the 1364 tools: ls, /);
    expect(message).toMatch(/and 1354 more\. Did you mean 'ls'\?$/);
    expect(message.length).toBeLessThan(400);
    const typo = classifyCall({ tool: "cancel-ordr", arguments: {}, registry }).message!;
    expect(typo).toMatch(/tools: cancel_order, .*Did you mean 'cancel_order'\?$/);
  });

  it("leaves out the safe-integer bounds zod's .int() writes into a schema", () => {
    const schema = { type: "object", properties: { stars: { type: "integer", minimum: -9007199254740991, maximum: 5 } } };
    const registry = registryFrom([{ name: "rate", version: "1", parameters: schema }]);
    expect(classifyCall({ tool: "rate", arguments: { stars: 9 }, registry }).message).toBe("Error: 'stars' must be at most 5, you sent 9.");
  });

  it("likelyTool: one rule for the classifier and the dashboard", () => {
    const tools = ["getloan", "listopenloans", "schedulecallback", "createticket", "ls", "get_weather"];
    expect(likelyTool("functions.get_weather", tools)).toBe("get_weather");
    expect(likelyTool("getloan<|call|>", tools)).toBe("getloan");
    expect(likelyTool("ls<|channel|>commentary", tools)).toBe("ls");
    expect(likelyTool("get-Loan", tools)).toBe("getloan");
    expect(likelyTool("schedulecall", tools)).toBe("schedulecallback");
    expect(likelyTool("transfer_funds", tools)).toBeUndefined();
    expect(likelyTool("tools", tools)).toBeUndefined(); // "ls" inside a word is no guess
    expect(rankToolNames("createtickets", tools)[0]).toBe("createticket");
    expect(rankToolNames("lsx<|end|>", tools)[0]).toBe("ls");
  });

  it("reports malformed arguments first when the tool is unknown too", () => {
    const verdict = classify("getloans", "not json");
    expect(verdict.category).toBe("malformed_arguments");
    expect(verdict.violations.map((v) => v.category)).toEqual(["malformed_arguments", "unknown_tool"]);
  });
});

describe("classifyCall: flat arguments", () => {
  it("extra_argument", () => {
    expect(only(classify("getloan", { loannumber: "4471", customername: "Ada" }), "extra_argument", "customername")).toBe(
      "Error: 'customername' is not an argument of getloan. Allowed: loannumber, includehistory. Remove 'customername'.",
    );
    // A likely typo gets a rename instead of a removal.
    expect(classify("getloan", { loan_number: "4471" }).violations.map((v) => v.message)).toContain(
      "Error: 'loan_number' is not an argument of getloan. Allowed: loannumber, includehistory. Rename 'loan_number' to 'loannumber'.",
    );
  });

  it("missing_argument", () => {
    expect(only(classify("getloan", { includehistory: true }), "missing_argument", "loannumber")).toBe(
      "Error: 'loannumber' is required by getloan and was not sent. Add 'loannumber' (string, 4 to 8 characters, matching ^[0-9]+$).",
    );
  });

  it("wrong_type", () => {
    expect(only(classify("getloan", { loannumber: "4471", includehistory: "true" }), "wrong_type", "includehistory")).toBe(
      `Error: 'includehistory' must be a boolean (true or false), you sent the string "true". Send it as true.`,
    );
  });

  it("invalid_choice", () => {
    expect(only(classify("listopenloans", { status: "pending" }), "invalid_choice", "status")).toBe(
      `Error: 'status' must be one of open, closed, overdue; you sent "pending".`,
    );
    expect(classify("listopenloans", { status: "Open" }).message).toBe(
      `Error: 'status' must be one of open, closed, overdue; you sent "Open". Did you mean "open"?`,
    );
  });

  it("out_of_range: length and pattern", () => {
    expect(only(classify("getloan", { loannumber: "447" }), "out_of_range", "loannumber")).toBe("Error: 'loannumber' must be 4 to 8 characters, you sent 3.");
    expect(only(classify("getloan", { loannumber: "44a1" }), "out_of_range", "loannumber")).toBe(
      `Error: 'loannumber' must match the pattern ^[0-9]+$, you sent "44a1".`,
    );
  });

  it("out_of_range: format and uniqueness", () => {
    expect(only(classify("createorder", { ...validOrder, deliverby: "tomorrow" }), "out_of_range", "deliverby")).toBe(
      `Error: 'deliverby' must be a date-time (format), you sent "tomorrow". Send it like "2026-10-02T09:30:00Z".`,
    );
    expect(only(classify("createorder", { ...validOrder, tags: ["a", "b", "a"] }), "out_of_range", "tags")).toBe(
      `Error: 'tags' must not contain duplicates, you sent "a" as items 0 and 2. Remove the repeated item.`,
    );
  });
});

describe("classifyCall: nested objects and arrays", () => {
  it("extra_argument in a nested object and in an array item", () => {
    expect(only(classify("createorder", { ...validOrder, customer: { id: "c1", nickname: "Ada" } }), "extra_argument", "customer.nickname")).toBe(
      "Error: 'customer.nickname' is not an argument of createorder. Allowed in 'customer': id, tier, email. Remove 'customer.nickname'.",
    );
    const items = [{ sku: "ABC-1", qty: 1, colour: "red" }];
    expect(only(classify("createorder", { ...validOrder, items }), "extra_argument", "items[0].colour")).toContain("Remove 'items[0].colour'.");
  });

  it("missing_argument in a nested object and in an array item", () => {
    expect(only(classify("createorder", { ...validOrder, customer: {} }), "missing_argument", "customer.id")).toBe(
      "Error: 'customer.id' is required by createorder and was not sent. Add 'customer.id' (string).",
    );
    const items = [{ sku: "ABC-1", qty: 1 }, { sku: "ABC-2" }];
    expect(only(classify("createorder", { ...validOrder, items }), "missing_argument", "items[1].qty")).toBe(
      "Error: 'items[1].qty' is required by createorder and was not sent. Add 'items[1].qty' (integer, between 1 and 100).",
    );
  });

  it("wrong_type in an array item and for a whole nested object", () => {
    const items = [
      { sku: "ABC-1", qty: 1 },
      { sku: "ABC-2", qty: 1 },
      { sku: "ABC-3", qty: "3" },
    ];
    expect(only(classify("createorder", { ...validOrder, items }), "wrong_type", "items[2].qty")).toBe(
      `Error: 'items[2].qty' must be a whole number, you sent the string "3". Send it as 3.`,
    );
    expect(only(classify("createorder", { ...validOrder, customer: '{"id": "c1"}' }), "wrong_type", "customer")).toBe(
      `Error: 'customer' must be an object, you sent the string "{\\"id\\": \\"c1\\"}". Send the value itself, not a string containing JSON.`,
    );
    expect(classify("createorder", { ...validOrder, items: { sku: "ABC-1", qty: 1 } }).message).toBe(
      "Error: 'items' must be an array, you sent an object with keys sku, qty. Send an array instead.",
    );
  });

  it("invalid_choice in a nested object", () => {
    expect(only(classify("createorder", { ...validOrder, customer: { id: "c1", tier: "platinum" } }), "invalid_choice", "customer.tier")).toBe(
      `Error: 'customer.tier' must be one of basic, gold; you sent "platinum".`,
    );
  });

  it("out_of_range in array items, array length and nested formats", () => {
    expect(only(classify("createorder", { ...validOrder, items: [{ sku: "ABC-1", qty: 0 }] }), "out_of_range", "items[0].qty")).toBe(
      "Error: 'items[0].qty' must be between 1 and 100, you sent 0.",
    );
    expect(only(classify("createorder", { ...validOrder, items: [] }), "out_of_range", "items")).toBe("Error: 'items' must have 1 to 5 items, you sent 0.");
    expect(only(classify("createorder", { ...validOrder, customer: { id: "c1", email: "ada" } }), "out_of_range", "customer.email")).toBe(
      `Error: 'customer.email' must be an email (format), you sent "ada". Send it like "name@example.com".`,
    );
  });
});

describe("classifyCall: unions (anyOf / oneOf)", () => {
  it("merges branches that differ only by type", () => {
    expect(only(classify("createorder", { ...validOrder, note: 5 }), "wrong_type", "note")).toBe(
      "Error: 'note' must be a string or null, you sent the number 5. Send it as \"5\".",
    );
  });

  it("explains the branch whose type matched, not the alternatives", () => {
    expect(only(classify("createorder", { ...validOrder, note: "x".repeat(25) }), "out_of_range", "note")).toBe(
      "Error: 'note' must be at most 20 characters, you sent 25.",
    );
  });

  it("follows $ref branches (draft-07, Pydantic style)", () => {
    const verdict = classify("shipto", { address: { zip: "1" } });
    expect(verdict.violations.map((v) => [v.category, v.path])).toEqual([
      ["missing_argument", "address.city"],
      ["out_of_range", "address.zip"],
    ]);
    expect(verdict.category).toBe("missing_argument");
    expect(only(classify("shipto", { address: 5 }), "wrong_type", "address")).toContain("must be an object or null");
  });

  it("reports a oneOf matched by several branches as one problem", () => {
    const amount = { type: "object", properties: { n: { oneOf: [{ type: "number" }, { type: "integer" }] } } };
    const verdict = classifyCall({ tool: "amount", arguments: { n: 3 }, registry: registryFrom([{ name: "amount", version: "1", parameters: amount }]) });
    expect(only(verdict, "wrong_type", "n")).toContain("matches more than one of the allowed forms (oneOf), you sent 3");
  });
});

describe("classifyCall: primary category", () => {
  it("is the first in category order, not in Ajv's report order", () => {
    // Ajv reports the missing loannumber before the extra customername.
    const verdict = classify("getloan", { customername: "Ada" });
    expect(verdict.violations.map((v) => v.category)).toEqual(["missing_argument", "extra_argument"]);
    expect(verdict.category).toBe("extra_argument");
    expect(verdict.path).toBe("customername");
    expect(verdict.message).toContain("Remove 'customername'");
  });

  it("ranks every category found in one call", () => {
    const verdict = classify("createorder", {
      customer: { id: 7, tier: "platinum", email: "ada" },
      items: [{ sku: "abc", qty: 1, colour: "red" }],
    });
    expect(new Set(verdict.violations.map((v) => v.category))).toEqual(new Set(["extra_argument", "wrong_type", "invalid_choice", "out_of_range"]));
    expect(verdict.category).toBe("extra_argument");
    expect(classify("createorder", { customer: { id: 7, tier: "platinum" }, items: [] }).category).toBe("wrong_type");
  });

  it("breaks ties by report order (properties in stored order: shorter names first)", () => {
    const verdict = classify("createorder", { ...validOrder, items: [{ sku: "abc", qty: 0 }] });
    expect(verdict.violations.map((v) => v.path)).toEqual(["items[0].qty", "items[0].sku"]);
    expect(verdict.path).toBe("items[0].qty");
  });

  it("does not depend on the order of the schema's keys (as written by a harness, or as PostgreSQL's jsonb stores it)", () => {
    const written = {
      type: "object",
      properties: { zeta: { type: "integer" }, id: { type: "integer" }, beta: { type: "integer" } },
      additionalProperties: false,
    };
    const reordered = {
      additionalProperties: false,
      properties: { beta: { type: "integer" }, id: { type: "integer" }, zeta: { type: "integer" } },
      type: "object",
    };
    const call = { zeta: "1", beta: "2", extra: 3 };
    const [a, b] = [written, reordered].map((parameters, i) =>
      classifyCall({ tool: "t", arguments: call, registry: registryFrom([{ name: "t", version: `order-${i}`, parameters }]) }),
    );
    expect(a).toEqual(b);
    expect(a!.violations.map((v) => v.message)).toContain("Error: 'extra' is not an argument of t. Allowed: id, beta, zeta. Remove 'extra'.");
  });
});

describe("classifyCall: schemas and safety", () => {
  it("validates draft-07 and 2020-12 schemas, whatever the spelling of $schema", () => {
    const base = { type: "object", properties: { a: { type: "integer" } }, additionalProperties: false };
    for (const $schema of [
      "http://json-schema.org/draft-07/schema#",
      "https://json-schema.org/draft-07/schema",
      "https://json-schema.org/draft/2020-12/schema",
      undefined,
    ]) {
      const parameters = $schema ? { $schema, ...base } : base;
      const reg = registryFrom([{ name: "t", version: "v1", parameters }]);
      expect(classifyCall({ tool: "t", arguments: { a: 1 }, registry: reg }).valid).toBe(true);
      expect(classifyCall({ tool: "t", arguments: { a: "x" }, registry: reg }).category).toBe("wrong_type");
    }
    // 2020-12 only: prefixItems and unevaluatedProperties.
    const pair = {
      type: "object",
      properties: { p: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false } },
      allOf: [{ properties: { q: { type: "string" } } }],
      unevaluatedProperties: false,
    };
    const reg = registryFrom([{ name: "pair", version: "v1", parameters: pair }]);
    expect(classifyCall({ tool: "pair", arguments: { p: ["a", 1], q: "x" }, registry: reg }).valid).toBe(true);
    const verdict = classifyCall({ tool: "pair", arguments: { p: ["a", 1, 2], r: 1 }, registry: reg });
    expect(verdict.violations.map((v) => [v.category, v.path])).toEqual([
      ["out_of_range", "p"],
      ["extra_argument", "r"],
    ]);
  });

  it("caches one compiled validator per name@version, evicting the oldest", () => {
    const first = validatorFor("cached", "v1", getloan);
    expect(validatorFor("cached", "v1", getloan)).toBe(first);
    expect(validatorFor("cached", "v2", getloan)).not.toBe(first);
    for (let i = 0; i < VALIDATOR_CACHE_LIMIT; i++) validatorFor(`filler${i}`, "v1", { type: "object" });
    expect(validatorFor("cached", "v1", getloan)).not.toBe(first);
  });

  it("also bounds the cache by the total size of the cached schemas", () => {
    const big = (i: number) => ({ type: "object", description: `${i} ${"x".repeat(60_000)}` });
    const first = validatorFor("big0", "v1", big(0));
    const fill = Math.ceil(VALIDATOR_CACHE_SCHEMA_BYTES / 60_000);
    for (let i = 1; i < fill / 2; i++) validatorFor(`big${i}`, "v1", big(i));
    expect(validatorFor("big0", "v1", big(0))).toBe(first); // within the budget, and now the most recently used
    for (let i = 1; i <= fill; i++) validatorFor(`bigger${i}`, "v1", big(i));
    expect(validatorFor("big0", "v1", big(0))).not.toBe(first);
  });

  it("does not let __proto__ or constructor keys pollute Object.prototype", () => {
    const loose = registryFrom([{ name: "loose", version: "1", parameters: { type: "object", properties: { a: { type: "object" } } } }]);
    for (const json of ['{"__proto__": {"polluted": 1}}', '{"constructor": {"prototype": {"polluted": 1}}}', '{"a": {"__proto__": {"polluted": 1}}}']) {
      expect(classifyCall({ tool: "loose", arguments: JSON.parse(json), registry: loose }).valid).toBe(true);
      expect(classifyCall({ tool: "loose", arguments: json, registry: loose }).valid).toBe(true);
    }
    const verdict = classify("getloan", JSON.parse('{"__proto__": {"polluted": 1}, "loannumber": "4471"}'));
    expect(only(verdict, "extra_argument", "__proto__")).toContain("Remove '__proto__'");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("never yields not_allowed: that verdict comes only from the harness's policies", () => {
    const badCalls: [string, unknown][] = [
      ["getloan", "nope"],
      ["getloans", {}],
      ["getloan", { customername: "Ada", loannumber: 4471 }],
      ["listopenloans", { status: "pending" }],
      ["getloan", { loannumber: "1" }],
      ["createorder", { customer: { id: 7, tier: "x", email: "y", z: 1 }, items: [{ sku: "a", qty: "1" }, {}], note: 1, tags: [1, 1] }],
      ["shipto", { address: { zip: 1 } }],
    ];
    const found = new Set<Category>();
    for (const [tool, args] of badCalls) {
      const verdict = classify(tool, args);
      expect(verdict.valid).toBe(false);
      for (const violation of verdict.violations) {
        found.add(violation.category);
        expect(violation.message).toMatch(/^Error: .*[.?]$/);
      }
    }
    expect([...found].sort()).toEqual(CATEGORIES.filter((c) => c !== "not_allowed").sort());
  });
});

describe("classifyCall: patterns in linear time, own properties", () => {
  const redos = { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } }, required: ["code"] };
  const registry = registryFrom([{ name: "redos", version: "1", parameters: redos }]);

  it("matches ^(a+)+$ against long inputs without backtracking (a RegExp would take hours on these)", () => {
    for (const code of ["a".repeat(40) + "!", "a".repeat(10_000) + "!"]) {
      const verdict = classifyCall({ tool: "redos", arguments: { code }, registry });
      expect(verdict).toMatchObject({ valid: false, category: "out_of_range", path: "code" });
      expect(verdict.message).toMatch(/^Error: 'code' must match the pattern \^\(a\+\)\+\$, you sent "a{20,}/);
    }
    expect(classifyCall({ tool: "redos", arguments: { code: "a".repeat(10_000) }, registry }).valid).toBe(true);
  });

  it("patternProperties go through RE2 too", () => {
    const keyed = registryFrom([{ name: "keyed", version: "1", parameters: { type: "object", patternProperties: { "^(x+)+$": { type: "number" } } } }]);
    expect(classifyCall({ tool: "keyed", arguments: { ["x".repeat(5_000)]: "no" }, registry: keyed })).toMatchObject({ valid: false, category: "wrong_type" });
    expect(classifyCall({ tool: "keyed", arguments: { ["x".repeat(5_000) + "!"]: "no" }, registry: keyed }).valid).toBe(true);
  });

  it("does not count inherited members as present: required toString is missing from {}", () => {
    const inherited = registryFrom([{ name: "inherited", version: "1", parameters: { type: "object", required: ["toString", "constructor"] } }]);
    const verdict = classifyCall({ tool: "inherited", arguments: {}, registry: inherited });
    expect(verdict.violations.map((v) => [v.category, v.path])).toEqual([
      ["missing_argument", "toString"],
      ["missing_argument", "constructor"],
    ]);
  });

  it("a stored schema RE2 or the limits refuse (registered before they existed) is a ToolSchemaError, every time", () => {
    for (const parameters of [
      { type: "object", properties: { a: { type: "string", pattern: "(a)\\1" } } },
      { type: "object", properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}`, { type: "string" }])) },
    ]) {
      const stored = registryFrom([{ name: "old", version: JSON.stringify(parameters).length.toString(), parameters }]);
      for (let i = 0; i < 2; i++) expect(() => classifyCall({ tool: "old", arguments: { a: "aa" }, registry: stored })).toThrow(ToolSchemaError);
    }
  });
});

describe("classifyCall: deep arguments", () => {
  it("describes a value nested 100,000 levels deep without overflowing the stack", () => {
    const registry = registryFrom([{ name: "deepargs", version: "1", parameters: { type: "object", properties: { a: { type: "string" } } } }]);
    const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000));
    const verdict = classifyCall({ tool: "deepargs", arguments: { a: deep }, registry });
    expect(verdict).toMatchObject({ valid: false, category: "wrong_type", path: "a" });
    expect(verdict.message).toMatch(/^Error: 'a' must be a string, you sent the array \[\[\[… \(an array nested too deeply to show\)/);
  });
});

describe("closeMatch", () => {
  it("takes a candidate up to a third of the sent name's length away (at least one edit), case aside", () => {
    // "getloan" has 7 characters: two edits are a typo, three are another word
    expect(closeMatch("gtloa", ["getloan"])).toBeUndefined();
    expect(closeMatch("getlxyn", ["getloan"])).toBe("getloan");
    expect(closeMatch("getxyzn", ["getloan"])).toBeUndefined();
    // short names still allow one edit
    expect(closeMatch("sm", ["sms"])).toBe("sms");
    expect(closeMatch("SMS", ["sms", "email"])).toBe("sms");
  });

  it("never calls a name a typo of one it shares no letter with", () => {
    // one edit, but as long as the shorter name: a different word
    expect(closeMatch("a", ["b"])).toBeUndefined();
    expect(closeMatch("ab", ["abc"])).toBe("abc");
  });

  it("picks the closest candidate, the first of equals", () => {
    expect(closeMatch("emal", ["mail", "sms", "email"])).toBe("email");
    expect(closeMatch("mai", ["mail", "maid"])).toBe("mail");
    expect(closeMatch("x", [])).toBeUndefined();
  });
});

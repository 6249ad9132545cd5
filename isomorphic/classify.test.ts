import { describe, expect, it } from "vitest";
import { CATEGORIES, type Category } from "@/contracts/categories";
import { closeMatch, likelyTool, rankToolNames } from "./tool-names";
import { classifyCall, registryFrom, ToolSchemaError, type Verdict } from "./classify";
import { validatorFor, VALIDATOR_CACHE_LIMIT, VALIDATOR_CACHE_SCHEMA_BYTES } from "./compiled-tools";

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

/** A call of tool "t" with `parameters` as its only schema; the version names the schema in the validator cache, as a content hash would. */
function one(parameters: object, args: unknown): Verdict {
  return classifyCall({ tool: "t", arguments: args, registry: registryFrom([{ name: "t", version: JSON.stringify(parameters), parameters }]) });
}
const object = (properties: object, more: object = {}) => ({ type: "object", properties, ...more });

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
    const second = validatorFor("cached", "v2", getloan);
    expect(second).not.toBe(first);
    // a hit makes v1 the most recently used, so v2 goes before it
    expect(validatorFor("cached", "v1", getloan)).toBe(first);
    for (let i = 0; i < VALIDATOR_CACHE_LIMIT - 1; i++) validatorFor(`filler${i}`, "v1", { type: "object" });
    // v1 and the fillers are the VALIDATOR_CACHE_LIMIT most recently used
    expect(validatorFor("cached", "v1", getloan)).toBe(first);
    expect(validatorFor("cached", "v2", getloan)).not.toBe(second);
  });

  it("also bounds the cache by the total size of the cached schemas", () => {
    const big = (i: number) => ({ type: "object", description: `${i} ${"x".repeat(60_000)}` });
    const first = validatorFor("big0", "v1", big(0));
    const fill = Math.ceil(VALIDATOR_CACHE_SCHEMA_BYTES / 60_000);
    for (let i = 1; i < fill / 2; i++) validatorFor(`big${i}`, "v1", big(i));
    expect(validatorFor("big0", "v1", big(0))).toBe(first); // within the budget, and now the most recently used
    const bigger = Array.from({ length: fill }, (_, i) => validatorFor(`bigger${i}`, "v1", big(i)));
    // evicting gives the bytes back: the newest ones stay
    expect(validatorFor(`bigger${fill - 2}`, "v1", big(fill - 2))).toBe(bigger[fill - 2]);
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
      // the error says which limit, in registration's own words
      expect(() => classifyCall({ tool: "old", arguments: { a: "aa" }, registry: stored })).toThrow(
        /^the schema of old@\d+ cannot be used: Error: (the pattern|parameters holds more than 500 schemas)/,
      );
    }
  });
});

describe("classifyCall: schemas Ajv reads through an equivalent one", () => {
  it("multipleOf divides the two doubles, as Ajv does (both SDKs agree on it: the shared vectors)", () => {
    const parameters = { type: "object", properties: { n: { type: "number", multipleOf: 3 } } };
    const registry = registryFrom([{ name: "thirds", version: "1", parameters }]);
    const valid = (n: number) => classifyCall({ tool: "thirds", arguments: { n }, registry }).valid;
    expect(valid(12)).toBe(true);
    expect(valid(4.5)).toBe(false);
    // 10^21 leaves 1 over 3, but the quotient of the doubles is a whole double (3.333…e20)
    expect(valid(1e21)).toBe(true);
    // and a quotient of 1e21 or more is no multiple (JavaScript writes it 1e+21): a limit in docs/limits.md
    expect(valid(3e21)).toBe(false);
  });

  it("draft-04's exclusive bounds are flags, and the message says so", () => {
    const parameters = {
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: { rate: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1 } },
    };
    const registry = registryFrom([{ name: "rate", version: "1", parameters }]);
    expect(classifyCall({ tool: "rate", arguments: { rate: 0.5 }, registry }).valid).toBe(true);
    expect(classifyCall({ tool: "rate", arguments: { rate: 0 }, registry })).toMatchObject({
      valid: false,
      category: "out_of_range",
      message: "Error: 'rate' must be greater than 0 and at most 1, you sent 0.",
    });
  });

  it("draft-04 and draft-06 ignore the keywords later drafts added (if/then/else; const, contains, propertyNames in draft-04)", () => {
    const later = { if: { type: "string" }, then: { minLength: 5 }, const: "x", contains: { type: "number" }, propertyNames: { maxLength: 1 } };
    const check = ($schema: string, value: unknown) => {
      const registry = registryFrom([{ name: "later", version: $schema, parameters: { $schema, type: "object", properties: { a: later } } }]);
      return classifyCall({ tool: "later", arguments: { a: value }, registry }).valid;
    };
    expect(check("http://json-schema.org/draft-04/schema#", "ab")).toBe(true);
    expect(check("http://json-schema.org/draft-04/schema#", { long: 1 })).toBe(true);
    expect(check("http://json-schema.org/draft-06/schema#", "ab")).toBe(false); // const "x" applies from draft-06
    expect(check("http://json-schema.org/draft-06/schema#", "x")).toBe(true); // and if/then does not: "x" is shorter than 5
    expect(check("http://json-schema.org/draft-07/schema#", "x")).toBe(false); // draft-07 applies then
  });

  it("an if beside unevaluatedProperties: the argument only a failing if looked at is extra, and the messages are the plain keywords'", () => {
    const parameters = {
      type: "object",
      properties: { kind: { enum: ["loan", "card"] } },
      if: { properties: { kind: { const: "loan" }, loannumber: { type: "string" } }, required: ["kind"] },
      then: { required: ["loannumber"] },
      unevaluatedProperties: false,
    };
    const registry = registryFrom([{ name: "lookup", version: "1", parameters }]);
    const check = (args: object) => classifyCall({ tool: "lookup", arguments: args, registry });
    expect(check({ kind: "loan", loannumber: "447" }).valid).toBe(true);
    expect(check({ kind: "loan" })).toMatchObject({ valid: false, category: "missing_argument", path: "loannumber" });
    // the if fails (kind is card), so what it evaluated (loannumber) is not evaluated: Ajv counted it
    expect(check({ kind: "card", loannumber: "447" })).toMatchObject({ valid: false, category: "extra_argument", path: "loannumber" });
  });

  it("a $ref beside an $id resolves against that $id", () => {
    const parameters = {
      $id: "https://example.com/lookup.json",
      type: "object",
      properties: { loan: { $id: "loan.json", $defs: { number: { type: "object", properties: { id: { type: "string" } } } }, $ref: "#/$defs/number" } },
    };
    const registry = registryFrom([{ name: "nested-id", version: "1", parameters }]);
    expect(classifyCall({ tool: "nested-id", arguments: { loan: { id: "447" } }, registry }).valid).toBe(true);
    expect(classifyCall({ tool: "nested-id", arguments: { loan: { id: 447 } }, registry })).toMatchObject({
      valid: false,
      category: "wrong_type",
      path: "loan.id",
    });
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
    expect(closeMatch("a", ["ab"])).toBeUndefined();
    expect(closeMatch("ab", ["a"])).toBeUndefined();
    expect(closeMatch("ab", ["abc"])).toBe("abc");
  });

  it("picks the closest candidate, the first of equals", () => {
    expect(closeMatch("emal", ["mail", "sms", "email"])).toBe("email");
    expect(closeMatch("mai", ["mail", "maid"])).toBe("mail");
    expect(closeMatch("x", [])).toBeUndefined();
  });
});

describe("classifyCall: the wording of every other keyword", () => {
  it("exclusive bounds, one-sided bounds and multiples", () => {
    const ratio = object({ r: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 } });
    expect(only(one(ratio, { r: 1 }), "out_of_range", "r")).toBe("Error: 'r' must be greater than 0 and less than 1, you sent 1.");
    expect(one(ratio, { r: 0 }).message).toBe("Error: 'r' must be greater than 0 and less than 1, you sent 0.");
    expect(one(object({ n: { type: "number", minimum: 2 } }), { n: 1 }).message).toBe("Error: 'n' must be at least 2, you sent 1.");
    expect(one(object({ n: { type: "number", exclusiveMaximum: 9 } }), { n: 9 }).message).toBe("Error: 'n' must be less than 9, you sent 9.");
    expect(only(one(object({ n: { type: "number", multipleOf: 5 } }), { n: 7 }), "out_of_range", "n")).toBe("Error: 'n' must be a multiple of 5, you sent 7.");
  });

  it("a bound at the safe-integer limit is zod's, one inside it is the schema's", () => {
    const stars = (maximum: number) => object({ s: { type: "integer", minimum: 1, maximum } });
    expect(one(stars(Number.MAX_SAFE_INTEGER), { s: 0 }).message).toBe("Error: 's' must be at least 1, you sent 0.");
    expect(one(stars(Number.MAX_SAFE_INTEGER - 1), { s: 0 }).message).toBe(`Error: 's' must be between 1 and ${Number.MAX_SAFE_INTEGER - 1}, you sent 0.`);
  });

  it("counts: exactly, at least, at most, one or many", () => {
    const code = object({ c: { type: "string", minLength: 5, maxLength: 5 } });
    expect(one(code, { c: "abc" }).message).toBe("Error: 'c' must be exactly 5 characters, you sent 3.");
    expect(one(object({ c: { type: "string", minLength: 1 } }), { c: "" }).message).toBe("Error: 'c' must be at least 1 character, you sent 0.");
    // characters are code points: an emoji is one
    expect(one(object({ c: { type: "string", maxLength: 1 } }), { c: "😀😀" }).message).toBe("Error: 'c' must be at most 1 character, you sent 2.");
    expect(one(object({ l: { type: "array", minItems: 1, maxItems: 1 } }), { l: [] }).message).toBe("Error: 'l' must have exactly 1 item, you sent 0.");
    expect(one(object({ l: { type: "array", minItems: 1, maxItems: 2 } }), { l: [1, 2, 3] }).message).toBe("Error: 'l' must have 1 to 2 items, you sent 3.");
    expect(one(object({ o: { type: "object", minProperties: 2 } }), { o: { a: 1 } }).message).toBe("Error: 'o' must have at least 2 properties, you sent 1.");
    expect(one(object({ o: { type: "object", maxProperties: 1 } }), { o: { a: 1, b: 2 } }).message).toBe(
      "Error: 'o' must have at most 1 property, you sent 2.",
    );
    const pair = object({ p: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false } });
    expect(only(one(pair, { p: [1, 2, 3] }), "out_of_range", "p")).toBe("Error: 'p' must have at most 2 items, you sent 3.");
  });

  it("a long list of choices is cut after twenty", () => {
    const choices = Array.from({ length: 23 }, (_, i) => `c${i}`);
    const message = one(object({ c: { enum: [...choices, 7] } }), { c: "zz" }).message!;
    expect(message).toBe(`Error: 'c' must be one of ${choices.slice(0, 20).join(", ")} and 4 more; you sent "zz".`);
    expect(one(object({ c: { enum: ["a", 7, null] } }), { c: "b" }).message).toBe(`Error: 'c' must be one of a, 7, null; you sent "b".`);
    // exactly twenty are all shown, with nothing after them
    const twenty = choices.slice(0, 20);
    expect(one(object({ c: { enum: twenty } }), { c: "zz" }).message).toBe(`Error: 'c' must be one of ${twenty.join(", ")}; you sent "zz".`);
  });

  it("const, not, and a keyword without its own sentence", () => {
    expect(only(one(object({ k: { const: "v1" } }), { k: "v2" }), "invalid_choice", "k")).toBe(`Error: 'k' must be exactly "v1"; you sent "v2".`);
    expect(only(one(object({ k: { not: { type: "string" } } }), { k: "s" }), "wrong_type", "k")).toBe(
      `Error: 'k' must not match {"type":"string"}, you sent "s". Send a different value.`,
    );
    expect(only(one(object({ l: { type: "array", contains: { type: "number" } } }), { l: ["a"] }), "out_of_range", "l")).toBe(
      `Error: 'l' must contain at least 1 valid item(s), you sent ["a"]. Change it to match the schema of t.`,
    );
  });

  it("formats: the article and the example", () => {
    expect(one(object({ d: { type: "string", format: "date" } }), { d: "x" }).message).toBe(
      `Error: 'd' must be a date (format), you sent "x". Send it like "2026-10-02".`,
    );
    expect(one(object({ a: { type: "string", format: "ipv4" } }), { a: "x" }).message).toBe(
      `Error: 'a' must be an ipv4 (format), you sent "x". Send it like "192.0.2.1".`,
    );
    expect(one(object({ h: { type: "string", format: "hostname" } }), { h: "-" }).message).toBe(`Error: 'h' must be a hostname (format), you sent "-".`);
  });

  it("type fixes: whole numbers, arrays, numbers in strings", () => {
    const n = object({ n: { type: "integer" } });
    expect(one(n, { n: 2.7 }).message).toBe("Error: 'n' must be a whole number, you sent the number 2.7. Send a whole number such as 3.");
    expect(one(n, { n: "2.5" }).message).toBe(`Error: 'n' must be a whole number, you sent the string "2.5". Send a whole number instead.`);
    expect(one(n, { n: " " }).message).toBe(`Error: 'n' must be a whole number, you sent the string " ". Send a whole number instead.`);
    expect(one(object({ n: { type: "number" } }), { n: "2.5" }).message).toBe(`Error: 'n' must be a number, you sent the string "2.5". Send it as 2.5.`);
    for (const text of ["true", "false"]) {
      expect(one(object({ b: { type: "boolean" } }), { b: text }).message).toBe(
        `Error: 'b' must be a boolean (true or false), you sent the string "${text}". Send it as ${text}.`,
      );
    }
    const list = object({ l: { type: "array" } });
    expect(one(list, { l: "x" }).message).toBe(`Error: 'l' must be an array, you sent the string "x". Send it as an array, such as ["x"].`);
    expect(one(list, { l: null }).message).toBe("Error: 'l' must be an array, you sent null. Send it as an array, such as [null].");
    expect(one(list, { l: "[1]" }).message).toBe(
      `Error: 'l' must be an array, you sent the string "[1]". Send the value itself, not a string containing JSON.`,
    );
    // JSON of the other kind is no fix
    expect(one(list, { l: '{"a":1}' }).message).toBe(
      `Error: 'l' must be an array, you sent the string "{\\"a\\":1}". Send it as an array, such as ["{\\"a\\":1}"].`,
    );
    expect(one(object({ b: { type: "boolean" } }), { b: "yes" }).message).toBe(
      `Error: 'b' must be a boolean (true or false), you sent the string "yes". Send a boolean (true or false) instead.`,
    );
    expect(one(object({ s: { type: "string" } }), { s: false }).message).toBe(`Error: 's' must be a string, you sent the boolean false. Send it as "false".`);
  });

  it("names that are not allowed, arguments that are not accepted, dependent requirements", () => {
    expect(only(one({ type: "object", propertyNames: { pattern: "^[a-z]+$" } }, { A1: 1 }), "extra_argument", "A1")).toBe(
      "Error: 'A1' is not an allowed argument name (allowed names: matching ^[a-z]+$). Rename or remove 'A1'.",
    );
    // rules that have no words of their own send the model to the schema
    expect(only(one({ type: "object", propertyNames: { not: { const: "bad" } } }, { bad: 1 }), "extra_argument", "bad")).toBe(
      "Error: 'bad' is not an allowed argument name (allowed names: see the schema). Rename or remove 'bad'.",
    );
    expect(only(one({ type: "object", additionalProperties: false }, { x: 1 }), "extra_argument", "x")).toBe(
      "Error: 'x' is not an argument of t. Allowed: none. Remove 'x'.",
    );
    expect(only(one(object({ x: false }), { x: 1 }), "extra_argument", "x")).toBe("Error: 'x' is not accepted by t. Remove 'x'.");
    expect(only(one({ allOf: [false] }, {}), "extra_argument", "")).toBe("Error: t accepts no arguments like these. Check the tool's schema.");
    const dependent = object({ a: {}, b: { enum: ["x", "y"] } }, { dependentRequired: { a: ["b"] } });
    expect(only(one(dependent, { a: 1 }), "missing_argument", "b")).toBe(
      "Error: 'b' is required by t when 'a' is sent and was not sent. Add 'b' (one of x, y).",
    );
    const hinted = object({ a: { const: 3 }, f: { type: "string", format: "email" } }, { required: ["a", "f"] });
    expect(one(hinted, {}).violations.map((v) => v.message)).toEqual([
      "Error: 'a' is required by t and was not sent. Add 'a' (exactly 3).",
      "Error: 'f' is required by t and was not sent. Add 'f' (string, email format).",
    ]);
  });

  it("paths through keys that need quoting, JSON pointer escapes included", () => {
    const odd = object({ "a/b": object({ "c~d": { type: "number" } }) });
    expect(only(one(odd, { "a/b": { "c~d": "x" } }), "wrong_type", `["a/b"]["c~d"]`)).toMatch(/^Error: '\["a\/b"\]\["c~d"\]' must be a number/);
  });

  it("the example of malformed arguments: required keys (three at most), else the first property, with sample values", () => {
    const sample = (parameters: object) => one(parameters, "oops").message!.replace(/^.* such as /, "");
    expect(
      sample(object({ a: { type: "integer", minimum: 5 }, b: { type: "number" }, c: { type: "boolean" }, d: {} }, { required: ["d", "a", "b", "c"] })),
    ).toBe(`{"d": "...", "a": 5, "b": 1}.`);
    expect(sample(object({ e: { enum: ["x"] }, k: { const: 4 }, l: { type: "array" } }, { required: ["e", "k", "l"] }))).toBe(`{"e": "x", "k": 4, "l": []}.`);
    expect(sample(object({ o: { type: ["object", "null"] }, n: { type: "null" }, s: { type: "string" } }, { required: ["o", "n", "s"] }))).toBe(
      `{"o": {}, "n": null, "s": "..."}.`,
    );
    expect(sample(object({ d: { type: "string", default: "now" }, z: { type: "string" } }))).toBe(`{"d": "now"}.`);
    expect(sample({ type: "object" })).toBe("{}.");
    // empty examples and choices give no sample; a boolean's is true
    expect(
      sample(object({ f: { type: "boolean" }, x: { type: "string", examples: [] }, y: { type: "string", enum: [] } }, { required: ["f", "x", "y"] })),
    ).toBe(`{"f": true, "x": "...", "y": "..."}.`);
    // a required key the schema does not describe gets the placeholder; what is no key is left out
    expect(sample(object({ a: { type: "integer" } }, { required: [7, "gone", "a"] }))).toBe(`{"gone": "...", "a": 1}.`);
  });

  it("a schema that cannot be used is a ToolSchemaError that says why", () => {
    expect(() => one({ $schema: "http://json-schema.org/draft-03/schema#", type: "object" }, {})).toThrow(/^the schema of t@.* names an unsupported \$schema$/);
    expect(() => one({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, { a: 1 })).toThrow(/^the schema of t@.* cannot be compiled: /);
  });
});

describe("classifyCall: which of Ajv's errors are told", () => {
  it("drops the if wrapper and repeated findings", () => {
    const conditional = { type: "object", if: { properties: { a: { const: 1 } }, required: ["a"] }, then: { required: ["b"] } };
    expect(only(one(conditional, { a: 1 }), "missing_argument", "b")).toBe("Error: 'b' is required by t and was not sent. Add 'b'.");
    expect(only(one({ type: "object", allOf: [{ required: ["a"] }, { required: ["a"] }] }, {}), "missing_argument", "a")).toBe(
      "Error: 'a' is required by t and was not sent. Add 'a'.",
    );
  });

  it("explains the closest union branch: a matching type, then the fewest errors, then the first", () => {
    const shapes = object({
      v: {
        anyOf: [
          { type: "object", required: ["a", "b"] },
          { type: "object", required: ["c"] },
          { type: "string", minLength: 3 },
        ],
      },
    });
    expect(one(shapes, { v: {} }).violations.map((v) => v.path)).toEqual(["v.c"]);
    expect(only(one(shapes, { v: "x" }), "out_of_range", "v")).toBe("Error: 'v' must be at least 3 characters, you sent 1.");
    const tie = object({
      v: {
        anyOf: [
          { type: "object", required: ["a"] },
          { type: "object", required: ["b"] },
        ],
      },
    });
    expect(one(tie, { v: {} }).violations.map((v) => v.path)).toEqual(["v.a"]);
    // branches of one wrong type each: one message naming them all
    const scalar = object({ v: { oneOf: [{ type: "integer" }, { type: "boolean" }] } });
    expect(only(one(scalar, { v: "x" }), "wrong_type", "v")).toBe(
      `Error: 'v' must be a whole number or a boolean (true or false), you sent the string "x". Send a whole number or a boolean (true or false) instead.`,
    );
    // a oneOf matched by one branch is no problem; one a branch rejects for a nested reason explains that branch
    expect(one(scalar, { v: 3 }).valid).toBe(true);
    const nested = object({ v: { oneOf: [{ type: "object", properties: { n: { type: "integer" } } }, { type: "string" }] } });
    expect(only(one(nested, { v: { n: "1" } }), "wrong_type", "v.n")).toBe(`Error: 'v.n' must be a whole number, you sent the string "1". Send it as 1.`);
  });

  it("contains: one finding for the array, also with maxContains", () => {
    const list = object({ l: { type: "array", contains: { type: "number" }, maxContains: 1 } });
    expect(only(one(list, { l: [1, 2, "a"] }), "out_of_range", "l")).toBe(
      `Error: 'l' must contain at least 1 and no more than 1 valid item(s), you sent [1,2,"a"]. Change it to match the schema of t.`,
    );
    expect(one(list, { l: [1, "a"] }).valid).toBe(true);
  });

  it("contains with maxContains: recounts the items Ajv checked, up to the one past the limit", () => {
    // items checks every item; contains stops at the second integer (one more than maxContains)
    const list = object({ x: { type: "array", items: { type: ["integer", "string"], maxLength: 1 }, contains: { type: "integer" }, maxContains: 1 } });
    const told = (x: unknown[]) => one(list, { x }).violations.map((v) => `${v.keyword} ${v.path}`);
    // the non-matching items before the limit are the wrapper's children, the item after it is not: its maxLength stays
    expect(told(["a", 1, "c", 2, "long"])).toEqual(["maxLength x[4]", "contains x"]);
    expect(told(["a", 1, 2, "c", "long"])).toEqual(["maxLength x[4]", "contains x"]);
  });

  it("unions: several matching branches and one failing, earlier errors, branches with a type error and more", () => {
    const told = (parameters: object, args: object) => one(parameters, args).violations.map((v) => `${v.keyword} ${v.path}`);
    for (const oneOf of [
      [{ type: "string" }, { type: "integer" }, { type: "number" }],
      [{ type: "integer" }, { type: "string" }, { type: "number" }],
    ]) {
      expect(told(object({ n: { oneOf } }), { n: 5 })).toEqual(["oneOf n"]);
    }
    // Ajv stops at the second matching branch: a branch after it has no errors to drop, and the error before the union stays
    const big = { $defs: { big: { minimum: 10 } } };
    expect(told({ ...object({ n: { $ref: "#/$defs/big", oneOf: [{ type: "integer" }, { type: "number" }, { type: "string" }] } }), ...big }, { n: 5 })).toEqual(
      ["minimum n", "oneOf n"],
    );
    // an error before the union is not one of its branches' errors
    expect(told(object({ a: { type: "string" }, b: { anyOf: [{ type: "string", minLength: 3 }, { type: "integer" }] } }), { a: 1, b: "x" })).toEqual([
      "type a",
      "minLength b",
    ]);
    // a branch of another type with a second error is no type-only branch: the closest branch is told
    expect(one(object({ c: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] } }), { c: 5 }).message).toBe(
      "Error: 'c' must be null, you sent the number 5. Send null instead.",
    );
    // a branch whose type matched beats one that has a type error, even with as many errors
    expect(
      told(
        object({
          c: {
            anyOf: [
              { type: "string", enum: ["x"] },
              { type: "integer", minimum: 10, multipleOf: 3 },
            ],
          },
        }),
        { c: 5 },
      ),
    ).toEqual(["minimum c", "multipleOf c"]);
  });

  it("branches that refer into the tool's schema: $defs in reach; other pointers and the root keep Ajv's own errors", () => {
    const told = (parameters: object, args: object) => one(parameters, args).violations.map((v) => `${v.keyword} ${v.path}`);
    const defs = { type: "object", $defs: { s: { type: "string", minLength: 3 } }, properties: { b: { anyOf: [{ $ref: "#/$defs/s" }, { type: "null" }] } } };
    expect(told(defs, { b: "x" })).toEqual(["minLength b"]);
    // a branch pointing at a property cannot be compiled on its own: every error Ajv reported is told
    const a = { type: "string", minLength: 3 };
    expect(told(object({ a, b: { anyOf: [{ $ref: "#/properties/a" }, { type: "null" }] } }), { b: "x" })).toEqual(["minLength b", "type b", "anyOf b"]);
    expect(told(object({ a, b: { type: "array", contains: { $ref: "#/properties/a" } } }), { b: ["x"] })).toEqual(["minLength b[0]", "contains b"]);
    // a tree: the branch's "#" is the whole tool, not the branch (validating the branch alone would recurse forever)
    const tree = { type: "object", properties: { name: { type: "string" }, child: { anyOf: [{ $ref: "#" }, { type: "null" }] } }, required: ["name"] };
    expect(told(tree, { name: "root", child: { name: "leaf", child: null } })).toEqual([]);
    expect(told(tree, { name: "root", child: {} })).toEqual(["required child.name", "type child", "anyOf child"]);
  });

  it("draft-07's dependencies and additionalItems", () => {
    const draft7 = (schema: object) => ({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", ...schema });
    expect(only(one(draft7({ dependencies: { a: ["b"] } }), { a: 1 }), "missing_argument", "b")).toBe(
      "Error: 'b' is required by t when 'a' is sent and was not sent. Add 'b'.",
    );
    const pair = draft7({ properties: { p: { type: "array", items: [{}, {}], additionalItems: false } } });
    expect(only(one(pair, { p: [1, 2, 3] }), "out_of_range", "p")).toBe("Error: 'p' must have at most 2 items, you sent 3.");
  });

  it("the whole call as the subject, hints naming union types, duplicates far apart", () => {
    expect(only(one({ type: "object", minProperties: 1 }, {}), "out_of_range", "")).toBe("Error: the arguments must have at least 1 property, you sent 0.");
    expect(one(object({ u: { type: ["string", "null"] } }, { required: ["u"] }), {}).message).toBe(
      "Error: 'u' is required by t and was not sent. Add 'u' (string or null).",
    );
    const list = Array.from({ length: 11 }, (_, i) => `v${i}`);
    list[10] = "v2";
    expect(one(object({ l: { type: "array", uniqueItems: true } }), { l: list }).message).toBe(
      `Error: 'l' must not contain duplicates, you sent "v2" as items 2 and 10. Remove the repeated item.`,
    );
  });

  it("choices: a value that is no string gets no guess, and only string choices are guessed", () => {
    expect(one(object({ c: { enum: ["ab", "cd"] } }), { c: 5 }).message).toBe("Error: 'c' must be one of ab, cd; you sent 5.");
    expect(one(object({ c: { enum: [1, "ab"] } }), { c: "ac" }).message).toBe(`Error: 'c' must be one of 1, ab; you sent "ac". Did you mean "ab"?`);
  });

  it("malformed arguments and unknown tools: the whole violation", () => {
    expect(classify("getloan", "  ").violations).toEqual([
      {
        category: "malformed_arguments",
        path: "",
        keyword: "json",
        message: `Error: the arguments must be a JSON object, you sent an empty string. Send the arguments as a JSON object such as {"loannumber": "4471"}.`,
      },
    ]);
    expect(classify("nosuch", "oops").message).toMatch(/such as \{"name": "value"\}\.$/);
    expect(classifyCall({ tool: "x", arguments: {}, registry: registryFrom([]) }).violations).toEqual([
      {
        category: "unknown_tool",
        path: "",
        keyword: "tool",
        message: "Error: no tool named 'x'. No tools are registered; register the tool's schema before calling it.",
      },
    ]);
    expect(classify("nosuch", {}).violations).toEqual([
      { category: "unknown_tool", path: "", keyword: "tool", message: expect.stringMatching(/^Error: no tool named 'nosuch'\. Available tools: /) },
    ]);
    const ten = registryFrom(Array.from({ length: 10 }, (_, i) => ({ name: `tool${i}`, version: "1", parameters: { type: "object" } })));
    expect(classifyCall({ tool: "nosuch", arguments: {}, registry: ten }).message).toMatch(
      /^Error: no tool named 'nosuch'\. Available tools: (tool\d, ){9}tool\d\. Call one of these instead\.$/,
    );
    let thrown: unknown;
    try {
      one({ $schema: "http://json-schema.org/draft-03/schema#", type: "object" }, {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolSchemaError);
    expect((thrown as Error).name).toBe("ToolSchemaError");
  });
});

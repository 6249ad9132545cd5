import { createHash } from "node:crypto";
import { classifyCall, registryFrom, ToolSchemaError, type RegisteredTool, type Verdict } from "@/isomorphic/classify";
import { canonicalJson, schemaDraft } from "@/isomorphic/tool-schema";
import { CASE_TOOLS, VERDICT_CASES } from "@/sdk/test/verdict-cases";
import { shuffled } from "../otlp";

/**
 * The shared classifier vectors (test/vectors/classifier.jsonl): calls and the TypeScript
 * classifier's verdict on each. sdk-python/tests/test_vectors.py runs every one against the Python
 * classifier; classifier-vectors.test.ts proves the file is what this module produces now.
 * Three sources: the calls the classifier's own tests make (pinned-calls.jsonl, captured by
 * `npm run vectors`), the SDK's verdict cases, and schemas × argument mutations, seeded.
 */

interface VectorCall {
  /** Where the case comes from and which one it is. */
  id: string;
  tool: string;
  arguments: unknown;
  tools: RegisteredTool[];
}

type Expected = Verdict | { throws: "ToolSchemaError"; message: string };
export type Vector = VectorCall & { draft: string | null; expected: Expected };

/** A schema's version as the server names it: a hash of its content. */
function versionOf(parameters: object): string {
  return createHash("sha256").update(canonicalJson(parameters)).digest("hex").slice(0, 12);
}

const tool = (name: string, parameters: object): RegisteredTool => ({ name, version: versionOf(parameters), parameters });

/** `count` of `list`, chosen by `seed`: the same on every run. */
function pick<T>(list: readonly T[], count: number, seed: number): T[] {
  return shuffled([...list], seed).slice(0, count);
}

/** Values a model sends where another is expected. */
const VALUES: unknown[] = [
  ...[0, 1, -1, 2.5, 7, 100, 400, -0.5, 1e21, 3.0000001, 0.1, 12345678901],
  ...["", "a", "abc", "4471", "44a1", "2.5", " 12 ", "0x1A", "true", "false", "[1]", '{"a":1}', "x".repeat(80), "😀😀", "Open", "open", "ful"],
  ...["2026-10-02", "2026-13-01", "2026-02-29", "2026-10-02T09:30:00Z", "2026-10-02 09:30:00+01:00", "09:30:00Z", "25:00:00Z", "tomorrow"],
  ...["name@example.com", "not an email", "192.0.2.1", "256.1.1.1", "::1", "2001:db8::1", "123e4567-e89b-12d3-a456-426614174000", "https://example.com/page"],
  ...["example.com", "-bad-", "P3D", "PT", "ABC-12", "abc-12", "a/b"],
  ...[true, false, null, [], [1, 2], ["a", "a"], [1, "a"], { a: 1 }, {}, [{ sku: "ABC-1", qty: 1 }]],
];

/** Text that is not a JSON object, sent as the arguments. */
const MALFORMED = [
  ...["", "  ", "{", '{"loannumber": "447"', "nope", "loannumber=4471", "[1, 2]", "4471", '"4471"', "null", "true", "{'a': 1}"],
  ...['{"a": 1,}', '{"a": NaN}', '{"a": Infinity}', "x".repeat(300), "😀".repeat(40), "{} {}", "\n\t", '{"a": 01}', "[]", '[{"a":1}]'],
];

const object = (properties: object, more: object = {}) => ({ type: "object", properties, ...more });
const D7 = "http://json-schema.org/draft-07/schema#";
const D2020 = "https://json-schema.org/draft/2020-12/schema";

interface Family {
  name: string;
  parameters: object;
  /** Valid (or nearly valid) arguments the mutations start from. */
  seeds: object[];
  /** Draft-07 too: the same schema under draft-07's $schema. */
  bothDrafts?: boolean;
}

/** Schemas covering every keyword the classifier explains, with arguments to mutate. */
const FAMILIES: Family[] = [
  {
    name: "getloan",
    bothDrafts: true,
    parameters: object(
      {
        loannumber: { type: "string", minLength: 4, maxLength: 8, pattern: "^[0-9]+$", examples: ["4471"] },
        includehistory: { type: "boolean", default: false },
        months: { type: "integer", minimum: 1, maximum: 360 },
        detail: { type: "string", enum: ["summary", "full"] },
      },
      { required: ["loannumber"], additionalProperties: false },
    ),
    seeds: [{ loannumber: "4471", includehistory: true, months: 12, detail: "full" }],
  },
  {
    name: "listopenloans",
    bothDrafts: true,
    parameters: object(
      { status: { type: "string", enum: ["open", "closed", "overdue"] }, limit: { type: "integer", exclusiveMinimum: 0 } },
      { required: ["status"] },
    ),
    seeds: [{ status: "open", limit: 5 }],
  },
  {
    name: "numbers",
    bothDrafts: true,
    parameters: object({
      n: { type: "number", minimum: 2, maximum: 50 },
      r: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      m: { type: "integer", multipleOf: 5 },
      z: { type: "integer", minimum: -9007199254740991, maximum: 5 },
      f: { type: "number", multipleOf: 0.5, maximum: 10 },
    }),
    seeds: [{ n: 3, r: 0.5, m: 10, z: 1, f: 1.5 }],
  },
  {
    name: "strings",
    bothDrafts: true,
    parameters: object({
      code: { type: "string", minLength: 5, maxLength: 5 },
      one: { type: "string", minLength: 1 },
      short: { type: "string", maxLength: 1 },
      sku: { type: "string", pattern: "^[A-Z]{3}-[0-9]+$" },
      word: { type: "string", pattern: "^\\w+$" },
      uni: { type: "string", pattern: "^\\p{L}+$" },
    }),
    seeds: [{ code: "ABCDE", one: "x", short: "y", sku: "ABC-12", word: "abc", uni: "Æble" }],
  },
  {
    name: "formats",
    bothDrafts: true,
    parameters: object({
      date: { type: "string", format: "date" },
      datetime: { type: "string", format: "date-time" },
      time: { type: "string", format: "time" },
      email: { type: "string", format: "email" },
      uuid: { type: "string", format: "uuid" },
      ipv4: { type: "string", format: "ipv4" },
      ipv6: { type: "string", format: "ipv6" },
      host: { type: "string", format: "hostname" },
      uri: { type: "string", format: "uri" },
      duration: { type: "string", format: "duration" },
    }),
    seeds: [
      {
        date: "2026-10-02",
        datetime: "2026-10-02T09:30:00Z",
        time: "09:30:00Z",
        email: "name@example.com",
        uuid: "123e4567-e89b-12d3-a456-426614174000",
        ipv4: "192.0.2.1",
        ipv6: "2001:db8::1",
        host: "example.com",
        uri: "https://example.com/page",
        duration: "P3D",
      },
    ],
  },
  {
    name: "arrays",
    bothDrafts: true,
    parameters: object({
      l: { type: "array", minItems: 1, maxItems: 3 },
      tags: { type: "array", items: { type: "string" }, uniqueItems: true },
      mixed: { type: "array", items: { type: ["string", "number"] }, uniqueItems: true },
      any: { type: "array", uniqueItems: true },
      has: { type: "array", contains: { type: "number" } },
      ints: { type: "array", items: { type: "integer", minimum: 0 } },
    }),
    seeds: [{ l: [1], tags: ["a", "b"], mixed: ["1", 1], any: [{ a: 1 }, { a: 2 }], has: ["a", 2], ints: [0, 1, 2] }],
  },
  {
    name: "tuples2020",
    parameters: object({
      p: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
      q: { type: "array", prefixItems: [{ type: "string" }], items: { type: "integer" } },
      none: { type: "array", items: false },
      c: { type: "array", contains: { type: "number" }, minContains: 2, maxContains: 3 },
      u: { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false },
    }),
    seeds: [{ p: ["a", 1], q: ["a", 1, 2], none: [], c: [1, 2], u: ["a"] }],
  },
  {
    name: "tuples07",
    parameters: {
      $schema: D7,
      ...object({
        p: { type: "array", items: [{ type: "string" }, { type: "number" }], additionalItems: false },
        q: { type: "array", items: [{ type: "string" }], additionalItems: { type: "integer" } },
        c: { type: "array", contains: { type: "number" }, maxContains: 1 },
      }),
    },
    seeds: [{ p: ["a", 1], q: ["a", 1], c: [1, "x"] }],
  },
  {
    name: "objects",
    bothDrafts: true,
    parameters: object(
      {
        o: { type: "object", minProperties: 1, maxProperties: 2 },
        named: { type: "object", propertyNames: { pattern: "^[a-z]+$" } },
        notbad: { type: "object", propertyNames: { not: { const: "bad" } } },
        counts: { type: "object", patternProperties: { "^n_": { type: "integer" } }, additionalProperties: { type: "string" } },
        closed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
      },
      { minProperties: 1 },
    ),
    seeds: [{ o: { a: 1 }, named: { ab: 1 }, notbad: { good: 1 }, counts: { n_a: 1, label: "x" }, closed: { a: "x" } }],
  },
  {
    name: "dependent2020",
    parameters: object(
      { a: {}, b: { enum: ["x", "y"] }, card: { type: "string" }, billing: { type: "string", minLength: 3 } },
      { dependentRequired: { a: ["b"] }, dependentSchemas: { card: { required: ["billing"] } } },
    ),
    seeds: [{ a: 1, b: "x", card: "visa", billing: "addr" }],
  },
  {
    name: "dependencies07",
    parameters: {
      $schema: D7,
      ...object(
        { a: {}, b: { type: "string" }, card: { type: "string" }, billing: { type: "string" } },
        { dependencies: { a: ["b"], card: { required: ["billing"] } } },
      ),
    },
    seeds: [{ a: 1, b: "x", card: "visa", billing: "addr" }],
  },
  {
    name: "unevaluated",
    parameters: {
      type: "object",
      properties: { p: { type: "string" } },
      allOf: [{ properties: { q: { type: "integer" } } }],
      unevaluatedProperties: false,
    },
    seeds: [{ p: "x", q: 1 }],
  },
  {
    // Ajv kept what a failing `if` evaluated; the classifier gives it an equivalent schema (schemaForAjv)
    name: "unevaluated-if",
    parameters: {
      type: "object",
      properties: { kind: { enum: ["loan", "card"] } },
      if: { properties: { kind: { const: "loan" }, loannumber: { type: "string" } }, required: ["kind"] },
      then: { required: ["loannumber"] },
      unevaluatedProperties: false,
    },
    seeds: [{ kind: "loan", loannumber: "447" }, { kind: "card" }],
  },
  {
    // a generic list whose items the schema extending it decides, through the dynamic scope (dynamic-scope.ts)
    name: "dynamic-refs",
    parameters: {
      $id: "https://example.com/loan-batch",
      $ref: "list",
      $defs: {
        list: {
          $id: "list",
          type: "object",
          properties: { items: { type: "array", items: { $dynamicRef: "#item" } } },
          $defs: { anything: { $dynamicAnchor: "item" } },
        },
        loan: { $dynamicAnchor: "item", type: "object", properties: { loannumber: { type: "string" } }, required: ["loannumber"] },
      },
    },
    seeds: [{ items: [{ loannumber: "447" }] }],
  },
  {
    // 2019-09: items as an array with additionalItems, unevaluated*, dependentRequired, maxContains and a $recursiveRef tree
    name: "draft-2019-09",
    parameters: {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      properties: {
        pair: { type: "array", items: [{ type: "string" }, { type: "integer" }], additionalItems: false },
        tags: { type: "array", items: [{ type: "string" }], unevaluatedItems: { type: "number" } },
        scores: { type: "array", contains: { type: "number", minimum: 5 }, maxContains: 2 },
        tree: { $ref: "#/$defs/node" },
        card: { type: "string" },
      },
      dependentRequired: { card: ["expiry"] },
      allOf: [{ properties: { expiry: { type: "string", pattern: "^[0-9]{2}/[0-9]{2}$" } } }],
      unevaluatedProperties: false,
      $defs: {
        node: {
          $recursiveAnchor: true,
          type: "object",
          properties: { value: { type: "integer" }, children: { type: "array", items: { $recursiveRef: "#" } } },
          required: ["value"],
        },
      },
    },
    seeds: [{ pair: ["a", 1], tags: ["x", 2], scores: [5, 1], tree: { value: 1, children: [{ value: 2 }] }, card: "4111", expiry: "01/30" }],
  },
  {
    // draft-04: exclusive bounds are flags, `id` names a resource, const/contains/propertyNames/if are unknown (ignored)
    name: "draft-04",
    parameters: {
      $schema: "http://json-schema.org/draft-04/schema#",
      type: "object",
      properties: {
        rate: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true },
        term: { type: "integer", minimum: 1, maximum: 360 },
        tags: { type: "array", items: [{ type: "string" }], additionalItems: false, contains: { type: "number" } },
        mode: { enum: ["fixed", "variable"], const: "fixed", if: { type: "string" }, then: { maxLength: 1 } },
        meta: { type: "object", propertyNames: { maxLength: 1 }, dependencies: { a: ["b"] } },
        loan: { $ref: "#/definitions/loan", type: "string" },
      },
      required: ["rate"],
      additionalProperties: false,
      definitions: { loan: { id: "#loan", type: "object", properties: { loannumber: { type: "string" } }, required: ["loannumber"] } },
    },
    seeds: [{ rate: 0.5, term: 12, tags: ["a"], mode: "variable", meta: { long: 1 }, loan: { loannumber: "447" } }],
  },
  {
    // draft-06: numeric exclusive bounds, const/contains/propertyNames and boolean schemas apply; if/then/else are unknown (ignored)
    name: "draft-06",
    parameters: {
      $schema: "http://json-schema.org/draft-06/schema#",
      type: "object",
      properties: {
        rate: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
        kind: { const: "loan", if: { type: "string" }, then: { maxLength: 1 } },
        tags: { type: "array", contains: { type: "number" } },
        meta: { type: "object", propertyNames: { maxLength: 3 } },
        never: false,
      },
      required: ["rate", "kind"],
    },
    seeds: [{ rate: 0.5, kind: "loan", tags: ["a", 1], meta: { ab: 1 } }],
  },
  {
    name: "unions",
    bothDrafts: true,
    parameters: object({
      v: {
        anyOf: [
          { type: "object", required: ["a", "b"] },
          { type: "object", required: ["c"] },
          { type: "string", minLength: 3 },
        ],
      },
      s: { oneOf: [{ type: "integer" }, { type: "boolean" }] },
      n: { oneOf: [{ type: "number" }, { type: "integer" }] },
      w: { oneOf: [{ type: "object", properties: { n: { type: "integer" } } }, { type: "string" }] },
      c: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] },
      k: {
        anyOf: [
          { type: "string", enum: ["x"] },
          { type: "integer", minimum: 10, multipleOf: 3 },
        ],
      },
      note: { anyOf: [{ type: "string", maxLength: 20 }, { type: "null" }] },
    }),
    seeds: [{ v: { c: 1 }, s: 1, n: 2.5, w: { n: 1 }, c: "a", k: 12, note: null }],
  },
  {
    name: "refs2020",
    parameters: {
      $schema: D2020,
      $defs: {
        s: { type: "string", minLength: 3 },
        item: {
          type: "object",
          properties: { sku: { type: "string", pattern: "^[A-Z]{3}-[0-9]+$" }, qty: { type: "integer", minimum: 1 } },
          required: ["sku", "qty"],
        },
      },
      type: "object",
      properties: {
        b: { anyOf: [{ $ref: "#/$defs/s" }, { type: "null" }] },
        items: { type: "array", items: { $ref: "#/$defs/item" } },
        one: { $ref: "#/$defs/item" },
      },
    },
    seeds: [{ b: "abc", items: [{ sku: "ABC-1", qty: 1 }], one: { sku: "ABC-2", qty: 2 } }],
  },
  {
    name: "refs07",
    parameters: {
      $schema: D7,
      definitions: {
        Address: { type: "object", properties: { city: { type: "string" }, zip: { type: "string", pattern: "^[0-9]{5}$" } }, required: ["city"] },
      },
      type: "object",
      properties: { address: { anyOf: [{ $ref: "#/definitions/Address" }, { type: "null" }] }, billing: { $ref: "#/definitions/Address" } },
      required: ["address"],
    },
    seeds: [{ address: { city: "Oslo", zip: "01234" }, billing: { city: "Rome" } }],
  },
  {
    name: "tree",
    parameters: { type: "object", properties: { name: { type: "string" }, child: { anyOf: [{ $ref: "#" }, { type: "null" }] } }, required: ["name"] },
    seeds: [{ name: "root", child: { name: "leaf", child: null } }],
  },
  {
    name: "choices",
    bothDrafts: true,
    parameters: object({
      k: { const: "v1" },
      three: { const: 3 },
      mixed: { enum: [1, "ab", null, { a: 1 }] },
      many: { enum: [...Array.from({ length: 23 }, (_, i) => `c${i}`), 7] },
      twenty: { enum: Array.from({ length: 20 }, (_, i) => `c${i}`) },
      not: { not: { type: "string" } },
    }),
    seeds: [{ k: "v1", three: 3, mixed: "ab", many: "c1", twenty: "c2", not: 1 }],
  },
  {
    name: "conditional",
    bothDrafts: true,
    parameters: {
      type: "object",
      properties: { kind: { enum: ["card", "cash"] }, number: { type: "string" }, amount: { type: "number" } },
      if: { properties: { kind: { const: "card" } }, required: ["kind"] },
      then: { required: ["number"] },
      else: { properties: { amount: { maximum: 100 } } },
      allOf: [{ required: ["kind"] }, { required: ["kind"] }],
    },
    seeds: [{ kind: "card", number: "4111", amount: 10 }],
  },
  {
    name: "types",
    bothDrafts: true,
    parameters: object(
      {
        u: { type: ["string", "null"] },
        b: { type: "boolean" },
        l: { type: "array" },
        o: { type: "object" },
        nl: { type: "null" },
        i: { type: "integer" },
        x: false,
      },
      { required: ["u"] },
    ),
    seeds: [{ u: null, b: true, l: [], o: {}, nl: null, i: 3 }],
  },
  {
    name: "odd-keys",
    bothDrafts: true,
    parameters: object({ "a/b": object({ "c~d": { type: "number" } }), "odd key": { type: "integer" }, "2": { type: "string" }, $ok: { type: "boolean" } }),
    seeds: [{ "a/b": { "c~d": 1 }, "odd key": 1, "2": "two", $ok: true }],
  },
  {
    name: "order",
    bothDrafts: true,
    // the order Ajv reports in: a type checked first, or after the keywords of its own group
    parameters: object({
      e: { type: "string", enum: ["ab", "cd"], minLength: 2 },
      f: { type: "string", enum: ["ab", "cd"] },
      g: { type: "integer", enum: [1, 2], minimum: 1 },
      h: { type: "number", const: 5, maximum: 9 },
      k: { type: ["string", "number"], minLength: 3, maximum: 4 },
      r: { $ref: "#/properties/e", type: "string", maxLength: 1 },
      t: { type: "object", required: ["x"], properties: { x: { type: "integer" } }, minProperties: 2 },
      u: { type: "array", items: { type: "integer" }, uniqueItems: true, maxItems: 3 },
      v: { type: "array", uniqueItems: true, minItems: 2 },
    }),
    seeds: [{ e: "ab", f: "cd", g: 1, h: 5, k: "abc", r: "a", t: { x: 1, y: 2 }, u: [1, 2], v: ["a", "b"] }],
  },
  {
    name: "nested-unions",
    parameters: object({
      a: {
        anyOf: [
          { anyOf: [{ type: "integer" }, { type: "string", minLength: 2 }] },
          { type: "array", items: { oneOf: [{ type: "string" }, { type: "integer" }] } },
        ],
      },
      b: { type: "array", items: { anyOf: [{ type: "object", properties: { k: { const: 1 } }, required: ["k"] }, { type: "null" }] } },
      c: {
        oneOf: [
          { type: "array", contains: { type: "string" } },
          { type: "array", items: { type: "integer" } },
        ],
      },
      d: { if: { type: "string" }, else: { type: "integer" } },
      e: { allOf: [{ type: "string" }, { minLength: 2 }, { not: { const: "no" } }] },
      f: { anyOf: [{ type: "object", properties: { p: { type: "string" } }, unevaluatedProperties: false }, { type: "boolean" }] },
      g: { type: "object", properties: { x: true, y: false, z: {} } },
    }),
    seeds: [{ a: [1, "x"], b: [{ k: 1 }, null], c: [1, 2], d: 3, e: "ok", f: { p: "x" }, g: { x: 1, z: 2 } }],
  },
  {
    name: "unique",
    bothDrafts: true,
    parameters: object({
      s: { type: "array", items: { type: "string" }, uniqueItems: true },
      n: { type: "array", items: { type: ["string", "integer"] }, uniqueItems: true },
      o: { type: "array", items: { type: "object" }, uniqueItems: true },
      a: { type: "array", uniqueItems: true },
    }),
    seeds: [{ s: ["a", "b"], n: ["1", 1], o: [{ a: 1 }, { a: 2 }], a: [1, "1", [1], { x: null }] }],
  },
];

function withDraft(parameters: object, $schema: string): object {
  const { $schema: _drop, ...rest } = parameters as Record<string, unknown>;
  return { $schema, ...rest };
}

type Path = (string | number)[];

/** Every path to a member of the arguments (object keys and array items), parents first. */
function pathsOf(value: unknown, base: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) value.forEach((item, i) => out.push([...base, i], ...pathsOf(item, [...base, i])));
  else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) out.push([...base, key], ...pathsOf(item, [...base, key]));
  return out;
}

function edit(value: unknown, path: Path, change: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  change(parent, path[path.length - 1]!);
  return copy;
}

function mutations(family: Family, seedBase: number): { label: string; args: unknown }[] {
  const out: { label: string; args: unknown }[] = [];
  let seedNumber = seedBase;
  const next = () => ++seedNumber;
  for (const [s, seed] of family.seeds.entries()) {
    out.push({ label: `seed${s}`, args: seed });
    out.push({ label: `seed${s}-as-text`, args: JSON.stringify(seed) });
    out.push({ label: `seed${s}-empty`, args: {} });
    for (const path of pathsOf(seed)) {
      const at = path.join("/");
      const key = path[path.length - 1]!;
      if (typeof key === "string") {
        out.push({ label: `${at}-removed`, args: edit(seed, path, (parent, k) => delete parent[k]) });
        const typo = key.length > 2 ? key.slice(0, -1) + key.slice(-1).toUpperCase() + "x" : `${key}_`;
        out.push({ label: `${at}-renamed`, args: edit(seed, path, (parent, k) => ((parent[typo] = parent[k]), delete parent[k])) });
      }
      for (const [v, value] of pick(VALUES, 5, next()).entries()) {
        const args = edit(seed, path, (parent, k) => (parent[k] = structuredClone(value)));
        // some sent as JSON text, as most providers send arguments
        out.push({ label: `${at}-value${v}`, args: seedNumber % 7 === v ? JSON.stringify(args) : args });
      }
    }
    // arrays and objects of another size: duplicates, too many or too few items and properties
    for (const path of pathsOf(seed)) {
      const at = path.join("/");
      const value = path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], seed);
      const shapes: [string, unknown][] = Array.isArray(value)
        ? [
            ["duplicated", [...value, ...value.slice(0, 1), ...(value.length ? [] : [1, 1])]],
            ["grown", [...value, ...value, 1, "x", 2]],
            ["emptied", []],
            ["reversed", [...value].reverse()],
          ]
        : value && typeof value === "object"
          ? [
              ["widened", { ...value, zz: 1, ...(Object.keys(value).length ? {} : { yy: "y" }) }],
              ["emptied", {}],
            ]
          : [];
      for (const [label, shaped] of shapes) out.push({ label: `${at}-${label}`, args: edit(seed, path, (parent, k) => (parent[k] = shaped)) });
    }
    // values at and past the bounds the schema states
    const properties = (family.parameters as { properties?: Record<string, unknown> }).properties ?? {};
    for (const [name, schema] of Object.entries(properties)) {
      for (const [label, value] of boundaryValues(schema)) out.push({ label: `${name}-${label}`, args: { ...seed, [name]: value } });
    }
    out.push({ label: `seed${s}-extra`, args: { ...seed, extra: 1 } });
    out.push({ label: `seed${s}-extras`, args: { zz: 1, ...seed, "10": true, "2": false, __proto__x: 1 } });
    // two members changed at once: several findings, ranked by category
    const paths = pathsOf(seed).filter((p) => p.length === 1);
    for (let k = 0; k < 6 && paths.length > 1; k++) {
      const [a, b] = pick(paths, 2, next());
      const [x, y] = pick(VALUES, 2, next());
      const args = edit(
        edit(seed, a!, (parent, key) => (parent[key] = structuredClone(x))),
        b!,
        (parent, key) => (parent[key] = structuredClone(y)),
      );
      out.push({ label: `pair${k}`, args });
    }
  }
  return out;
}

/** Values at and just past a property's stated bounds (length, size, range, multiple). */
function boundaryValues(schema: unknown): [string, unknown][] {
  if (!schema || typeof schema !== "object") return [];
  const rules = schema as Record<string, unknown>;
  const out: [string, unknown][] = [];
  const num = (key: string) => (typeof rules[key] === "number" ? (rules[key] as number) : undefined);
  for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    const bound = num(key);
    if (bound !== undefined && Math.abs(bound) < 1e15) out.push([`${key}-at`, bound], [`${key}-below`, bound - 1], [`${key}-above`, bound + 1]);
  }
  const step = num("multipleOf");
  if (step !== undefined) out.push(["multipleOf-off", step * 3 + step / 2], ["multipleOf-on", step * 4]);
  for (const key of ["minLength", "maxLength"]) {
    const bound = num(key);
    if (bound !== undefined)
      out.push([`${key}-below`, "a".repeat(Math.max(0, bound - 1))], [`${key}-above`, "b".repeat(bound + 1)], [`${key}-emoji`, "😀".repeat(bound + 1)]);
  }
  for (const key of ["minItems", "maxItems", "minContains", "maxContains"]) {
    const bound = num(key);
    if (bound !== undefined)
      out.push([`${key}-below`, Array.from({ length: Math.max(0, bound - 1) }, (_, i) => i)], [`${key}-above`, Array.from({ length: bound + 1 }, (_, i) => i)]);
  }
  for (const key of ["minProperties", "maxProperties"]) {
    const bound = num(key);
    if (bound !== undefined) {
      const sized = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
      out.push([`${key}-below`, sized(Math.max(0, bound - 1))], [`${key}-above`, sized(bound + 1)]);
    }
  }
  return out;
}

/** Registries for unknown-tool cases: names a model misspells, template debris, long lists. */
function unknownToolCalls(): VectorCall[] {
  const registries: Record<string, string[]> = {
    loans: ["getloan", "listopenloans", "schedulecallback", "createticket", "ls", "get_weather"],
    one: ["getloan"],
    none: [],
    ten: Array.from({ length: 10 }, (_, i) => `tool${i}`),
    eleven: Array.from({ length: 11 }, (_, i) => `tool_${i}`),
    big: [...Array.from({ length: 300 }, (_, i) => `tool_${(i * 7919) % 300}_action`), "cancel_order", "comment", "ls", "lsof", "Ölmenge", "naïve"],
  };
  const sent = [
    ...["getloans", "get_loan", "get-Loan", "GetLoan", "getlon", "list_open_loans", "listopenloan", "schedulecall", "createtickets", "transfer_funds"],
    ...["functions.get_weather", "getloan<|call|>", "ls<|channel|>commentary", "lsx<|end|>", "tools", "x", "", "a".repeat(200), "tool1", "tool_12"],
    ...["cancel-ordr", "Cancel Order", "comment_", "ls -la", "olmenge", "naive", "get weather", "😀", "tool", "TOOL_3"],
  ];
  const out: VectorCall[] = [];
  for (const [name, names] of Object.entries(registries)) {
    const tools = names.map((n) => tool(n, { type: "object" }));
    for (const [i, s] of sent.entries()) out.push({ id: `unknown-tool/${name}/${i}`, tool: s, arguments: i % 3 === 0 ? "{}" : {}, tools });
  }
  return out;
}

function malformedCalls(): VectorCall[] {
  const schemas = [
    FAMILIES[0]!.parameters,
    object({ a: { type: "integer", minimum: 5 }, b: { type: "number" }, c: { type: "boolean" }, d: {} }, { required: ["d", "a", "b", "c"] }),
    object({ e: { enum: ["x"] }, k: { const: 4 }, l: { type: "array" } }, { required: ["e", "k", "l"] }),
    object({ o: { type: ["object", "null"] }, n: { type: "null" }, s: { type: "string" } }, { required: ["o", "n", "s"] }),
    object({ d: { type: "string", default: "now" }, z: { type: "string" } }),
    { type: "object" },
    object({ f: { type: "boolean" }, x: { type: "string", examples: [] }, y: { type: "string", enum: [] } }, { required: ["f", "x", "y"] }),
    object({ a: { type: "integer" } }, { required: [7, "gone", "a"] }),
  ];
  const out: VectorCall[] = [];
  for (const [s, parameters] of schemas.entries()) {
    for (const [i, text] of MALFORMED.entries()) out.push({ id: `malformed/${s}/${i}`, tool: "t", arguments: text, tools: [tool("t", parameters)] });
    for (const [i, value] of [[1, 2], 4471, null, true, "4471"].entries())
      out.push({ id: `malformed/${s}/value${i}`, tool: "t", arguments: value, tools: [tool("t", parameters)] });
  }
  out.push({ id: "malformed/unknown-tool", tool: "nosuch", arguments: "oops", tools: [tool("t", schemas[0]!)] });
  return out;
}

/** Text at the edges of each format the server checks: one call per format and text. */
const FORMAT_EDGES: Record<string, string[]> = {
  date: ["2024-02-29", "2023-02-29", "2026-04-31", "2026-12-31", "0000-01-01", "2026-1-01", "2026-01-01T00:00:00Z", " 2026-01-01", "２０２６-01-01"],
  time: ["23:59:59Z", "23:59:60Z", "22:59:60-01:00", "12:00:00", "12:00:00.123+02:00", "12:00:00+0200", "24:00:00Z", "12:60:00Z", "12:00:00+24:00", "1:00:00Z"],
  "date-time": [
    "2026-10-02T09:30:00Z",
    "2026-10-02t09:30:00z",
    "2026-10-02 09:30:00Z",
    "2026-10-02T09:30:00",
    "2026-10-02T09:30:00.5+05:30",
    "2026-10-02TT09:30:00Z",
    "2026-02-30T09:30:00Z",
  ],
  email: ["a@b.co", "a.b@c.d", "a..b@c.d", ".a@b.c", "a@b", "a@-b.c", "a@b-.c", "a+tag@example.com", "a@b.c.", "ä@b.c", "a @b.c"],
  hostname: ["a", "a.b", "a.b.", "-a", "a-", "a_b", "a".repeat(63), "a".repeat(64), `${"a.".repeat(126)}a`, `${"a.".repeat(127)}a`, "xn--80ak6aa92e.com", ""],
  ipv4: ["0.0.0.0", "255.255.255.255", "256.0.0.0", "01.2.3.4", "1.2.3", "1.2.3.4.5", "1.2.3.04", " 1.2.3.4"],
  ipv6: [
    "::",
    "::1",
    "1::",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "::ffff:192.0.2.1",
    "1:2:3:4:5:6:192.0.2.1",
    "1:2:3:4:5:6:7:192.0.2.1",
    "fe80::1%eth0",
    "12345::",
    "g::1",
    ":1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7::",
  ],
  uuid: [
    "123e4567-e89b-12d3-a456-426614174000",
    "123E4567-E89B-12D3-A456-426614174000",
    "urn:uuid:123e4567-e89b-12d3-a456-426614174000",
    "123e4567e89b12d3a456426614174000",
    "123e4567-e89b-12d3-a456-42661417400",
  ],
  uri: [
    "https://example.com",
    "mailto:a@b.c",
    "urn:isbn:0451450523",
    "http://[::1]:80/x?y#z",
    "/relative/path",
    "example.com",
    "http://exa mple.com",
    "http://example.com/%zz",
    "a:b",
    "1http://x",
  ],
  duration: ["P1D", "PT1H", "P1W", "P1Y2M3DT4H5M6S", "P", "PT", "P1DT", "P1W2D", "1D", "P1.5D"],
  "json-pointer": ["", "/", "/a~0b", "/a~1b", "/a~2b", "a"],
  "relative-json-pointer": ["0", "1/a", "0#", "01", "-1"],
  byte: ["", "YQ==", "YWI=", "YWJj", "YQ", "Y===", "****"],
  regex: ["^a+$", "(", "[a-", "a{2,1}"],
  int32: [],
};

/** Patterns in JavaScript's syntax (as schemas write them) and text to match: RE2 must read them alike on both sides. */
const PATTERN_EDGES: [string, string[]][] = [
  ["^\\d{3}$", ["123", "12a", "١٢٣", "1234"]],
  ["^\\w+$", ["abc_1", "æble", "a b"]],
  ["^\\s*$", ["", " \t", "\u00a0", "x"]],
  ["^\\p{L}+$", ["Æble", "ab1", "日本"]],
  ["^\\p{Lu}", ["Ab", "ab"]],
  // ECMAScript's long property names, which RE2 writes short
  ["^\\p{Letter}+$", ["Æble", "ab1"]],
  ["^\\p{General_Category=Uppercase_Letter}\\P{gc=Nd}$", ["Ab", "A1"]],
  ["^\\p{Script=Greek}+$", ["αβ", "ab"]],
  ["^\\p{sc=Han}$", ["日", "a"]],
  ["^.$", ["😀", "é", "ab", "\n"]],
  ["^[\\u00e0-\\u00ff]+$", ["àé", "a"]],
  ["^\\u{1F600}$", ["😀", "😁"]],
  ["(?<year>\\d{4})-(?<month>\\d{2})", ["2026-10", "26-10"]],
  ["^a/b$", ["a/b", "ab"]],
  ["^\\cJ$", ["\n", "J"]],
  ["^[^]$", ["x", ""]],
  ["^[]", ["x"]],
  ["^\\x41\\-\\.$", ["A-.", "A-x"]],
  ["colou?r", ["my color", "colr"]],
  ["^(a|ab)(c|bcd)(d*)$", ["abcd", "abc"]],
  ["^[A-Z]{2,3}$", ["AB", "ABCD", "ab"]],
  ["\\bword\\b", ["a word here", "swordfish"]],
  ["^\\S+@\\S+$", ["a@b", "a @b"]],
  ["", ["anything"]],
];

function patternEdgeCalls(): VectorCall[] {
  const out: VectorCall[] = [];
  for (const [p, [pattern, texts]] of PATTERN_EDGES.entries()) {
    const parameters = object({ v: { type: "string", pattern } });
    for (const [i, text] of texts.entries()) out.push({ id: `pattern/${p}/${i}`, tool: "t", arguments: { v: text }, tools: [tool("t", parameters)] });
    const keyed = { type: "object", patternProperties: { [pattern]: { type: "integer" } }, additionalProperties: false };
    for (const [i, text] of texts.entries()) out.push({ id: `pattern/${p}/key${i}`, tool: "t", arguments: { [text]: "1" }, tools: [tool("t", keyed)] });
  }
  return out;
}

/** Lists with duplicates where the pair Ajv names depends on how it searches (by item type, or every pair). */
function duplicateCalls(): VectorCall[] {
  const unique = FAMILIES.find((f) => f.name === "unique")!.parameters;
  const lists: Record<string, unknown[][]> = {
    s: [
      ["a", "b", "b", "a"],
      ["a", "a", "b", "b"],
      ["x", 1, "x", 1],
    ],
    n: [
      ["1", 1, 2, "2", 1],
      [1, "1", 1.0],
      [true, true, 1, 1],
    ],
    o: [
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [{}, 1, {}],
    ],
    a: [
      [1, 1.0],
      [[1], [1]],
      [{ x: null }, { x: null }, 1],
      ["a", "b", "b", "a"],
      [null, false, null],
    ],
  };
  const out: VectorCall[] = [];
  for (const [name, cases] of Object.entries(lists))
    for (const [i, list] of cases.entries())
      out.push({ id: `duplicates/${name}/${i}`, tool: "unique", arguments: { [name]: list }, tools: [tool("unique", unique)] });
  return out;
}

function formatEdgeCalls(): VectorCall[] {
  const out: VectorCall[] = [];
  for (const [format, texts] of Object.entries(FORMAT_EDGES)) {
    const parameters = object({ v: { type: "string", format } });
    const numeric = object({ n: { type: "number", format } });
    for (const [i, text] of texts.entries()) out.push({ id: `format/${format}/${i}`, tool: "t", arguments: { v: text }, tools: [tool("t", parameters)] });
    for (const [i, n] of [2147483647, 2147483648, -2147483649, 1.5, 9007199254740991, 1e300].entries())
      out.push({ id: `format/${format}/number${i}`, tool: "t", arguments: { n }, tools: [tool("t", numeric)] });
  }
  for (const format of ["int32", "int64", "float", "double"]) {
    const numeric = object({ n: { type: "number", format } });
    for (const [i, n] of [2147483647, 2147483648, -2147483648, -2147483649, 1.5, 9007199254740991, 1e300, 0].entries())
      out.push({ id: `format/${format}/number${i}`, tool: "t", arguments: { n }, tools: [tool("t", numeric)] });
  }
  return out;
}

function schemaErrorCalls(): VectorCall[] {
  const broken = [
    { $schema: "http://json-schema.org/draft-04/schema#", type: "object" },
    { $schema: 7, type: "object" },
    { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
    { type: "object", properties: { a: { type: "string", pattern: "(a)\\1" } } },
    { type: "object", properties: { a: { type: "string", pattern: "^(?=a)" } } },
    { type: "object", properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`p${i}`, { type: "string" }])) },
  ];
  return broken.map((parameters, i) => ({ id: `schema-error/${i}`, tool: "t", arguments: { a: "aa" }, tools: [tool("t", parameters)] }));
}

/**
 * Families made of the classifier tests' own valid calls: their schemas and arguments, mutated as
 * FAMILIES are (the first valid call of each schema).
 */
function pinnedFamilies(pinned: VectorCall[]): Family[] {
  const seen = new Set<string>();
  const out: Family[] = [];
  for (const call of pinned) {
    const entry = call.tools.find((t) => t.name === call.tool);
    const args = call.arguments;
    if (!entry || seen.has(entry.version) || !args || typeof args !== "object" || Array.isArray(args) || Object.keys(args).length === 0) continue;
    const verdict = verdictOf({ ...call, arguments: args });
    if ("throws" in verdict || !verdict.valid) continue;
    seen.add(entry.version);
    out.push({ name: call.tool, parameters: entry.parameters, seeds: [args] });
  }
  return out;
}

function familyCalls(families: Family[], prefix: string): VectorCall[] {
  const out: VectorCall[] = [];
  for (const [f, family] of families.entries()) {
    const variants: [string, object][] = family.bothDrafts
      ? [
          ["2020-12", withDraft(family.parameters, D2020)],
          ["draft-07", withDraft(family.parameters, D7)],
          ["implicit", family.parameters],
          // closed: arguments the schema does not name are refused
          ["closed", { ...family.parameters, additionalProperties: false }],
        ]
      : [["as-written", family.parameters]];
    for (const [variant, parameters] of variants) {
      const tools = [tool(family.name, parameters)];
      for (const { label, args } of mutations(family, 1000 * f))
        out.push({ id: `${prefix}/${family.name}/${variant}/${label}`, tool: family.name, arguments: args, tools });
    }
  }
  return out;
}

function verdictCaseCalls(): VectorCall[] {
  const tools = CASE_TOOLS.map((t) => tool(t.name, t.parameters));
  return VERDICT_CASES.map((c) => ({ id: `sdk-verdict-cases/${c.name}`, tool: c.tool, arguments: c.arguments, tools }));
}

/** The calls of the classifier's own tests, as `npm run vectors` captured them (one JSON object a line). */
function pinnedCalls(text: string): VectorCall[] {
  const seen = new Set<string>();
  const out: VectorCall[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim() || seen.has(line)) continue;
    seen.add(line);
    const call = JSON.parse(line) as Omit<VectorCall, "id">;
    out.push({ id: `classify.test/${out.length}`, ...call });
  }
  return out;
}

function verdictOf(call: VectorCall): Expected {
  try {
    const verdict = classifyCall({ tool: call.tool, arguments: call.arguments, registry: registryFrom(call.tools) });
    // the order of a verdict's fields, so that the file reads the same whatever order classifyCall builds them in
    const { valid, category, path, message, violations } = verdict;
    return { valid, ...(category ? { category } : {}), ...(path ? { path } : {}), ...(message ? { message } : {}), violations };
  } catch (error) {
    if (error instanceof ToolSchemaError) return { throws: "ToolSchemaError", message: error.message };
    throw error;
  }
}

/** Every vector: the calls and the TypeScript classifier's verdicts on them. */
export function buildVectors(pinned: string): Vector[] {
  const pinnedOnes = pinnedCalls(pinned);
  const calls = [
    ...pinnedOnes,
    ...verdictCaseCalls(),
    ...unknownToolCalls(),
    ...malformedCalls(),
    ...schemaErrorCalls(),
    ...formatEdgeCalls(),
    ...duplicateCalls(),
    ...patternEdgeCalls(),
    ...familyCalls(FAMILIES, "family"),
    ...familyCalls(pinnedFamilies(pinnedOnes), "classify.test-family"),
  ];
  return calls.map((call) => {
    const parameters = call.tools.find((t) => t.name === call.tool)?.parameters as Record<string, unknown> | undefined;
    const draft = parameters ? (schemaDraft(parameters) ?? null) : null;
    return { ...call, draft, expected: verdictOf(call) };
  });
}

/**
 * The file's text, one JSON object a line: a registry line (`{"registry": id, "tools": [...]}`)
 * before the first vector that uses it, then vectors naming it (`"registry": id` instead of `tools`).
 */
export function vectorsText(vectors: Vector[]): string {
  const ids = new Map<string, string>();
  const lines: string[] = [];
  for (const { tools, ...vector } of vectors) {
    const text = JSON.stringify(tools);
    let id = ids.get(text);
    if (!id) {
      id = `r${ids.size}`;
      ids.set(text, id);
      lines.push(JSON.stringify({ registry: id, tools }));
    }
    lines.push(JSON.stringify({ ...vector, registry: id }));
  }
  return lines.join("\n") + "\n";
}

export const VECTORS_FILE = "test/vectors/classifier.jsonl";
export const PINNED_FILE = "test/vectors/pinned-calls.jsonl";

import { Ajv, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019";
import { Ajv2020 } from "ajv/dist/2020";
import draft6MetaSchema from "ajv/dist/refs/json-schema-draft-06.json";
import AjvDraft04 from "ajv-draft-04";
import type AjvCore from "ajv/dist/core";
import type { RegExpEngine } from "ajv/dist/types";
import { RE2JS } from "re2js";
import { pathOf, preview, truncate, unstorableText, walkJson, type JsonNode } from "../contracts/json-walk";
import { linearFormats } from "./formats";
import { withoutDynamicRefs } from "./dynamic-scope";
import { eachSubschema, isPlainObject, SUBSCHEMA, SUBSCHEMA_LIST, SUBSCHEMA_MAP, type JsonObject } from "./schema-keywords";
import { formatCount } from "../contracts/format-number";

export { isPlainObject, type JsonObject };

export { truncate };

export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: JsonObject;
}

export type NormalizeResult = { ok: true; tool: ToolDefinition } | { ok: false; message: string };
export type SchemaCheck = { ok: true } | { ok: false; message: string };

export type SchemaDraft = "2020-12" | "2019-09" | "draft-07" | "draft-06" | "draft-04";

/** Each draft's meta-schema, as `$schema` names it; schemaDraft reads the drafts in this order. */
const META_SCHEMA: Record<SchemaDraft, string> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "draft-06": "http://json-schema.org/draft-06/schema#",
  "draft-04": "http://json-schema.org/draft-04/schema#",
};

/** The drafts a tool's schema may name, as refusals list them. */
const DRAFT_NAMES = Object.keys(META_SCHEMA);
export const SUPPORTED_DRAFTS_TEXT = `${DRAFT_NAMES.slice(0, -1).join(", ")} or ${DRAFT_NAMES.at(-1)}`;

/** The drafts whose `$ref` stands alone (the keywords beside it are ignored), and the keywords each lacks that a later draft added (ignored as unknown). */
const OLDER_DRAFTS = {
  "draft-07": new Set<string>(),
  "draft-06": new Set(["if", "then", "else"]),
  "draft-04": new Set(["if", "then", "else", "const", "contains", "propertyNames"]),
} as const satisfies Partial<Record<SchemaDraft, ReadonlySet<string>>>;
const isOlderDraft = (draft: SchemaDraft): draft is keyof typeof OLDER_DRAFTS => Object.hasOwn(OLDER_DRAFTS, draft);

const SHAPES =
  'Send {"name", "description", "parameters"}, an OpenAI tool {"type": "function", "function": {"name", "description", "parameters"}}, an Anthropic tool {"name", "description", "input_schema"} or an MCP tool {"name", "description", "inputSchema"}.';

/** The keys a tool's JSON Schema goes under, in the shapes accepted: ours and OpenAI's, Anthropic's, MCP's. */
export const SCHEMA_KEYS = ["parameters", "input_schema", "inputSchema"] as const;

/** How every message names a JSON Schema type: "must be a whole number", "a string where a number is required". */
export const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "a boolean (true or false)",
  object: "an object",
  array: "an array",
  null: "null",
};

/** A short, human description of any value, for "you sent …". */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return `the array ${preview(value)}`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    return keys.length === 0 ? "an empty object" : `an object with keys ${truncate(keys.join(", "))}`;
  }
  if (typeof value === "string") return `the string ${preview(value)}`;
  return `the ${typeof value} ${truncate(String(value))}`;
}

/** The longest tool name a schema can be registered under. */
export const TOOL_NAME_MAX = 128;

/**
 * Accepts our shape {name, description?, parameters}, OpenAI Chat Completions
 * {type: "function", function: {…}}, OpenAI Responses {type: "function", name, …},
 * Anthropic {name, description, input_schema} and MCP (`tools/list`) {name, description, inputSchema}.
 */
export function normalizeToolInput(input: unknown): NormalizeResult {
  const fail = (message: string): NormalizeResult => ({ ok: false, message });
  if (!isPlainObject(input)) return fail(`Error: a tool must be a JSON object, you sent ${describeValue(input)}. ${SHAPES}`);

  const { type } = input;
  if (type !== undefined && type !== "function" && type !== "custom") {
    return fail(`Error: only function tools with a JSON Schema can be registered, you sent type ${preview(type)}. ${SHAPES}`);
  }
  const nested = type === "function" && "function" in input;
  if (nested && !isPlainObject(input.function)) {
    return fail(`Error: 'function' must be an object, you sent ${describeValue(input.function)}. ${SHAPES}`);
  }
  const source = nested ? (input.function as JsonObject) : input;
  const prefix = nested ? "function." : "";

  const { name, description } = source;
  if (typeof name !== "string" || name.trim() === "" || name.length > TOOL_NAME_MAX) {
    return fail(
      `Error: '${prefix}name' must be a string of 1 to ${TOOL_NAME_MAX} characters, you sent ${describeValue(name)}. Give the tool a name such as "getloan".`,
    );
  }
  if (description !== undefined && typeof description !== "string") {
    return fail(`Error: '${prefix}description' must be a string, you sent ${describeValue(description)}. Send a plain-text description or leave it out.`);
  }
  for (const [field, text] of [
    ["name", name],
    ["description", description ?? ""],
  ] as const) {
    const problem = unstorableText(text);
    if (problem) return fail(`Error: '${prefix}${field}' ${preview(text)} ${problem}.`);
  }

  const schemaKey = SCHEMA_KEYS.find((key) => key in source) ?? "parameters";
  let parameters = source[schemaKey];
  // OpenAI documents that leaving out `parameters` declares a tool without arguments.
  if (parameters === undefined && type === "function") parameters = { type: "object", properties: {} };
  if (!isPlainObject(parameters)) {
    return fail(
      `Error: '${prefix}${schemaKey}' of tool '${truncate(name)}' must be a JSON Schema object, you sent ${describeValue(parameters)}. Send a schema such as {"type": "object", "properties": {"loannumber": {"type": "string"}}}.`,
    );
  }
  return { ok: true, tool: { name, ...(description === undefined ? {} : { description }), parameters } };
}

/**
 * Deterministic JSON: object keys sorted at every level, array order kept. Without recursion, so
 * that a value nested 100,000 levels deep (a schema before its depth is checked) gets its text
 * rather than overflowing the stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // what is left to write, last first: a value, or text as it is
  const pending: ({ value: unknown } | string)[] = [{ value }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === "string") {
      out.push(next);
      continue;
    }
    const current = next.value;
    const parts: ({ value: unknown } | string)[] = [];
    if (Array.isArray(current)) {
      current.forEach((item, i) => parts.push(i ? "," : "[", item === undefined ? "null" : { value: item }));
      parts.push(current.length ? "]" : "[]");
    } else if (isPlainObject(current)) {
      const keys = Object.keys(current)
        .filter((key) => current[key] !== undefined)
        .sort();
      keys.forEach((key, i) => parts.push(`${i ? "," : "{"}${JSON.stringify(key)}:`, { value: current[key] }));
      parts.push(keys.length ? "}" : "{}");
    } else {
      out.push(JSON.stringify(current) ?? "null");
    }
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  return out.join("");
}

/** JSON Schema's annotation keywords: they describe a value, no validator reads them. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"]);
/** The schema without its annotations, at every level: what validation depends on (a property named "description" stays). */
function withoutAnnotations(schema: unknown): unknown {
  return eachSubschema(schema, (subschema) => Object.fromEntries(Object.entries(subschema).filter(([key]) => !ANNOTATIONS.has(key))));
}

/**
 * Whether two schemas can give a call a different verdict: false when they differ only in
 * annotations (descriptions, titles, examples…), which no validator reads.
 */
export function validationDiffers(before: unknown, after: unknown): boolean {
  return canonicalJson(withoutAnnotations(before)) !== canonicalJson(withoutAnnotations(after));
}

/** The draft a schema asks for; 2020-12 when it says nothing; undefined when we do not support it. */
export function schemaDraft(parameters: JsonObject): SchemaDraft | undefined {
  const declared = parameters.$schema;
  if (declared === undefined) return "2020-12";
  if (typeof declared !== "string") return undefined;
  if (declared.includes("2020-12")) return "2020-12";
  if (declared.includes("2019-09")) return "2019-09";
  if (declared.includes("draft-07")) return "draft-07";
  if (declared.includes("draft-06")) return "draft-06";
  if (declared.includes("draft-04")) return "draft-04";
  return undefined;
}

const utf8 = new TextEncoder();

/** jsonb's order of object keys: shorter (in UTF-8 bytes) first, then byte by byte. */
function jsonbKeyOrder(a: string, b: string): number {
  const [x, y] = [utf8.encode(a), utf8.encode(b)];
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/**
 * The value with its object keys in the order PostgreSQL's jsonb keeps them, which is the order a
 * stored schema comes back in. The classifier compiles every schema in this order, so that its
 * findings and messages ("Allowed: …", which of two errors comes first) do not depend on how the
 * schema was written or whether it came from the database or from the harness (the SDK).
 */
export function storedKeyOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(storedKeyOrder) as T;
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value).sort(jsonbKeyOrder);
  return Object.fromEntries(keys.map((key) => [key, storedKeyOrder(value[key])])) as T;
}

/**
 * The schema as Ajv should compile it: synchronous, `$schema` spelled the one way Ajv knows (http
 * vs https, trailing #), keys in stored order.
 */
export function schemaForAjv(parameters: JsonObject, draft: SchemaDraft): JsonObject {
  const { $async: _async, ...ordered } = storedKeyOrder(parameters);
  const annotations = JSON.stringify(ordered).includes('"unevaluated');
  const rewritten = eachSubschema(ordered, (subschema, resource) =>
    protoByPattern(
      isOlderDraft(draft) ? refAlone(withoutKeywords(subschema, OLDER_DRAFTS[draft])) : refsAsSpecified(ifAnnotations(subschema, annotations), resource, draft),
    ),
  ) as JsonObject;
  const resolved = draft === "2020-12" ? (withoutDynamicRefs(rewritten) ?? rewritten) : rewritten;
  return parameters.$schema === undefined ? resolved : { ...resolved, $schema: META_SCHEMA[draft] };
}

/**
 * Where Ajv 8 resolves a reference of 2019-09 or 2020-12 otherwise than the specification, the
 * subschema rewritten into an equivalent one Ajv resolves right (`resource` is the schema resource
 * around it: the nearest schema with an `$id`, or the root; `$dynamicRef` is withoutDynamicRefs'):
 * - a `$recursiveRef` whose resource has no `"$recursiveAnchor": true` is a plain `$ref`, where Ajv
 *   followed it into the dynamic scope;
 * - a `$ref` beside an `$id` is resolved against that `$id`, which Ajv did not (it recursed without
 *   end): it moves into `allOf`, which 2019-09 and 2020-12 evaluate alike.
 */
function refsAsSpecified(schema: JsonObject, resource: JsonObject, draft: "2019-09" | "2020-12"): JsonObject {
  const refs: string[] = [];
  const rest = { ...schema };
  if (typeof schema.$ref === "string") refs.push(schema.$ref);
  if (draft === "2019-09" && schema.$recursiveRef === "#" && resource.$recursiveAnchor !== true) {
    refs.push("#");
    delete rest.$recursiveRef;
  }
  const moved = refs.length > (typeof schema.$ref === "string" ? 1 : 0);
  if (!moved && (typeof schema.$id !== "string" || !refs.length)) return schema;
  delete rest.$ref;
  const [first, ...others] = typeof schema.$id === "string" ? [undefined, ...refs] : refs;
  const allOf = [...(Array.isArray(schema.allOf) ? schema.allOf : []), ...others.map(($ref) => ({ $ref }))];
  return { ...rest, ...(first === undefined ? {} : { $ref: first }), ...(allOf.length ? { allOf } : {}) };
}

/**
 * Ajv keeps the properties and items an `if` evaluated even when the `if` fails, and drops them when
 * the `if` has neither `then` nor `else`, where the specification keeps them exactly when the `if`
 * passes. Where unevaluatedProperties or unevaluatedItems read them (`annotations`), the `if` is
 * tested through a double `not` (which keeps nothing) and an `anyOf` beside it keeps what it
 * evaluated when it passes.
 */
function ifAnnotations(schema: JsonObject, annotations: boolean): JsonObject {
  if (!annotations || schema.if === undefined) return schema;
  const allOf = [...(Array.isArray(schema.allOf) ? schema.allOf : []), { anyOf: [schema.if, true] }];
  return { ...schema, if: { not: { not: schema.if } }, allOf };
}

/**
 * Draft 07 ignores every keyword beside `$ref` (2019-09 and 2020-12 apply them), where Ajv applies
 * them in every draft: a subschema with a `$ref` keeps only it, and `definitions` for the
 * references into it.
 */
/**
 * The subschema without the keywords its draft does not have: Ajv's draft-07 vocabulary (which
 * draft-06 uses, and ajv-draft-04 too for its applicators) would apply `if` or `contains` in a
 * schema whose draft ignores them as unknown.
 */
function withoutKeywords(schema: JsonObject, unknown: ReadonlySet<string>): JsonObject {
  if (!Object.keys(schema).some((key) => unknown.has(key))) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !unknown.has(key)));
}

function refAlone(schema: JsonObject): JsonObject {
  if (typeof schema.$ref !== "string") return schema;
  return { $ref: schema.$ref, ...(isPlainObject(schema.definitions) ? { definitions: schema.definitions } : {}) };
}

/**
 * Ajv leaves a property named `__proto__` out of `properties` (it guards its own objects against
 * prototype pollution); the same rule as a pattern (`^__proto__$`) applies to the same property, and
 * counts it as known for additionalProperties and unevaluatedProperties as `properties` would.
 */
function protoByPattern(schema: JsonObject): JsonObject {
  if (!isPlainObject(schema.properties) || !Object.hasOwn(schema.properties, "__proto__")) return schema;
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([key]) => key !== "__proto__"));
  const patterns = isPlainObject(schema.patternProperties) ? schema.patternProperties : {};
  const rule = schema.properties.__proto__;
  const merged = Object.hasOwn(patterns, "^__proto__$") ? { allOf: [patterns["^__proto__$"], rule] } : rule;
  return { ...schema, properties, patternProperties: Object.fromEntries([...Object.entries(patterns), ["^__proto__$", merged]]) };
}

/**
 * Ajv's engine for `pattern` and `patternProperties`: RE2 instead of the backtracking RegExp, so
 * matching takes time linear in the input whatever the pattern (with RegExp, `^(a+)+$` against 40
 * a's and a "!" held the event loop for over a minute). The RE2 port is re2js, plain JavaScript:
 * it installs offline with `npm ci` and loads no native addon (`re2`) or WebAssembly (`re2-wasm`),
 * so the same check runs on the server, in the browser, in edge runtimes, Bun and Deno, wherever
 * the SDK runs. RE2 always matches by code point, as RegExp's `u` flag (Ajv's default) does.
 * Throws (RE2JSSyntaxException…) for what RE2 cannot run: backreferences and lookaround.
 */
const re2Engine: RegExpEngine = Object.assign((pattern: string) => RE2JS.compile(RE2JS.translateRegExp(withShortPropertyNames(pattern))), {
  code: "re2js",
});

/** ECMAScript's long names of Unicode general categories, and RE2's (short) ones. */
const GENERAL_CATEGORIES: Record<string, string> = {
  ...{ Letter: "L", Uppercase_Letter: "Lu", Lowercase_Letter: "Ll", Titlecase_Letter: "Lt", Modifier_Letter: "Lm", Other_Letter: "Lo" },
  ...{ Mark: "M", Combining_Mark: "M", Nonspacing_Mark: "Mn", Spacing_Mark: "Mc", Enclosing_Mark: "Me" },
  ...{ Number: "N", Decimal_Number: "Nd", digit: "Nd", Letter_Number: "Nl", Other_Number: "No" },
  ...{ Punctuation: "P", punct: "P", Connector_Punctuation: "Pc", Dash_Punctuation: "Pd", Open_Punctuation: "Ps", Close_Punctuation: "Pe" },
  ...{ Initial_Punctuation: "Pi", Final_Punctuation: "Pf", Other_Punctuation: "Po" },
  ...{ Symbol: "S", Math_Symbol: "Sm", Currency_Symbol: "Sc", Modifier_Symbol: "Sk", Other_Symbol: "So" },
  ...{ Separator: "Z", Space_Separator: "Zs", Line_Separator: "Zl", Paragraph_Separator: "Zp" },
  ...{ Other: "C", Control: "Cc", cntrl: "Cc", Format: "Cf", Surrogate: "Cs", Private_Use: "Co", Unassigned: "Cn" },
};

/**
 * `\p{Letter}`, `\p{General_Category=Letter}`, `\p{gc=L}`, `\p{Script=Greek}` and `\p{sc=Greek}` as
 * RE2 writes them (`\p{L}`, `\p{Greek}`); every other escape is left as it is.
 */
function withShortPropertyNames(pattern: string): string {
  return pattern.replace(/\\(?:([pP])\{([^}]*)\}|[\s\S])/g, (escape: string, p?: string, name?: string) => {
    if (p === undefined || name === undefined) return escape;
    const [key, value] = name.includes("=") ? name.split("=", 2) : [undefined, name];
    const short =
      key === "Script" || key === "sc"
        ? value
        : key === undefined || key === "General_Category" || key === "gc"
          ? (GENERAL_CATEGORIES[value!] ?? value)
          : undefined;
    return short === undefined ? escape : `\\${p}{${short}}`;
  });
}

export function createAjv(draft: SchemaDraft, options: Options = {}): AjvCore {
  // ownProperties: `required: ["toString"]` must not be satisfied by what {} inherits.
  const all: Options = { strict: false, logger: false, ownProperties: true, inlineRefs: false, code: { regExp: re2Engine }, ...options };
  const ajv =
    draft === "draft-04"
      ? new AjvDraft04(all)
      : draft === "draft-07" || draft === "draft-06"
        ? new Ajv(all)
        : draft === "2019-09"
          ? new Ajv2019(all)
          : new Ajv2020(all);
  if (draft === "draft-06") ajv.addMetaSchema(draft6MetaSchema);
  // ajv-formats' formats, each checked in time linear in the value (isomorphic/formats.ts)
  for (const [name, format] of Object.entries(linearFormats())) ajv.addFormat(name, format);
  return ajv;
}

/** What one tool schema may cost; docs/limits.md has the measurements behind these numbers. */
export const SCHEMA_LIMITS = {
  /** Bytes of the schema's canonical JSON. */
  bytes: 64 * 1024,
  /** Nesting of objects and arrays in the schema document. */
  depth: 64,
  /** Schemas within the schema: each property, item, anyOf branch, $defs entry… */
  subschemas: 500,
} as const;

type Role = "schema" | "list" | "map" | undefined;

function roleOf(node: JsonNode): Role {
  const parent = node.parent;
  if (!parent) return "schema";
  if (parent.tag === "list" || parent.tag === "map") return "schema";
  if (parent.tag !== "schema" || typeof node.key !== "string") return undefined;
  if (SUBSCHEMA_LIST.has(node.key) && Array.isArray(node.value)) return "list";
  if (SUBSCHEMA_MAP.has(node.key) && isPlainObject(node.value)) return "map";
  return SUBSCHEMA.has(node.key) ? "schema" : undefined;
}

/** `#/properties/code/pattern`: where in the schema, as a JSON Pointer (control characters and lone surrogates escaped as in JSON). */
function pointer(node: JsonNode, ...more: string[]): string {
  const keys = [...pathOf(node).map(String), ...more];
  return `#${keys.map((key) => `/${JSON.stringify(key.replace(/~/g, "~0").replace(/\//g, "~1")).slice(1, -1)}`).join("")}`;
}

function patternProblem(pattern: string, at: string): string | undefined {
  try {
    re2Engine(pattern, "u");
    return undefined;
  } catch (error) {
    try {
      new RegExp(pattern, "u"); // compiling only: RegExp backtracks when matching, not here
    } catch (syntax) {
      return `Error: the pattern ${preview(pattern)} at ${at} is not a valid regular expression: ${syntax instanceof Error ? syntax.message : String(syntax)}. Fix the pattern and register the tool again.`;
    }
    const reason = error instanceof Error ? error.message : String(error);
    return (
      `Error: the pattern ${preview(pattern)} at ${at} cannot be used (RE2 says: ${reason}). Toolgate matches patterns with RE2, which takes time ` +
      `linear in the input and therefore has no backreferences (\\1, \\k<name>) and no lookaround ((?=…), (?!…), (?<=…), (?<!…)). ` +
      `Rewrite the pattern without them, or leave it out and check that rule in the tool itself.`
    );
  }
}

/**
 * Whether one schema stays within SCHEMA_LIMITS, holds only text PostgreSQL can store, and has
 * only patterns RE2 can run. Walks the schema without recursion and before Ajv sees it, so a
 * schema nested 100,000 levels deep is refused rather than overflowing the stack.
 */
export function checkSchemaCost(parameters: JsonObject): { ok: true; bytes: number } | { ok: false; message: string } {
  const fix = "Fix the schema and register the tool again.";
  let problem: string | undefined;
  let subschemas = 0;
  walkJson(parameters, (node) => {
    const role = roleOf(node);
    node.tag = role;
    if (node.depth > SCHEMA_LIMITS.depth) {
      problem = `Error: parameters is nested more than ${SCHEMA_LIMITS.depth} levels deep (objects and arrays) at ${pointer(node)}. Flatten the schema, or define repeated parts once in $defs and refer to them with $ref.`;
      return "stop";
    }
    const text = typeof node.key === "string" ? unstorableText(node.key) : undefined;
    const valueText = typeof node.value === "string" ? unstorableText(node.value) : undefined;
    if (text || valueText) {
      problem = `Error: ${text ? `the key ${preview(node.key)}` : `the string ${preview(node.value)}`} at ${pointer(node)} ${text ?? valueText}. ${fix}`;
      return "stop";
    }
    if (role !== "schema" || !(isPlainObject(node.value) || typeof node.value === "boolean")) return true;
    if (++subschemas > SCHEMA_LIMITS.subschemas) {
      problem = `Error: parameters holds more than ${SCHEMA_LIMITS.subschemas} schemas (each property, item, anyOf branch and $defs entry counts; the ${SCHEMA_LIMITS.subschemas + 1}th is at ${pointer(node)}). Split the tool into smaller tools, or define repeated parts once in $defs and refer to them with $ref.`;
      return "stop";
    }
    const schema = node.value;
    if (!isPlainObject(schema)) return true;
    if (typeof schema.pattern === "string") problem = patternProblem(schema.pattern, pointer(node, "pattern"));
    if (!problem && isPlainObject(schema.patternProperties)) {
      for (const key of Object.keys(schema.patternProperties)) {
        problem = patternProblem(key, pointer(node, "patternProperties", key));
        if (problem) break;
      }
    }
    return problem ? "stop" : true;
  });
  if (problem) return { ok: false, message: problem };
  const bytes = new TextEncoder().encode(canonicalJson(parameters)).length;
  if (bytes > SCHEMA_LIMITS.bytes) {
    return {
      ok: false,
      message: `Error: parameters is ${formatCount(bytes)} bytes as JSON; a schema may be at most ${formatCount(SCHEMA_LIMITS.bytes)} bytes. Shorten descriptions and examples, split the tool into smaller tools, or define repeated parts once in $defs.`,
    };
  }
  return { ok: true, bytes };
}

/**
 * One Ajv per draft that only checks schemas against their meta-schema (validateSchema adds
 * nothing to the instance): compiling the meta-schema itself takes about 20 ms, which a new
 * instance per check paid each time (docs/PERFORMANCE.md).
 */
const metaValidators = new Map<SchemaDraft, AjvCore>();
function metaValidator(draft: SchemaDraft): AjvCore {
  let ajv = metaValidators.get(draft);
  if (!ajv) metaValidators.set(draft, (ajv = createAjv(draft)));
  return ajv;
}

/** Is `parameters` a JSON Schema (draft 2020-12, 2019-09, 07, 06 or 04) that an object of arguments can satisfy? */
export function checkJsonSchema(parameters: unknown): SchemaCheck {
  const fail = (message: string): SchemaCheck => ({ ok: false, message });
  const fix = "Fix the schema and register the tool again.";
  if (!isPlainObject(parameters)) {
    return fail(
      `Error: parameters must be a JSON Schema object, you sent ${describeValue(parameters)}. Send a schema such as {"type": "object", "properties": {…}}.`,
    );
  }
  const cost = checkSchemaCost(parameters);
  if (!cost.ok) return cost;
  const draft = schemaDraft(parameters);
  if (!draft) {
    return fail(
      `Error: '$schema' must name JSON Schema draft ${SUPPORTED_DRAFTS_TEXT}, you sent ${preview(parameters.$schema)}. Use "${META_SCHEMA["2020-12"]}" or leave '$schema' out.`,
    );
  }

  const schema = schemaForAjv(parameters, draft);
  const meta = metaValidator(draft);
  if (!(meta.validateSchema(schema) as boolean)) {
    return fail(`Error: parameters is not a valid JSON Schema (draft ${draft}): ${meta.errorsText(meta.errors, { dataVar: "parameters" })}. ${fix}`);
  }
  const noObject = noObjectAccepted(parameters);
  if (noObject)
    return fail(`Error: parameters must describe an object of arguments, you sent ${noObject}. Use {"type": "object", "properties": {…}} at the top level.`);
  try {
    // a fresh instance, so that the schema's $id never meets another's; checked against its meta-schema above.
    // Compiled as the classifier compiles it, and tried once on an empty object: a schema whose
    // evaluation never ends shows it here, not when the first call is checked.
    createAjv(draft, CLASSIFIER_OPTIONS).compile(schema)({});
  } catch (error) {
    return fail(`Error: parameters cannot be ${error instanceof RangeError ? "evaluated" : "compiled"}: ${evaluationProblem(error)}. ${fix}`);
  }
  return { ok: true };
}

/** How the classifier compiles every schema: all errors, with the failing values (classify.ts explains them). */
export const CLASSIFIER_OPTIONS: Options = { allErrors: true, verbose: true, validateSchema: false };

/** What went wrong compiling or evaluating a schema, in words a user can act on. */
export function evaluationProblem(error: unknown): string {
  if (error instanceof RangeError) {
    return (
      "evaluating it recurses without end (a $ref, $dynamicRef or $recursiveRef cycle that never reaches a keyword reading the arguments) " +
      "or deeper than Toolgate can follow"
    );
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why no object of arguments can satisfy the schema, read from what every object must satisfy:
 * the root, its `allOf` branches and the local `$ref`s (`#/…`) they name, followed without
 * recursion and each once. undefined when an object may satisfy it: any other root keywords
 * (`anyOf`, `$dynamicRef`, no `type` at all…) are accepted, so that every JSON Schema an object can
 * satisfy registers, whatever its root looks like.
 */
function noObjectAccepted(parameters: JsonObject): string | undefined {
  const seen = new Set<unknown>();
  const pending: { schema: unknown; at: string }[] = [{ schema: parameters, at: "" }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { schema, at } = next;
    if (seen.has(schema)) continue;
    seen.add(schema);
    const where = at ? ` at ${at}` : "";
    if (schema === false) return `a schema that accepts nothing${where}`;
    if (!isPlainObject(schema)) continue;
    const types = [schema.type].flat();
    if (schema.type !== undefined && !types.includes("object")) return `type ${preview(schema.type)}${where}`;
    if (Object.hasOwn(schema, "const") && !isPlainObject(schema.const)) return `const ${preview(schema.const)}${where}`;
    if (Array.isArray(schema.enum) && !schema.enum.some(isPlainObject)) return `an enum of no object ${preview(schema.enum)}${where}`;
    if (Array.isArray(schema.allOf)) schema.allOf.forEach((branch, i) => pending.push({ schema: branch, at: `${at || "#"}/allOf/${i}` }));
    if (typeof schema.$ref === "string" && schema.$ref.startsWith("#/")) {
      const target = resolvePointer(parameters, schema.$ref);
      if (target !== undefined) pending.push({ schema: target, at: schema.$ref });
    }
  }
  return undefined;
}

/** The value a local JSON Pointer (`#/$defs/a~1b`) names in the document, or undefined. */
function resolvePointer(document: unknown, ref: string): unknown {
  let value = document;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(key)) value = value[Number(key)];
    else if (isPlainObject(value) && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

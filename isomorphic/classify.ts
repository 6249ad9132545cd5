import type { ErrorObject, ValidateFunction } from "ajv";
import type AjvCore from "ajv/dist/core";
import { categoryRank, type Category } from "../contracts/categories";
import { joinPath } from "../contracts/json-path";
import { preview } from "../contracts/json-walk";
import { closeMatch, likelyTool, rankToolNames } from "./tool-names";
import {
  checkSchemaCost,
  CLASSIFIER_OPTIONS,
  createAjv,
  evaluationProblem,
  describeValue,
  isPlainObject,
  schemaDraft,
  schemaForAjv,
  storedKeyOrder,
  truncate,
  TYPE_WORDS,
  type JsonObject,
} from "./tool-schema";

export interface RegisteredTool {
  name: string;
  version: string;
  parameters: object;
}

export interface ToolRegistry {
  names: string[];
  get(name: string): { version: string; parameters: object } | undefined;
}

export interface Violation {
  category: Category;
  /** Human path of the offending value: `loannumber`, `filters.status`, `items[2].qty`; "" for the whole call. */
  path: string;
  message: string;
  /** The JSON Schema keyword that failed, or `json` (malformed arguments) / `tool` (unknown tool). */
  keyword: string;
}

export interface Verdict {
  valid: boolean;
  category?: Category;
  message?: string;
  path?: string;
  violations: Violation[];
}

/** The tool's stored schema cannot be compiled, or evaluated on one call's arguments: the call is not checked. */
export class ToolSchemaError extends Error {
  override name = "ToolSchemaError";
}

export function registryFrom(tools: RegisteredTool[]): ToolRegistry {
  const byName = new Map(tools.map((tool) => [tool.name, tool] as const));
  return { names: [...byName.keys()], get: (name) => byName.get(name) };
}

/**
 * The verdict on one tool request. Never yields `not_allowed`: that is a policy decision only the
 * harness can make. Throws ToolSchemaError when the registered schema cannot be compiled, or cannot
 * be evaluated on these arguments.
 */
export function classifyCall(input: { tool: string; arguments: unknown; registry: ToolRegistry }): Verdict {
  const { tool, registry } = input;
  const entry = registry.get(tool);
  const violations: Violation[] = [];

  const parsed = parseArguments(input.arguments);
  if (!parsed.ok) {
    // the schema as stored, when it is one Toolgate can read (an MCP server's has not been checked yet)
    const readable = entry && checkSchemaCost(entry.parameters as JsonObject).ok;
    const example = readable ? exampleArguments(storedKeyOrder(entry.parameters)) : '{"name": "value"}';
    violations.push({
      category: "malformed_arguments",
      path: "",
      keyword: "json",
      message: `Error: the arguments must be a JSON object, you sent ${parsed.sent}. Send the arguments as a JSON object such as ${example}.`,
    });
  }
  if (!entry) violations.push(unknownTool(tool, registry.names));
  if (!parsed.ok || !entry) return verdictOf(violations);

  const compiled = compiledTool(tool, entry.version, entry.parameters);
  try {
    if (compiled.validate(parsed.value)) return verdictOf([]);
    const seen = new Set<string>();
    for (const error of explain(compiled, compiled.validate.errors ?? [])) {
      const violation = toViolation(error, tool, parsed.value);
      const key = `${violation.category}|${violation.path}|${violation.message}`;
      if (!seen.has(key)) violations.push(violation);
      seen.add(key);
    }
  } catch (error) {
    // A schema whose evaluation overflows on some arguments only (registration tries it on {}):
    // this call cannot be checked, the schema stays usable for others.
    if (error instanceof RangeError)
      throw new ToolSchemaError(`the schema of ${tool}@${entry.version} cannot be evaluated on these arguments: ${evaluationProblem(error)}`);
    throw error;
  }
  return verdictOf(violations);
}

function verdictOf(violations: Violation[]): Verdict {
  const [first, ...rest] = violations;
  if (!first) return { valid: true, violations: [] };
  const primary = rest.reduce((best, v) => (categoryRank(v.category) < categoryRank(best.category) ? v : best), first);
  return { valid: false, category: primary.category, message: primary.message, ...(primary.path ? { path: primary.path } : {}), violations };
}

// ---------------------------------------------------------------------------------------------
// Arguments and tool names

function parseArguments(args: unknown): { ok: true; value: JsonObject } | { ok: false; sent: string } {
  let value = args;
  if (typeof args === "string") {
    if (args.trim() === "") return { ok: false, sent: "an empty string" };
    try {
      value = JSON.parse(args);
    } catch {
      return { ok: false, sent: `text that is not valid JSON: ${truncate(args)}` };
    }
  }
  return isPlainObject(value) ? { ok: true, value } : { ok: false, sent: describeValue(value) };
}

/** A small example call built from the schema: its required properties (at most 3), else its first property. */
function exampleArguments(parameters: object): string {
  const schema = parameters as JsonObject;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : [];
  const keys = required.length > 0 ? required.slice(0, 3) : Object.keys(properties).slice(0, 1);
  return `{${keys.map((key) => `${JSON.stringify(key)}: ${JSON.stringify(sampleValue(properties[key]))}`).join(", ")}}`;
}

function sampleValue(schema: unknown): unknown {
  if (!isPlainObject(schema)) return "...";
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = [schema.type].flat()[0];
  if (type === "number" || type === "integer") return typeof schema.minimum === "number" ? schema.minimum : 1;
  const samples: Record<string, unknown> = { boolean: true, array: [], object: {}, null: null };
  return Object.hasOwn(samples, String(type)) ? samples[String(type)] : "...";
}

const SHOWN_TOOLS = 10;

function unknownTool(tool: string, names: string[]): Violation {
  if (names.length === 0) {
    const message = `Error: no tool named '${truncate(tool)}'. No tools are registered; register the tool's schema before calling it.`;
    return { category: "unknown_tool", path: "", keyword: "tool", message };
  }
  const shown = rankToolNames(tool, names).slice(0, SHOWN_TOOLS);
  const list =
    names.length <= SHOWN_TOOLS
      ? `Available tools: ${shown.join(", ")}.`
      : `The closest of the ${names.length} tools: ${shown.join(", ")} and ${names.length - SHOWN_TOOLS} more.`;
  const meant = likelyTool(tool, names);
  const fix = meant ? ` Did you mean '${meant}'?` : " Call one of these instead.";
  return { category: "unknown_tool", path: "", keyword: "tool", message: `Error: no tool named '${truncate(tool)}'. ${list}${fix}` };
}

// ---------------------------------------------------------------------------------------------
// Compiled validators, cached per name@version (the version is the schema's content hash)

interface CompiledTool {
  validate: ValidateFunction;
  ajv: AjvCore;
  schema: JsonObject;
  /** Validators for subschemas (anyOf/oneOf branches, contains), compiled on first need; null when they cannot be. */
  parts: Map<unknown, ValidateFunction | null>;
}

/**
 * Compiled validators kept, least recently used first out, within two bounds: how many, and the
 * sum of their schemas' sizes, since a validator's memory grows with its schema (about 45 KiB for
 * a small schema, 765 KiB for one at SCHEMA_LIMITS; docs/limits.md). A schema that cannot be
 * compiled is kept as its error, so that it is not tried again for every call.
 */
export const VALIDATOR_CACHE_LIMIT = 500;
export const VALIDATOR_CACHE_SCHEMA_BYTES = 4 * 1024 * 1024;
type Cached = { tool: CompiledTool | ToolSchemaError; bytes: number };
const validators = new Map<string, Cached>();
let cachedBytes = 0;

function compiledTool(name: string, version: string, parameters: object): CompiledTool {
  const key = `${name}@${version}`;
  let cached = validators.get(key);
  if (cached) {
    validators.delete(key); // re-inserted below: the Map's order is least recently used first
  } else {
    cached = compile(key, parameters as JsonObject);
    cachedBytes += cached.bytes;
  }
  validators.set(key, cached);
  for (const [oldest, entry] of validators) {
    if (validators.size <= VALIDATOR_CACHE_LIMIT && cachedBytes <= VALIDATOR_CACHE_SCHEMA_BYTES) break;
    if (oldest === key) break; // the one just used stays, whatever its size
    validators.delete(oldest);
    cachedBytes -= entry.bytes;
  }
  if (cached.tool instanceof ToolSchemaError) throw cached.tool;
  return cached.tool;
}

function compile(key: string, parameters: JsonObject): Cached {
  const failed = (message: string) => ({ tool: new ToolSchemaError(`the schema of ${key} ${message}`), bytes: 0 });
  const draft = schemaDraft(parameters);
  if (!draft) return failed("names an unsupported $schema");
  // Schemas stored before a limit or the RE2 engine came in may break them: such a call is stored unchecked.
  const cost = checkSchemaCost(parameters);
  if (!cost.ok) return failed(`cannot be used: ${cost.message}`);
  // One Ajv per schema, as schemas of different projects may reuse the same $id. Checking the schema
  // against its meta-schema (checkJsonSchema did that at registration) would cost 20 ms per instance.
  const ajv = createAjv(draft, CLASSIFIER_OPTIONS);
  const schema = schemaForAjv(parameters, draft);
  try {
    return { tool: { validate: ajv.compile(schema), ajv, schema, parts: new Map() }, bytes: cost.bytes };
  } catch (error) {
    return failed(`cannot be compiled: ${evaluationProblem(error)}`);
  }
}

/** The compiled Ajv validator for a tool's schema version (cached). */
export function validatorFor(name: string, version: string, parameters: object): ValidateFunction {
  return compiledTool(name, version, parameters).validate;
}

/**
 * Errors of `data` against one subschema of the tool's schema, with the tool's $defs/definitions in
 * reach of its $refs; undefined when the subschema cannot be checked on its own (then Ajv's own
 * errors are told as they are).
 */
function partErrors(tool: CompiledTool, subschema: unknown, data: unknown): ErrorObject[] | undefined {
  let validate = tool.parts.get(subschema);
  if (validate === undefined) {
    const { $defs, definitions } = tool.schema;
    try {
      validate = tool.ajv.compile({ ...($defs ? { $defs } : {}), ...(definitions ? { definitions } : {}), allOf: [subschema] });
    } catch {
      validate = null;
    }
    tool.parts.set(subschema, validate);
  }
  if (!validate) return undefined;
  try {
    return validate(data) ? [] : [...(validate.errors ?? [])];
  } catch {
    // a branch that refers to the root ("#", a tree of arguments) recurses forever on its own, where "#" is the branch
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// From Ajv's errors to the problems worth telling the model

/**
 * Ajv reports a wrapper's child errors just before the wrapper. An `if` wrapper is dropped (its
 * then/else children say why), so are the children of `propertyNames` (the wrapper names the
 * property); for anyOf/oneOf only the branch closest to what was sent is kept (the others are
 * alternatives, not things to fix), and for `contains` only the wrapper. A child's schemaPath does
 * not say which wrapper it belongs to when it came through a $ref, so the children are counted by
 * validating each branch on its own, which reproduces exactly the errors Ajv reported for it.
 */
function explain(tool: CompiledTool, errors: ErrorObject[]): ErrorObject[] {
  const kept: ErrorObject[] = [];
  for (let i = errors.length - 1; i >= 0; i--) {
    const error = errors[i]!;
    if (error.keyword === "if" || error.propertyName !== undefined) continue;
    let replaced =
      error.keyword === "anyOf" || error.keyword === "oneOf"
        ? explainUnion(tool, error)
        : error.keyword === "contains"
          ? explainContains(tool, error)
          : undefined;
    // Should the recount ever disagree with Ajv (dynamic refs…), keep everything rather than drop unrelated errors.
    const children = replaced ? errors.slice(Math.max(0, i - replaced.children), i) : [];
    if (replaced && (children.length !== replaced.children || !children.every((e) => isWithin(e.instancePath, error.instancePath)))) {
      replaced = undefined;
    }
    if (replaced) i -= replaced.children;
    kept.unshift(...(replaced?.errors ?? [error]));
  }
  return kept;
}

function isWithin(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(`${base}/`);
}

type Replacement = { children: number; errors: ErrorObject[] } | undefined;

function explainUnion(tool: CompiledTool, error: ErrorObject): Replacement {
  const branches: ErrorObject[][] = [];
  let matched = 0;
  for (const branch of error.schema as unknown[]) {
    const errors = partErrors(tool, branch, error.data);
    if (!errors) return undefined;
    branches.push(errors);
    if (error.keyword === "oneOf" && errors.length === 0 && ++matched > 1) break; // where Ajv stops
  }
  const children = branches.reduce((sum, errors) => sum + errors.length, 0);
  // oneOf matching several branches: the wrapper itself is the problem.
  if (branches.some((errors) => errors.length === 0)) return { children, errors: [error] };

  const rootType = (e: ErrorObject) => e.keyword === "type" && e.instancePath === "";
  if (branches.every((errors) => errors.length === 1 && rootType(errors[0]!))) {
    const types = [...new Set(branches.flatMap((errors) => [errors[0]!.schema].flat()))];
    return { children, errors: [{ ...branches[0]![0]!, instancePath: error.instancePath, schema: types, params: { type: types } }] };
  }
  // Closest branch: one whose type matched, then the fewest errors, then the first.
  const score = (errors: ErrorObject[]) => (errors.some(rootType) ? 1e9 : 0) + errors.length;
  const best = branches.reduce((a, b) => (score(b) < score(a) ? b : a));
  return { children, errors: explain(tool, best).map((e) => ({ ...e, instancePath: error.instancePath + e.instancePath })) };
}

function explainContains(tool: CompiledTool, error: ErrorObject): Replacement {
  const max = isPlainObject(error.parentSchema) ? error.parentSchema.maxContains : undefined;
  let children = 0;
  let matched = 0;
  for (const item of Array.isArray(error.data) ? error.data : []) {
    const errors = partErrors(tool, error.schema, item);
    if (!errors) return undefined;
    children += errors.length;
    if (errors.length === 0 && typeof max === "number" && ++matched > max) break; // where Ajv stops
  }
  return { children, errors: [error] };
}

const OUT_OF_RANGE = [
  ...["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  ...["minLength", "maxLength", "pattern", "format"],
  ...["minItems", "maxItems", "uniqueItems", "items", "additionalItems", "unevaluatedItems", "contains"],
  ...["minProperties", "maxProperties"],
];
const KEYWORD_CATEGORY: Record<string, Category> = {
  required: "missing_argument",
  dependentRequired: "missing_argument",
  dependencies: "missing_argument",
  additionalProperties: "extra_argument",
  unevaluatedProperties: "extra_argument",
  propertyNames: "extra_argument",
  "false schema": "extra_argument",
  type: "wrong_type",
  enum: "invalid_choice",
  const: "invalid_choice",
  ...Object.fromEntries(OUT_OF_RANGE.map((keyword) => [keyword, "out_of_range" as const])),
};
// Anything else (`not`, a oneOf matched by several branches, …) says the value has the wrong shape: wrong_type.

function toViolation(error: ErrorObject, tool: string, args: JsonObject): Violation {
  const category = KEYWORD_CATEGORY[error.keyword] ?? "wrong_type";
  const at = humanPath(args, error.instancePath);
  const subject = at ? `'${at}'` : "the arguments";
  const params = error.params as Record<string, unknown>;
  const parent = isPlainObject(error.parentSchema) ? error.parentSchema : {};
  const value: unknown = error.data;
  const violation = (message: string, path = at): Violation => ({ category, path, message, keyword: error.keyword });

  switch (error.keyword) {
    case "required":
    case "dependentRequired":
    case "dependencies": {
      const path = joinPath(at, String(params.missingProperty));
      const when = typeof params.property === "string" ? ` when '${joinPath(at, params.property)}' is sent` : "";
      const properties = isPlainObject(parent.properties) ? parent.properties : {};
      const hint = schemaHint(properties[String(params.missingProperty)]);
      return violation(`Error: '${path}' is required by ${tool}${when} and was not sent. Add '${path}'${hint ? ` (${hint})` : ""}.`, path);
    }
    case "additionalProperties":
    case "unevaluatedProperties":
    case "propertyNames": {
      const name = String(params.additionalProperty ?? params.unevaluatedProperty ?? params.propertyName);
      const path = joinPath(at, name);
      const where = at ? ` in '${at}'` : "";
      if (error.keyword === "propertyNames") {
        return violation(
          `Error: '${path}' is not an allowed argument name${where} (allowed names: ${schemaHint(error.schema) || "see the schema"}). Rename or remove '${path}'.`,
          path,
        );
      }
      const allowed = isPlainObject(parent.properties) ? Object.keys(parent.properties) : [];
      const close = closeMatch(name, allowed);
      const fix = close ? `Rename '${path}' to '${joinPath(at, close)}'.` : `Remove '${path}'.`;
      return violation(`Error: '${path}' is not an argument of ${tool}. Allowed${where}: ${allowed.join(", ") || "none"}. ${fix}`, path);
    }
    case "false schema":
      return violation(
        at ? `Error: '${at}' is not accepted by ${tool}. Remove '${at}'.` : `Error: ${tool} accepts no arguments like these. Check the tool's schema.`,
      );
    case "type": {
      const expected = [error.schema].flat().map(String);
      return violation(`Error: ${subject} must be ${typeNames(expected)}, you sent ${describeValue(value)}. ${typeFix(expected, value)}`);
    }
    case "enum": {
      const choices = error.schema as unknown[];
      const close =
        typeof value === "string"
          ? closeMatch(
              value,
              choices.filter((c): c is string => typeof c === "string"),
            )
          : undefined;
      return violation(`Error: ${subject} must be one of ${choiceList(choices)}; you sent ${show(value)}.${close ? ` Did you mean ${show(close)}?` : ""}`);
    }
    case "const":
      return violation(`Error: ${subject} must be exactly ${show(error.schema)}; you sent ${show(value)}.`);
    case "minLength":
    case "maxLength":
      return violation(`Error: ${subject} must be ${countRange(parent.minLength, parent.maxLength, "character")}, you sent ${[...String(value)].length}.`);
    case "minItems":
    case "maxItems":
      return violation(`Error: ${subject} must have ${countRange(parent.minItems, parent.maxItems, "item")}, you sent ${lengthOf(value)}.`);
    case "minProperties":
    case "maxProperties":
      return violation(
        `Error: ${subject} must have ${countRange(parent.minProperties, parent.maxProperties, "property", "properties")}, you sent ${lengthOf(value)}.`,
      );
    case "items":
    case "additionalItems":
      return violation(`Error: ${subject} must have ${countRange(undefined, params.limit, "item")}, you sent ${lengthOf(value)}.`);
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return violation(`Error: ${subject} must be ${numberRange(parent)}, you sent ${show(value)}.`);
    case "multipleOf":
      return violation(`Error: ${subject} must be a multiple of ${show(error.schema)}, you sent ${show(value)}.`);
    case "pattern":
      return violation(`Error: ${subject} must match the pattern ${String(error.schema)}, you sent ${show(value)}.`);
    case "format": {
      const format = String(error.schema);
      const example = FORMAT_EXAMPLES[format];
      return violation(
        `Error: ${subject} must be ${article(format)} ${format} (format), you sent ${show(value)}.${example ? ` Send it like ${show(example)}.` : ""}`,
      );
    }
    case "uniqueItems": {
      const [i, j] = [Number(params.i), Number(params.j)].sort((a, b) => a - b);
      const item = Array.isArray(value) ? value[i!] : undefined;
      return violation(`Error: ${subject} must not contain duplicates, you sent ${show(item)} as items ${i} and ${j}. Remove the repeated item.`);
    }
    case "oneOf":
      return violation(`Error: ${subject} matches more than one of the allowed forms (oneOf), you sent ${show(value)}. Send a value that matches exactly one.`);
    case "not":
      return violation(`Error: ${subject} must not match ${show(error.schema)}, you sent ${show(value)}. Send a different value.`);
    default:
      return violation(`Error: ${subject} ${error.message ?? "is invalid"}, you sent ${show(value)}. Change it to match the schema of ${tool}.`);
  }
}

// ---------------------------------------------------------------------------------------------
// Wording

const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2026-10-02T09:30:00Z",
  date: "2026-10-02",
  time: "09:30:00Z",
  email: "name@example.com",
  uri: "https://example.com/page",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  ipv4: "192.0.2.1",
};

function typeNames(types: string[]): string {
  return types.map((t) => TYPE_WORDS[t] ?? t).join(" or ");
}

function typeFix(expected: string[], value: unknown): string {
  const wants = (type: string) => expected.includes(type);
  if (wants("string") && (typeof value === "number" || typeof value === "boolean")) return `Send it as ${JSON.stringify(String(value))}.`;
  if (typeof value === "string") {
    const text = value.trim();
    const number = Number(text);
    if (text !== "" && Number.isFinite(number) && (wants("number") || (wants("integer") && Number.isInteger(number)))) return `Send it as ${number}.`;
    if (wants("boolean") && (text === "true" || text === "false")) return `Send it as ${text}.`;
    if (wants("object") || wants("array")) {
      try {
        const parsed: unknown = JSON.parse(text);
        if ((wants("object") && isPlainObject(parsed)) || (wants("array") && Array.isArray(parsed)))
          return "Send the value itself, not a string containing JSON.";
      } catch {
        // not JSON: fall through to the generic fix
      }
    }
  }
  if (wants("integer") && typeof value === "number") return `Send a whole number such as ${Math.round(value)}.`;
  if (wants("array") && (typeof value !== "object" || value === null)) return `Send it as an array, such as [${show(value)}].`;
  return `Send ${typeNames(expected)} instead.`;
}

const show = (value: unknown): string => preview(value);

function choiceList(choices: unknown[]): string {
  const shown = choices.slice(0, 20).map((c) => (typeof c === "string" ? c : JSON.stringify(c)));
  return shown.join(", ") + (choices.length > 20 ? ` and ${choices.length - 20} more` : "");
}

function article(word: string): string {
  return /^[aeio]/i.test(word) ? "an" : "a";
}

function lengthOf(value: unknown): number {
  return Array.isArray(value) ? value.length : isPlainObject(value) ? Object.keys(value).length : 0;
}

/** "4 to 8 characters", "at least 1 item", "at most 5 properties". */
function countRange(min: unknown, max: unknown, unit: string, units = `${unit}s`): string {
  const count = (n: number) => `${n} ${n === 1 ? unit : units}`;
  if (typeof min === "number" && typeof max === "number") return min === max ? `exactly ${count(min)}` : `${min} to ${count(max)}`;
  if (typeof min === "number") return `at least ${count(min)}`;
  if (typeof max === "number") return `at most ${count(max)}`;
  return "";
}

/** "between 1 and 100", "at least 1", "greater than 0 and less than 1". */
function numberRange(schema: JsonObject): string {
  // zod's .int() writes the safe-integer range as bounds: no model needs to be told about those
  const bound = (value: unknown) => (typeof value === "number" && Math.abs(value) < Number.MAX_SAFE_INTEGER ? value : undefined);
  // draft-04 writes an exclusive bound as a flag beside minimum/maximum: `"exclusiveMinimum": true`
  const [low, high] = [schema.exclusiveMinimum === true, schema.exclusiveMaximum === true];
  const [minimum, maximum, exclusiveMinimum, exclusiveMaximum] = [
    low ? undefined : schema.minimum,
    high ? undefined : schema.maximum,
    low ? schema.minimum : schema.exclusiveMinimum,
    high ? schema.maximum : schema.exclusiveMaximum,
  ].map(bound);
  if (typeof minimum === "number" && typeof maximum === "number") return `between ${minimum} and ${maximum}`;
  const lower = typeof minimum === "number" ? `at least ${minimum}` : typeof exclusiveMinimum === "number" ? `greater than ${exclusiveMinimum}` : "";
  const upper = typeof maximum === "number" ? `at most ${maximum}` : typeof exclusiveMaximum === "number" ? `less than ${exclusiveMaximum}` : "";
  return [lower, upper].filter(Boolean).join(" and ");
}

/** A property's rules in a few words, for "Add 'x' (string, 4 to 8 characters)". */
function schemaHint(schema: unknown): string {
  if (!isPlainObject(schema)) return "";
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(`one of ${choiceList(schema.enum)}`);
  else if (schema.const !== undefined) parts.push(`exactly ${show(schema.const)}`);
  else if (schema.type !== undefined) parts.push([schema.type].flat().join(" or "));
  parts.push(countRange(schema.minLength, schema.maxLength, "character"), numberRange(schema));
  if (typeof schema.pattern === "string") parts.push(`matching ${schema.pattern}`);
  if (typeof schema.format === "string") parts.push(`${schema.format} format`);
  return parts.filter(Boolean).join(", ");
}

/** JSON pointer → `filters.status`, `items[2].qty`; walks the data to tell array indexes from keys. */
function humanPath(root: unknown, pointer: string): string {
  let path = "";
  let current = root;
  for (const raw of pointer.split("/").slice(1)) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      path = joinPath(path, Number(segment));
      current = current[Number(segment)];
    } else {
      path = joinPath(path, segment);
      current = isPlainObject(current) && Object.hasOwn(current, segment) ? current[segment] : undefined;
    }
  }
  return path;
}

import { Ajv, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020";
import type AjvCore from "ajv/dist/core";
import addFormats from "ajv-formats";

export type JsonObject = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: JsonObject;
}

export type NormalizeResult = { ok: true; tool: ToolDefinition } | { ok: false; message: string };
export type SchemaCheck = { ok: true } | { ok: false; message: string };

export type SchemaDraft = "2020-12" | "draft-07";

const META_SCHEMA: Record<SchemaDraft, string> = {
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
  "draft-07": "http://json-schema.org/draft-07/schema#",
};

const SHAPES =
  'Send {"name", "description", "parameters"}, an OpenAI tool {"type": "function", "function": {"name", "description", "parameters"}} or an Anthropic tool {"name", "description", "input_schema"}.';

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function truncate(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A short, human description of any value, for "you sent …". */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return `the array ${truncate(JSON.stringify(value))}`;
  if (typeof value === "object") {
    const keys = Object.keys(value);
    return keys.length === 0 ? "an empty object" : `an object with keys ${truncate(keys.join(", "))}`;
  }
  if (typeof value === "string") return `the string ${truncate(JSON.stringify(value))}`;
  return `the ${typeof value} ${truncate(String(value))}`;
}

/**
 * Accepts our shape {name, description?, parameters}, OpenAI Chat Completions
 * {type: "function", function: {…}}, OpenAI Responses {type: "function", name, …}
 * and Anthropic {name, description, input_schema}.
 */
export function normalizeToolInput(input: unknown): NormalizeResult {
  const fail = (message: string): NormalizeResult => ({ ok: false, message });
  if (!isPlainObject(input)) return fail(`Error: a tool must be a JSON object, you sent ${describeValue(input)}. ${SHAPES}`);

  const { type } = input;
  if (type !== undefined && type !== "function" && type !== "custom") {
    return fail(`Error: only function tools with a JSON Schema can be registered, you sent type ${truncate(JSON.stringify(type))}. ${SHAPES}`);
  }
  const nested = type === "function" && "function" in input;
  if (nested && !isPlainObject(input.function)) {
    return fail(`Error: 'function' must be an object, you sent ${describeValue(input.function)}. ${SHAPES}`);
  }
  const source = nested ? (input.function as JsonObject) : input;
  const prefix = nested ? "function." : "";

  const { name, description } = source;
  if (typeof name !== "string" || name.trim() === "" || name.length > 128) {
    return fail(`Error: '${prefix}name' must be a string of 1 to 128 characters, you sent ${describeValue(name)}. Give the tool a name such as "getloan".`);
  }
  if (description !== undefined && typeof description !== "string") {
    return fail(`Error: '${prefix}description' must be a string, you sent ${describeValue(description)}. Send a plain-text description or leave it out.`);
  }

  const schemaKey = "parameters" in source || !("input_schema" in source) ? "parameters" : "input_schema";
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

/** Deterministic JSON: object keys sorted at every level, array order kept. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The draft a schema asks for; 2020-12 when it says nothing; undefined when we do not support it. */
export function schemaDraft(parameters: JsonObject): SchemaDraft | undefined {
  const declared = parameters.$schema;
  if (declared === undefined) return "2020-12";
  if (typeof declared !== "string") return undefined;
  if (declared.includes("2020-12")) return "2020-12";
  if (declared.includes("draft-07")) return "draft-07";
  return undefined;
}

/** The schema as Ajv should compile it: synchronous, and `$schema` spelled the one way Ajv knows (http vs https, trailing #). */
export function schemaForAjv(parameters: JsonObject, draft: SchemaDraft): JsonObject {
  const { $async: _async, ...schema } = parameters;
  return parameters.$schema === undefined ? schema : { ...schema, $schema: META_SCHEMA[draft] };
}

export function createAjv(draft: SchemaDraft, options: Options = {}): AjvCore {
  const ajv = draft === "draft-07" ? new Ajv({ strict: false, logger: false, ...options }) : new Ajv2020({ strict: false, logger: false, ...options });
  addFormats(ajv);
  return ajv;
}

/** Is `parameters` a JSON Schema (draft 2020-12 or draft-07) for an object of arguments? */
export function checkJsonSchema(parameters: unknown): SchemaCheck {
  const fail = (message: string): SchemaCheck => ({ ok: false, message });
  const fix = "Fix the schema and register the tool again.";
  if (!isPlainObject(parameters)) {
    return fail(
      `Error: parameters must be a JSON Schema object, you sent ${describeValue(parameters)}. Send a schema such as {"type": "object", "properties": {…}}.`,
    );
  }
  const draft = schemaDraft(parameters);
  if (!draft) {
    return fail(
      `Error: '$schema' must name JSON Schema draft 2020-12 or draft-07, you sent ${truncate(JSON.stringify(parameters.$schema))}. Use "${META_SCHEMA["2020-12"]}" or leave '$schema' out.`,
    );
  }
  if (parameters.type !== undefined ? parameters.type !== "object" : !("properties" in parameters)) {
    const sent = parameters.type !== undefined ? `type ${truncate(JSON.stringify(parameters.type))}` : "a schema with neither type nor properties";
    return fail(`Error: parameters must describe an object of arguments, you sent ${sent}. Use {"type": "object", "properties": {…}} at the top level.`);
  }

  const ajv = createAjv(draft);
  const schema = schemaForAjv(parameters, draft);
  if (!(ajv.validateSchema(schema) as boolean)) {
    return fail(`Error: parameters is not a valid JSON Schema (draft ${draft}): ${ajv.errorsText(ajv.errors, { dataVar: "parameters" })}. ${fix}`);
  }
  try {
    ajv.compile(schema);
  } catch (error) {
    return fail(`Error: parameters cannot be compiled: ${error instanceof Error ? error.message : String(error)}. ${fix}`);
  }
  return { ok: true };
}

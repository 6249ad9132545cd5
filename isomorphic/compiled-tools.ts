import type { ErrorObject, ValidateFunction } from "ajv";
import type AjvCore from "ajv/dist/core";
import { checkSchemaCost, CLASSIFIER_OPTIONS, createAjv, evaluationProblem, schemaDraft, schemaForAjv, type JsonObject } from "./tool-schema";

// Compiled validators, cached per name@version (the version is the schema's content hash)

/** The tool's stored schema cannot be compiled, or evaluated on one call's arguments: the call is not checked. */
export class ToolSchemaError extends Error {
  override name = "ToolSchemaError";
}

export interface CompiledTool {
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

export function compiledTool(name: string, version: string, parameters: object): CompiledTool {
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
export function partErrors(tool: CompiledTool, subschema: unknown, data: unknown): ErrorObject[] | undefined {
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

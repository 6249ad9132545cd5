// Where JSON Schema keeps schemas inside a schema (drafts 07, 2019-09 and 2020-12): the one table
// every walk over a tool's schema reads.

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keywords whose value is one subschema. */
export const SUBSCHEMA = new Set([
  ...["additionalItems", "additionalProperties", "contains", "else", "if", "items"],
  ...["not", "propertyNames", "then", "unevaluatedItems", "unevaluatedProperties"],
]);
/** Keywords whose value is a list of subschemas (`items` is one or a list, by draft). */
export const SUBSCHEMA_LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
/** Keywords whose value maps names to subschemas (draft 07's `dependencies` may map a name to a list of names instead). */
export const SUBSCHEMA_MAP = new Set(["$defs", "definitions", "dependentSchemas", "dependencies", "patternProperties", "properties"]);

/**
 * The schema with `change` applied to it and to every subschema in it, innermost first (keys kept
 * as they are, `__proto__` included). `change` also gets the schema resource around the subschema:
 * the nearest schema with an `$id`, or the root. Called on schemas within SCHEMA_LIMITS (64 levels).
 */
export function eachSubschema(schema: unknown, change: (schema: JsonObject, resource: JsonObject) => JsonObject, resource?: JsonObject): unknown {
  if (!isPlainObject(schema)) return schema;
  const here = resource === undefined || typeof schema.$id === "string" ? schema : resource;
  const each = (value: unknown) => eachSubschema(value, change, here);
  const entries = Object.entries(schema).map(([key, value]): [string, unknown] => {
    if (SUBSCHEMA_MAP.has(key) && isPlainObject(value)) return [key, Object.fromEntries(Object.entries(value).map(([name, child]) => [name, each(child)]))];
    if (SUBSCHEMA_LIST.has(key) && Array.isArray(value)) return [key, value.map(each)];
    return [key, SUBSCHEMA.has(key) ? each(value) : value];
  });
  return change(Object.fromEntries(entries), here);
}

// Pretty-printing a stored JSON Schema. Postgres jsonb keeps keys shortest first, which reads
// badly ("required" before "properties", "pattern" before "type"); put them in a reader's order.

const SCHEMA_KEY_ORDER = [
  "$schema",
  "$id",
  "title",
  "type",
  "description",
  "properties",
  "items",
  "required",
  "enum",
  "const",
  "default",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "additionalProperties",
];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function rank(key: string) {
  const i = SCHEMA_KEY_ORDER.indexOf(key);
  return i < 0 ? SCHEMA_KEY_ORDER.length : i;
}

/** The schema with well-known keywords in a reader's order (others after, by name); property names keep their order. */
export function orderSchema(value: unknown, propertyMap = false): Json {
  if (Array.isArray(value)) return value.map((v) => orderSchema(v));
  if (value === null || typeof value !== "object") return value as Json;
  const entries = Object.entries(value as Record<string, unknown>);
  if (!propertyMap) entries.sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const out: { [key: string]: Json } = {};
  for (const [key, v] of entries) {
    // the values of properties / $defs / patternProperties are schemas; their keys are names
    const isMap = !propertyMap && (key === "properties" || key === "$defs" || key === "definitions" || key === "patternProperties");
    out[key] = isMap ? orderSchema(v, true) : orderSchema(v);
  }
  return out;
}

export const prettySchema = (schema: unknown) => JSON.stringify(orderSchema(schema), null, 2);

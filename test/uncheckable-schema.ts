/**
 * A tool schema that registers (registration and `defineTool` try its evaluation on {}) but whose
 * evaluation never ends on `{"x": {}}`: `x` refers to a schema that applies itself to the same value
 * again (through `allOf`), so evaluation recurses until the stack overflows; {} never reaches it.
 * No validator can check such a call. Checking it throws a ToolSchemaError.
 */
export const overflowingSchema = {
  type: "object",
  properties: { x: { $ref: "#/$defs/again" } },
  $defs: { again: { type: "object", allOf: [{ $ref: "#/$defs/again" }] } },
};

/**
 * A tool schema that registers (registration and `defineTool` try its evaluation on {}) but whose
 * evaluation overflows the stack on `{"x": {}}`: Ajv's $dynamicRef under unevaluatedProperties
 * (found with the JSON Schema Test Suite's "unevaluatedProperties with $dynamicRef", moved under a
 * property so that {} does not reach it). Checking such a call throws a ToolSchemaError.
 */
export const overflowingSchema = {
  type: "object",
  properties: { x: { $ref: "https://example.com/derived" } },
  $defs: {
    inner: {
      $id: "https://example.com/derived",
      $ref: "./base",
      $defs: {
        derived: { $dynamicAnchor: "addons", properties: { bar: { type: "string" } } },
        base: {
          $id: "./base",
          unevaluatedProperties: false,
          properties: { foo: { type: "string" } },
          $dynamicRef: "#addons",
          $defs: { d: { $dynamicAnchor: "addons" } },
        },
      },
    },
  },
};

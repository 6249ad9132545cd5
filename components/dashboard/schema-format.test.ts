import { describe, expect, it } from "vitest";
import { orderSchema } from "./schema-format";

describe("orderSchema", () => {
  it("puts keywords in a reader's order and leaves property names alone", () => {
    const stored = {
      type: "object",
      required: ["b"],
      properties: { b: { pattern: "^x$", maxLength: 8, type: "string", description: "B" }, a: { type: "boolean", default: false } },
      additionalProperties: false,
    };
    const ordered = orderSchema(stored) as Record<string, unknown>;
    expect(Object.keys(ordered)).toEqual(["type", "properties", "required", "additionalProperties"]);
    const properties = ordered.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toEqual(["b", "a"]);
    expect(Object.keys(properties.b!)).toEqual(["type", "description", "pattern", "maxLength"]);
    expect(orderSchema(stored)).toEqual(stored);
  });
  it("keeps a property named like a keyword", () => {
    const ordered = orderSchema({ properties: { type: { type: "string" }, description: { type: "string" } } }) as { properties: Record<string, unknown> };
    expect(Object.keys(ordered.properties)).toEqual(["type", "description"]);
  });
});

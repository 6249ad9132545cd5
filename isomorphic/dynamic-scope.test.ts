import { describe, expect, it } from "vitest";
import { classifyCall, registryFrom } from "./classify";
import { withoutDynamicRefs } from "./dynamic-scope";
import { checkJsonSchema } from "./tool-schema";

// A generic list whose items a derived schema decides: the list's $dynamicRef goes to the derived
// schema's "item" when evaluation came through it, to the list's own default otherwise.
const list = {
  $id: "https://example.com/list",
  type: "object",
  properties: { items: { type: "array", items: { $dynamicRef: "#item" } } },
  $defs: { anything: { $dynamicAnchor: "item" } },
};
const loanBatch = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://example.com/loan-batch",
  $ref: "list",
  $defs: { list, loan: { $dynamicAnchor: "item", type: "object", properties: { loannumber: { type: "string" } }, required: ["loannumber"] } },
};

describe("withoutDynamicRefs: $dynamicRef through the dynamic scope", () => {
  it("a tool schema that extends a generic one checks the items the way it extends them, with the plain keywords' messages", () => {
    expect(checkJsonSchema(loanBatch)).toEqual({ ok: true });
    const registry = registryFrom([{ name: "approve", version: "1", parameters: loanBatch }]);
    const check = (args: object) => classifyCall({ tool: "approve", arguments: args, registry });
    expect(check({ items: [{ loannumber: "447" }] }).valid).toBe(true);
    expect(check({ items: [{ loannumber: 447 }] })).toMatchObject({ valid: false, category: "wrong_type", path: "items[0].loannumber" });
    expect(check({ items: [{}] })).toMatchObject({ valid: false, category: "missing_argument" });
  });

  it("the generic schema alone takes any item: its own anchor is the outermost", () => {
    const registry = registryFrom([{ name: "generic", version: "1", parameters: { $schema: loanBatch.$schema, ...list } }]);
    expect(classifyCall({ tool: "generic", arguments: { items: [{ loannumber: 447 }, "x"] }, registry }).valid).toBe(true);
  });

  it("leaves a schema without $dynamicRef, or one that refers outside itself, as it is", () => {
    expect(withoutDynamicRefs({ type: "object", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } })).toBeUndefined();
    expect(withoutDynamicRefs({ type: "object", properties: { a: { $dynamicRef: "https://elsewhere.example/s#a" } } })).toBeUndefined();
  });

  it("a recursive schema takes one copy per binding, not one per level", () => {
    const tree = {
      $id: "https://example.com/tree",
      $dynamicAnchor: "node",
      type: "object",
      properties: { label: { type: "string" }, children: { type: "array", items: { $dynamicRef: "#node" } } },
    };
    const resolved = withoutDynamicRefs(tree)!;
    expect(Object.keys(resolved.$defs as object)).toHaveLength(1);
    const registry = registryFrom([{ name: "tree", version: "1", parameters: tree }]);
    const deep = (depth: number): object => (depth === 0 ? { label: 7 } : { label: "x", children: [deep(depth - 1)] });
    expect(classifyCall({ tool: "tree", arguments: deep(20), registry })).toMatchObject({ valid: false, category: "wrong_type" });
  });
});

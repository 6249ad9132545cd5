import { describe, expect, it } from "vitest";
import { schemaVersion } from "./schema-version";

const parameters = { type: "object", properties: { loannumber: { type: "string", minLength: 4, maxLength: 8 } }, required: ["loannumber"] };

describe("schemaVersion", () => {
  it("gives the same version whatever the key order, and a new one for a changed schema", () => {
    const reordered = { required: ["loannumber"], properties: { loannumber: { maxLength: 8, minLength: 4, type: "string" } }, type: "object" };
    expect(schemaVersion(parameters)).toMatch(/^[0-9a-f]{12}$/);
    expect(schemaVersion(reordered)).toBe(schemaVersion(parameters));
    const changed = { ...parameters, properties: { loannumber: { type: "string", minLength: 4, maxLength: 9 } } };
    expect(schemaVersion(changed)).not.toBe(schemaVersion(parameters));
    expect(schemaVersion({ ...parameters, required: [] })).not.toBe(schemaVersion(parameters));
  });
});

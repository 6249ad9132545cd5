import { describe, expect, it } from "vitest";
import { registryResolver, verdictFor } from "./verdicts";

const loan = (version: string, loannumber: object) => ({
  name: "getloan",
  version,
  parameters: { type: "object", properties: { loannumber }, required: ["loannumber"], additionalProperties: false },
});
// newest first, as the services load them
const versions = [loan("v2", { type: "string" }), loan("v1", { type: "integer" }), { name: "shipto", version: "v1", parameters: { type: "object" } }];
// built per use, not at import: Stryker activates a mutant only while tests run
const resolver = () => registryResolver(versions);

describe("registryResolver", () => {
  it("checks a call against each tool's newest version unless the harness names a known one", () => {
    const registry = resolver();
    expect(registry.isEmpty).toBe(false);
    expect(registry.forCall("getloan").get("getloan")?.version).toBe("v2");
    expect(registry.forCall("getloan", "v1").get("getloan")?.version).toBe("v1");
    expect(registry.forCall("getloan", "v9").get("getloan")?.version).toBe("v2");
    // pinning one tool leaves the others at their newest, and every name stays known
    expect(registry.forCall("getloan", "v1").get("shipto")?.version).toBe("v1");
    expect(registry.forCall("getloan", "v1").names).toEqual(["getloan", "shipto"]);
    // a version of another tool does not pin this one
    expect(registry.forCall("shipto", "v1").get("getloan")?.version).toBe("v2");
    expect(registryResolver([]).isEmpty).toBe(true);
  });
});

describe("verdictFor", () => {
  const call = (
    args: unknown,
    more: { toolVersion?: string; outcome?: { valid: boolean; category?: "wrong_type" | "not_allowed" | "missing_argument"; message?: string } } = {},
  ) => verdictFor({ tool: "getloan", arguments: args, ...more }, resolver());

  it("without a harness verdict stores Toolgate's, against the version it checked", () => {
    expect(call({ loannumber: "4471" })).toEqual({
      valid: true,
      category: null,
      message: null,
      checked: { valid: true, violations: [], version: "v2" },
      differ: false,
    });
    const wrong = call({ loannumber: 4471 });
    expect(wrong).toMatchObject({ valid: false, category: "wrong_type", checked: { valid: false, category: "wrong_type", version: "v2" }, differ: false });
    expect(wrong.message).toContain("loannumber");
    expect(call({ loannumber: 4471 }, { toolVersion: "v1" })).toMatchObject({ valid: true, checked: { version: "v1" } });
  });

  it("keeps the harness's verdict and says when Toolgate's differs", () => {
    const agrees = call({ loannumber: 4471 }, { outcome: { valid: false, category: "wrong_type", message: "harness says" } });
    expect(agrees).toMatchObject({ valid: false, category: "wrong_type", message: "harness says", differ: false });

    expect(call({ loannumber: "4471" }, { outcome: { valid: true } })).toMatchObject({ valid: true, category: null, message: null, differ: false });

    const validForHarness = call({ loannumber: 4471 }, { outcome: { valid: true } });
    expect(validForHarness).toMatchObject({ valid: true, category: null, checked: { valid: false }, differ: true });
    // the harness sent no message: Toolgate's explains the disagreement
    expect(validForHarness.message).toBe(validForHarness.checked?.message);

    const otherCategory = call({ loannumber: 4471 }, { outcome: { valid: false, category: "missing_argument" } });
    expect(otherCategory).toMatchObject({ valid: false, category: "missing_argument", differ: true });

    // a harness that refuses without naming a category does not disagree with Toolgate's category
    const noCategory = call({ loannumber: 4471 }, { outcome: { valid: false } });
    expect(noCategory).toMatchObject({ valid: false, category: null, differ: false });
    expect(noCategory.message).toBe(noCategory.checked?.message);

    const refusedButFits = call({ loannumber: "4471" }, { outcome: { valid: false, category: "wrong_type" } });
    expect(refusedButFits).toMatchObject({ valid: false, category: "wrong_type", message: null, differ: true });
  });

  it("counts a policy refusal of a call that fits its schema as no disagreement", () => {
    expect(call({ loannumber: "4471" }, { outcome: { valid: false, category: "not_allowed" } })).toMatchObject({
      valid: false,
      category: "not_allowed",
      differ: false,
    });
    // a policy refusal of a call that breaks its schema is one
    expect(call({ loannumber: 4471 }, { outcome: { valid: false, category: "not_allowed" } }).differ).toBe(true);
  });

  it("checks nothing for a project without schemas, nor against a schema that cannot be compiled", () => {
    expect(verdictFor({ tool: "getloan", arguments: {} }, registryResolver([]))).toEqual({
      valid: null,
      category: null,
      message: null,
      checked: null,
      differ: false,
    });
    expect(verdictFor({ tool: "getloan", arguments: {}, outcome: { valid: true } }, registryResolver([]))).toEqual({
      valid: true,
      category: null,
      message: null,
      checked: null,
      differ: false,
    });
    const broken = registryResolver([
      { name: "getloan", version: "unsupported-draft", parameters: { $schema: "https://example.com/not-a-draft", type: "object" } },
    ]);
    expect(verdictFor({ tool: "getloan", arguments: {} }, broken)).toMatchObject({ valid: null, checked: null });
  });

  it("checks an unknown tool's call as unknown_tool, with no version", () => {
    expect(verdictFor({ tool: "nosuch", arguments: {} }, resolver())).toMatchObject({ valid: false, category: "unknown_tool", checked: { version: null } });
  });

  it("a policy refusal in a project without schemas is no disagreement", () => {
    expect(verdictFor({ tool: "getloan", arguments: {}, outcome: { valid: false, category: "not_allowed" } }, registryResolver([]))).toEqual({
      valid: false,
      category: "not_allowed",
      message: null,
      checked: null,
      differ: false,
    });
  });

  it("leaves a call unchecked, with the reason, whatever goes wrong checking it: one call never fails another", () => {
    const faulty = {
      type: "object",
      get properties(): never {
        throw new TypeError("a fault");
      },
    };
    expect(verdictFor({ tool: "getloan", arguments: {} }, registryResolver([{ name: "getloan", version: "faulty", parameters: faulty }]))).toEqual({
      valid: null,
      category: null,
      message: null,
      checked: null,
      unchecked: "Unchecked: Toolgate could not check this call: checking it failed (a fault). Register a corrected schema with tools.register, then Re-check.",
      differ: false,
    });
    const broken = registryResolver([
      { name: "getloan", version: "unsupported-draft", parameters: { $schema: "https://example.com/not-a-draft", type: "object" } },
    ]);
    expect(verdictFor({ tool: "getloan", arguments: {}, outcome: { valid: true } }, broken)).toMatchObject({
      valid: true,
      checked: null,
      unchecked:
        "Unchecked: Toolgate could not check this call: the schema of getloan@unsupported-draft names an unsupported $schema. Register a corrected schema with tools.register, then Re-check.",
    });
  });
});

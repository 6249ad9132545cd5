import { describe, expect, it } from "vitest";
import { definitionTokens, toolSetTokens } from "./context-cost";

const tool = (name: string, description: string) => ({
  name,
  description,
  parameters: { type: "object", properties: { loannumber: { type: "string", description: "The loan number." } }, required: ["loannumber"] },
});

describe("context cost", () => {
  it("counts a definition's tokens with o200k_base: pinned for a known text, more for a longer description", () => {
    // {"type":"function","function":{"name":"a","description":"","parameters":{}}}: 76 characters, 18 tokens of o200k_base (pinned: a change of tokenizer shows)
    expect(definitionTokens({ name: "a", description: "", parameters: {} })).toBe(18);
    const short = definitionTokens(tool("get_loan", "Returns a loan."));
    const long = definitionTokens(tool("get_loan", "Returns a loan with its balance, status and history. Use it when the user names a loan number."));
    expect(long - short).toBeGreaterThan(10);
  });

  it("sums a tool set and lists the costliest first", () => {
    const set = toolSetTokens([tool("a", "Short."), tool("b", "A much longer description that costs more tokens in every call.")]);
    expect(set.tokenizer).toBe("o200k_base");
    expect(set.tools.map((t) => t.name)).toEqual(["b", "a"]);
    expect(set.total).toBe(set.tools[0]!.tokens + set.tools[1]!.tokens);
  });
});

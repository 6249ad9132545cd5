import { describe, expect, it } from "vitest";
import { contextCost, definitionTokens, inputTokenPrice, tokenizerFor, toolSetTokens } from "./context-cost";

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

describe("tokenizerFor", () => {
  it("counts OpenAI's families with their own encodings and says the others are estimates", () => {
    expect(tokenizerFor("gpt-4o-2024-08-06")).toMatchObject({ encoding: "o200k_base", exact: true });
    expect(tokenizerFor("openai/gpt-5-mini")).toMatchObject({ encoding: "o200k_base", exact: true });
    expect(tokenizerFor("o3")).toMatchObject({ encoding: "o200k_base", exact: true });
    expect(tokenizerFor("gpt-4-turbo")).toMatchObject({ encoding: "cl100k_base", exact: true });
    expect(tokenizerFor("gpt-3.5-turbo")).toMatchObject({ encoding: "cl100k_base", exact: true });
    for (const name of ["claude-sonnet-4", "gemini-2.5-pro", "acme-large", "omni"])
      expect(tokenizerFor(name)).toMatchObject({ encoding: "o200k_base", exact: false });
  });

  it("cl100k_base counts the same text differently from o200k_base (pinned)", () => {
    const t = tool("get_loan", "Returns a loan with its balance, status and history. Use it when the user names a loan number.");
    expect([definitionTokens(t, "o200k_base"), definitionTokens(t, "cl100k_base")]).toEqual([68, 66]);
  });
});

describe("inputTokenPrice", () => {
  it("fits the input price apart from the output price when the hours' mixes differ", () => {
    const hours = [
      [1000, 100],
      [2000, 500],
      [1500, 50],
      [800, 400],
    ].map(([i, o]) => ({ inputTokens: i!, outputTokens: o!, costUsd: (i! * 3 + o! * 15) / 1e6 }));
    const price = inputTokenPrice(hours)!;
    expect(price.method).toBe("fit");
    expect(price.usd * 1e6).toBeCloseTo(3, 9);
  });

  it("fits again without an hour whose tokens include calls that reported no cost (an OpenTelemetry run beside priced calls)", () => {
    const priced = (i: number, o: number) => ({ inputTokens: i, outputTokens: o, costUsd: (i * 3 + o * 15) / 1e6 });
    // hours of a dozen calls, as the demo's: 11,000–26,000 input and 150–700 output tokens
    const hours = [
      [11_273, 159],
      [26_319, 708],
      [23_860, 620],
      [17_900, 410],
      [14_200, 350],
      [21_050, 260],
      [19_400, 690],
      [12_800, 300],
      [24_700, 450],
      [16_300, 520],
    ].map(([i, o]) => priced(i!, o!));
    // the demo's hour: 5 priced calls (12,581 / 384 tokens) and an OpenTelemetry run's 4 (5,700 / 220 tokens, no cost)
    const mixed = { ...priced(12_581, 384), inputTokens: 12_581 + 5_700, outputTokens: 384 + 220 };
    expect(inputTokenPrice([...hours, mixed])!.usd * 1e6).toBeCloseTo(3, 9);
    expect(inputTokenPrice([...hours, mixed])!.method).toBe("fit");
  });

  it("falls back to cost over input tokens (an upper bound) when the mix never changes; null without usage", () => {
    const hours = [1, 2, 3].map((k) => ({ inputTokens: 1000 * k, outputTokens: 100 * k, costUsd: (1000 * k * 3 + 100 * k * 15) / 1e6 }));
    const price = inputTokenPrice(hours)!;
    expect(price.method).toBe("upper bound");
    expect(price.usd * 1e6).toBeCloseTo(4.5, 9); // (3 × 1000 + 15 × 100) / 1000 a million input tokens
    expect(inputTokenPrice([{ inputTokens: 0, outputTokens: 0, costUsd: 0 }])).toBeNull();
  });
});

describe("contextCost", () => {
  const hours = [
    { inputTokens: 10_000, outputTokens: 500, costUsd: (10_000 * 2 + 500 * 10) / 1e6 },
    { inputTokens: 20_000, outputTokens: 3000, costUsd: (20_000 * 2 + 3000 * 10) / 1e6 },
  ];
  const usage = (model: string, calls: number) => ({
    model,
    name: model,
    calls,
    hours,
    inputTokens: 30_000,
    outputTokens: 3500,
    costUsd: hours.reduce((s, h) => s + h.costUsd, 0),
  });
  const long = tool("describe_everything", "A long description that costs many tokens in every call. ".repeat(8));
  const short = tool("get_loan", "Returns a loan.");
  const idle = tool("never_called", "Returns nothing anyone asked for. Use it never.");

  it("costs each tool per day from every model's calls and price, the costliest for the least use first", () => {
    const cost = contextCost({
      definitions: [short, long, idle],
      models: [usage("gpt-4o", 20)],
      uses: [
        { tool: "get_loan", calls: 15 },
        { tool: "describe_everything", calls: 5 },
      ],
      days: 2,
    });
    expect(cost.tools.map((t) => t.name)).toEqual(["never_called", "describe_everything", "get_loan"]);
    const [model] = cost.models;
    expect(model).toMatchObject({ model: "gpt-4o", callsPerDay: 10, tokenizer: { exact: true }, price: { method: "fit" } });
    expect(model!.price!.usd * 1e6).toBeCloseTo(2, 9);
    const getLoan = cost.tools.find((t) => t.name === "get_loan")!;
    expect(getLoan.tokensPerDay).toBe(getLoan.tokens * 10);
    expect(getLoan.usdPerDay).toBeCloseTo(getLoan.tokens * 10 * 2e-6, 12);
    expect(getLoan.usdPerUse).toBeCloseTo((getLoan.usdPerDay! * 2) / 15, 12);
    expect(cost.total.tokens).toBe(model!.setTokens);
    expect(cost.total.usdPerDay).toBeCloseTo(model!.setUsdPerDay!, 12);
    expect(model!.inputShare).toBeCloseTo((model!.setTokens * 20) / 30_000, 12);
  });

  it("counts each model with its own tokenizer, and has no dollars without usage figures", () => {
    const both = contextCost({ definitions: [long], models: [usage("gpt-4o", 10), usage("gpt-4-turbo", 10)], uses: [], days: 1 });
    expect(both.models.map((m) => m.setTokens)).toEqual([definitionTokens(long, "o200k_base"), definitionTokens(long, "cl100k_base")]);
    expect(both.tools[0]!.tokensPerDay).toBe(10 * definitionTokens(long, "o200k_base") + 10 * definitionTokens(long, "cl100k_base"));
    const unpriced = contextCost({
      definitions: [long, short],
      models: [{ ...usage("acme-large", 10), hours: [], costUsd: 0 }],
      uses: [{ tool: "get_loan", calls: 1 }],
      days: 1,
    });
    expect(unpriced.total.usdPerDay).toBeNull();
    expect(unpriced.tools.map((t) => [t.name, t.usdPerDay])).toEqual([
      ["describe_everything", null],
      ["get_loan", null],
    ]);
    expect(unpriced.models[0]!.tokenizer.exact).toBe(false);
  });

  it("counts the calls of runs that recorded their tool set with that set, the others with the whole registered set, and says which", () => {
    const registered = [short, long, idle];
    const all = registered.reduce((n, t) => n + definitionTokens(t), 0);
    const cost = contextCost({
      definitions: registered,
      // 20 calls: 12 from runs that carried get_loan alone (and a tool never registered), 8 that said nothing
      models: [{ ...usage("gpt-4o", 20), carried: [{ tools: ["get_loan", "get_loan", "unregistered_tool"], calls: 12 }] }],
      uses: [{ tool: "get_loan", calls: 20 }],
      days: 2,
    });
    expect(cost.basis).toBe("mixed");
    expect(cost.carried).toEqual({ calls: 12, of: 20, sets: 1, unregistered: ["unregistered_tool"] });
    const [model] = cost.models;
    expect(model!.carriedCalls).toBe(12);
    expect(model!.setTokens).toBe(Math.round((12 * definitionTokens(short) + 8 * all) / 20));
    const byName = new Map(cost.tools.map((t) => [t.name, t]));
    expect(byName.get("get_loan")!.tokensPerDay).toBe((definitionTokens(short) * 20) / 2);
    expect(byName.get("describe_everything")!.tokensPerDay).toBe((definitionTokens(long) * 8) / 2);
    expect(cost.total.tokens).toBe(all); // the registered set in one call, as before
    expect(cost.total.tokensPerDay).toBeCloseTo((12 * definitionTokens(short) + 8 * all) / 2, 9);
    expect(model!.inputShare).toBeCloseTo((12 * definitionTokens(short) + 8 * all) / 30_000, 12);
  });

  it("says carried when every call's run recorded its set, registered when none did; a set never outnumbers the model's calls", () => {
    const every = contextCost({
      definitions: [short, long],
      models: [{ ...usage("gpt-4o", 5), carried: [{ tools: ["describe_everything"], calls: 7 }] }],
      uses: [],
      days: 1,
    });
    expect(every.basis).toBe("carried");
    expect(every.carried).toMatchObject({ calls: 5, of: 5, sets: 1 });
    expect(every.models[0]!.setTokens).toBe(definitionTokens(long));
    expect(every.tools.find((t) => t.name === "get_loan")!.tokensPerDay).toBe(0);
    const none = contextCost({ definitions: [short, long], models: [usage("gpt-4o", 5)], uses: [], days: 1 });
    expect(none.basis).toBe("registered");
    expect(none.carried).toEqual({ calls: 0, of: 5, sets: 0, unregistered: [] });
    expect(none.models[0]!.setTokens).toBe(definitionTokens(short) + definitionTokens(long));
  });
});

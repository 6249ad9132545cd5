import { describe, expect, it } from "vitest";
import { eventSchema } from "./event";
import { describeIssues, issueLine } from "./issues";

const good = {
  id: "call-1",
  runId: "run-1",
  step: 0,
  timestamp: "2026-11-30T09:15:00+01:00",
  model: { provider: "acme", name: "gpt-x", version: "2026-10" },
  tool: "getloan",
  arguments: { loannumber: "4471" },
};

const issues = (value: unknown) => {
  const parsed = eventSchema.safeParse(value);
  return parsed.success ? [] : describeIssues(parsed.error).map(issueLine);
};

describe("eventSchema", () => {
  it("accepts the documented example event (docs/events.md), with raw-string arguments too", () => {
    expect(issues(good)).toEqual([]);
    expect(issues({ ...good, arguments: "{loannumber: 4471" })).toEqual([]);
  });

  it("says what was wrong, what was sent and how to fix it", () => {
    expect(issues({ ...good, timestamp: "yesterday" })).toEqual([
      'timestamp: expected an ISO 8601 date with offset such as "2026-11-30T09:15:00Z", got "yesterday"',
    ]);
    expect(issues({ ...good, timestamp: "2026-11-30T09:15:00" })[0]).toMatch(/with offset/);
    expect(issues({ ...good, step: -1 })).toEqual(["step: step must be 0 or more"]);
    expect(issues({ ...good, arguments: [1, 2] })[0]).toMatch(/^arguments: expected the arguments as a JSON object.*got \[1,2\]/);
    expect(issues({ ...good, model: { name: 5 } })).toEqual(["model.name: expected model.name as a string, got 5"]);
  });

  it("refuses unknown fields by name, at the top and inside", () => {
    expect(issues({ ...good, tokens: 5 })).toEqual(['unknown field "tokens": remove it, or put it in metadata']);
    expect(issues({ ...good, model: { name: "m", temperature: 0 } })).toEqual(['model: unknown field "temperature": remove it, or put it in metadata']);
  });

  it("keeps __proto__ keys in arguments as data without polluting any prototype", () => {
    const event = JSON.parse(JSON.stringify(good).replace('"loannumber"', '"__proto__":{"polluted":true},"loannumber"'));
    const parsed = eventSchema.parse(event);
    expect(Object.keys(parsed.arguments as object)).toContain("__proto__");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("eventSchema: only what the columns can hold", () => {
  const deep = (levels: number) => {
    let value: unknown = "leaf";
    for (let i = 0; i < levels; i++) value = { a: value };
    return value as Record<string, unknown>;
  };

  it("refuses NUL and lone surrogates in any string, naming the field and showing the text", () => {
    expect(issues({ ...good, id: "call\u00001" })).toEqual([
      'id: id "call\\u00001" contains a NUL character (\\u0000) at character 5, which PostgreSQL cannot store: remove it, or send binary data as base64',
    ]);
    expect(issues({ ...good, model: { name: "m\ud800" } })[0]).toMatch(
      /^model\.name: model\.name "m\\ud800" contains a lone UTF-16 surrogate \(\\ud800\) at character 2/,
    );
    expect(issues({ ...good, outcome: { valid: false, message: "\u0000" } })[0]).toMatch(/^outcome\.message: .*NUL/);
    expect(issues({ ...good, arguments: { list: ["ok", "x\u0000"] } })[0]).toMatch(/^arguments\.list\[1\]: the string "x\\u0000" contains a NUL/);
    expect(issues({ ...good, arguments: { ["k\udc00"]: 1 } })[0]).toMatch(/^arguments\["k\\udc00"\]: the key "k\\udc00" contains a lone UTF-16 surrogate/);
    expect(issues({ ...good, arguments: '{"a": "\u0000"}' })[0]).toMatch(/^arguments: the arguments .* contains a NUL/);
    expect(issues({ ...good, metadata: { ["env\u0000"]: "prod" } })[0]).toMatch(/^metadata\["env\\u0000"\]: the metadata key "env\\u0000" contains a NUL/);
    expect(issues({ ...good, arguments: { emoji: "ok 😀" } })).toEqual([]);
  });

  it("refuses integers a 32-bit column cannot hold", () => {
    expect(issues({ ...good, step: 2 ** 31 })).toEqual(["step: step must be at most 2,147,483,647 (a 32-bit integer), got 2147483648"]);
    expect(issues({ ...good, step: 2 ** 31 - 1 })).toEqual([]);
    expect(issues({ ...good, result: { status: "ok", latencyMs: 2 ** 31 } })[0]).toMatch(/^result\.latencyMs: result\.latencyMs must be at most 2,147,483,647/);
    expect(issues({ ...good, usage: { inputTokens: 2 ** 35, outputTokens: 2 ** 40 } })).toHaveLength(2);
  });

  it("refuses offsets and years PostgreSQL refuses, saying the time in UTC", () => {
    expect(issues({ ...good, timestamp: "2026-11-30T09:15:00-23:59" })).toEqual([
      'timestamp: the offset -23:59 of "2026-11-30T09:15:00-23:59" is beyond what PostgreSQL accepts (-15:59 to +15:59; real time zones are within ±14:00): send the time in UTC, "2026-12-01T09:14:00.000Z"',
    ]);
    expect(issues({ ...good, timestamp: "2026-11-30T09:15:00+15:59" })).toEqual([]);
    expect(issues({ ...good, timestamp: "0000-01-01T00:00:00Z" })[0]).toMatch(/year 0000/);
    expect(issues({ ...good, timestamp: "0001-01-01T00:00:00Z" })).toEqual([]);
  });

  it("bounds costUsd so that a rollup bucket's sum cannot overflow", () => {
    expect(issues({ ...good, usage: { costUsd: 1e308 } })).toEqual([
      "usage.costUsd: usage.costUsd is at most 1,000,000 (US dollars for one call), got 1e+308: send the cost of this call in dollars",
    ]);
    expect(issues({ ...good, usage: { costUsd: 0.0042 } })).toEqual([]);
  });

  it("refuses arguments nested too deep, at any depth, without overflowing the stack", () => {
    expect(issues({ ...good, arguments: deep(64) })).toEqual([]);
    for (const levels of [65, 5_000, 100_000]) {
      const [line] = issues({ ...good, arguments: deep(levels) });
      expect(line).toMatch(/^arguments(\.a){65}: the arguments are nested more than 64 levels deep here: flatten them$/);
    }
    expect(issues({ ...good, model: JSON.parse("[".repeat(10_000) + "]".repeat(10_000)) })[0]).toMatch(/^model: expected model as an object, got \[\[\[/);
  });

  it("refuses non-finite numbers instead of storing them as null, and oversized arguments", () => {
    expect(issues({ ...good, arguments: JSON.parse('{"amount": 1e400}') })).toEqual([
      'arguments.amount: the number Infinity cannot be stored (a JSON number beyond ±1.8e308, such as 1e400, reads as Infinity and would become null): send it as a string, such as "1e400"',
    ]);
    expect(issues({ ...good, arguments: { text: "x".repeat(1_048_576) } })[0]).toMatch(
      /^arguments: the arguments are 1,048,5\d\d characters as JSON, more than 1,048,576/,
    );
  });

  it("keeps a __proto__ metadata key rather than dropping it", () => {
    const parsed = eventSchema.parse({ ...good, metadata: JSON.parse('{"__proto__": "x", "env": "prod"}') });
    expect(JSON.parse(JSON.stringify(parsed.metadata))).toEqual(JSON.parse('{"__proto__": "x", "env": "prod"}'));
    expect(Object.keys(parsed.metadata!)).toEqual(["__proto__", "env"]);
    expect(issues({ ...good, metadata: { env: 5 } })).toEqual(["metadata.env: expected metadata values as strings, got 5: send it as a string"]);
  });
});

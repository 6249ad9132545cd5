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
  it("accepts the event of DESIGN.md, with raw-string arguments too", () => {
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

import { describe, expect, it } from "vitest";
import { ruleInputOf, ruleStateText, ruleView } from "./rule-view";
import { alertRuleInput } from "../../contracts/alerts";

const row = {
  id: "3f0a7e0e-3c55-4a43-9a43-5b8e3f1d9d11",
  name: "getloan > 10 % over 1 h",
  metric: "invalid_rate",
  category: null,
  scopeTool: "getloan",
  scopeModel: null,
  scopeVersion: null,
  condition: "threshold",
  threshold: 0.1,
  factor: null,
  baselineMinutes: null,
  windowMinutes: 60,
  minCalls: 50,
  severity: "warning",
  enabled: true,
  builtIn: false,
  webhookIds: [],
  lastEvaluatedAt: new Date("2026-12-01T14:00:00Z"),
  lastState: "not_enough_calls",
  lastValue: 0.4,
  lastThreshold: 0.1,
  lastCalls: 20,
  clearSince: null,
};

describe("ruleStateText", () => {
  it("names the call minimum that keeps a rule silent, with the calls there were", () => {
    expect(ruleStateText(ruleView(row), "UTC")).toBe(
      "20 checked calls over the last 1 h, under the minimum of 50 checked calls: the rule stays silent (40.00% now).",
    );
  });
  it("says the value against the threshold when firing or ok, and when a pending incident resolves", () => {
    expect(ruleStateText(ruleView({ ...row, lastState: "firing", lastCalls: 400 }), "UTC")).toBe(
      "40.00% is above 10.00% over the last 1 h (400 checked calls).",
    );
    expect(ruleStateText(ruleView({ ...row, lastState: "ok", lastValue: 0.02, lastCalls: 400 }), "UTC")).toBe(
      "2.00% against 10.00% over the last 1 h (400 checked calls).",
    );
    expect(
      ruleStateText(ruleView({ ...row, lastState: "pending", lastValue: 0.02, lastCalls: 400, clearSince: new Date("2026-12-01T13:40:00Z") }), "UTC"),
    ).toMatch(/resolves once it stays clear for a whole window \(1 h\), clear since 2026-12-01 13:40 UTC/);
    expect(ruleStateText(ruleView({ ...row, lastState: "pending", clearSince: new Date("2026-12-01T13:40:00Z") }), "Europe/Berlin")).toMatch(
      /clear since 2026-12-01 14:40 GMT\+1\.$/,
    );
    expect(ruleStateText(ruleView({ ...row, lastState: "no_data", lastValue: null, lastCalls: 0 }), "UTC")).toMatch(/^No calls in scope over the last 1 h/);
    expect(ruleStateText(ruleView({ ...row, lastState: null }), "UTC")).toMatch(/^Not evaluated yet/);
  });
});

describe("ruleInputOf", () => {
  it("gives back an input the rule schema accepts, for the preview of a saved rule", () => {
    expect(alertRuleInput.parse(ruleInputOf(ruleView(row)))).toMatchObject({ threshold: 0.1, scope: { tool: "getloan" }, minCalls: 50 });
  });
});

import { describe, expect, it } from "vitest";
import { ALERT_METRICS, alertRuleInput, readAlertMetric, silenceInput } from "./alerts";

const base = { name: "getloan invalid rate", metric: "invalid_rate", condition: "threshold", windowMinutes: 15 } as const;

describe("alertRuleInput", () => {
  it("refuses a threshold of 140% with the allowed range", () => {
    const parsed = alertRuleInput.safeParse({ ...base, threshold: 1.4 });
    // the form's field is "Threshold (%)": the error speaks in percent too, never of fractions
    expect(parsed.error?.issues[0]?.message).toBe("the threshold for invalid rate must be from 0% to 100%; you sent 140%");
    expect(alertRuleInput.safeParse({ ...base }).error?.issues[0]?.message).toBe("set a threshold: a percentage from 0% to 100%");
  });
  it("asks for a reason and a rule or scope to silence, and a duration of 5 minutes to 30 days", () => {
    expect(silenceInput.safeParse({ minutes: 60, reason: "migration" }).error?.issues[0]?.message).toMatch(/choose a rule, or a tool and\/or a model/);
    expect(silenceInput.safeParse({ tool: "getloan", minutes: 60, reason: " " }).error?.issues[0]?.message).toMatch(/say why/);
    expect(silenceInput.safeParse({ tool: "getloan", minutes: 2, reason: "x" }).error?.issues[0]?.message).toMatch(/5 minutes to 30 days/);
    expect(silenceInput.parse({ model: "acme-large", minutes: 60, reason: "rollout" })).toMatchObject({ model: "acme-large" });
  });
  it("refuses windows outside 5 minutes to 24 hours and asks for what a condition needs", () => {
    expect(alertRuleInput.safeParse({ ...base, threshold: 0.1, windowMinutes: 2 }).error?.issues[0]?.message).toMatch(/5 minutes to 24 hours/);
    expect(alertRuleInput.safeParse({ ...base, condition: "baseline_factor" }).error?.issues.map((i) => i.path[0])).toEqual(["factor", "baselineMinutes"]);
    expect(alertRuleInput.safeParse({ ...base, metric: "category_rate", threshold: 0.1 }).error?.issues[0]?.path).toEqual(["category"]);
  });
  it("accepts a complete rule with defaults", () => {
    expect(alertRuleInput.parse({ ...base, threshold: 0.1 })).toMatchObject({ minCalls: 50, severity: "warning", scope: {}, webhookIds: [] });
  });
});

describe("readAlertMetric", () => {
  it("passes the known metrics and refuses anything else by name", () => {
    for (const metric of ALERT_METRICS) expect(readAlertMetric(metric)).toBe(metric);
    expect(() => readAlertMetric("invalid_rates")).toThrow(/Unknown alert metric "invalid_rates".*invalid_rate, category_rate/);
  });
});

import { describe, expect, it } from "vitest";
import { ALERT_METRICS, alertRuleInput, readAlertMetric } from "./alerts";

const base = { name: "getloan invalid rate", metric: "invalid_rate", condition: "threshold", windowMinutes: 15 } as const;

describe("alertRuleInput", () => {
  it("refuses a threshold of 140% with the allowed range", () => {
    const parsed = alertRuleInput.safeParse({ ...base, threshold: 1.4 });
    expect(parsed.error?.issues[0]?.message).toBe("the threshold for invalid rate must be a fraction from 0 to 1 (0% to 100%); you sent 140%");
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

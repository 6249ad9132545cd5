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
  it("keeps a name of up to 200 characters whole and refuses a longer one with its length, never cutting it", () => {
    const long = "r".repeat(200);
    expect(alertRuleInput.parse({ ...base, threshold: 0.1, name: long }).name).toBe(long);
    expect(alertRuleInput.safeParse({ ...base, threshold: 0.1, name: "r".repeat(10_000) }).error?.issues[0]?.message).toBe(
      "a rule name is at most 200 characters; this one has 10000: shorten it (the whole name is kept, never cut)",
    );
  });
  it("says what is wrong with a minimum number of calls below 0 or not whole, and what was sent", () => {
    const minCalls = (n: number) => alertRuleInput.safeParse({ ...base, threshold: 0.1, minCalls: n }).error?.issues[0]?.message;
    expect(minCalls(-1)).toBe("the minimum number of calls cannot be negative: 0 (no minimum) or more, e.g. 50; you sent -1");
    expect(minCalls(2.5)).toBe("the minimum number of calls is a whole number, e.g. 50; you sent 2.5");
    expect(minCalls(NaN)).toMatch(/expected number, received NaN/); // the form says "Enter a number." to this one only
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

describe("the tool error rate, latency p95 and spirals rules' input", () => {
  const base = { name: "r", scope: {}, condition: "threshold" as const, windowMinutes: 60 };
  const message = (input: unknown) => {
    const parsed = alertRuleInput.safeParse(input);
    return parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  };

  it("takes each new kind with its unit", () => {
    expect(alertRuleInput.parse({ ...base, metric: "tool_error_rate", threshold: 0.2 })).toMatchObject({ metric: "tool_error_rate", threshold: 0.2 });
    expect(alertRuleInput.parse({ ...base, metric: "latency_p95", threshold: 2000 })).toMatchObject({ threshold: 2000 });
    expect(alertRuleInput.parse({ ...base, metric: "spirals", threshold: 0, spiralLength: 4 })).toMatchObject({ spiralLength: 4 });
  });

  it("names the field, what was sent and how to fix it", () => {
    expect(message({ ...base, metric: "error_rate", threshold: 0.2 })).toMatch(
      /^metric: unknown rule kind "error_rate": the metric is one of invalid_rate, .*tool_error_rate, empty_result_rate, latency_p95, spirals/,
    );
    expect(message({ ...base, metric: "tool_error_rate", threshold: 1.4 })).toBe(
      "threshold: the threshold for tool error rate must be from 0% to 100%; you sent 140%",
    );
    expect(message({ ...base, metric: "latency_p95", threshold: 0 })).toBe(
      "threshold: the threshold for latency p95 must be from 1 to 3,600,000 ms (1 hour); you sent 0 ms",
    );
    expect(message({ ...base, metric: "latency_p95", threshold: 500, windowMinutes: 15 })).toBe(
      "windowMinutes: a latency p95 rule reads the hourly rollups, so its window is 60 to 1440 minutes; you sent 15: use 60 or more",
    );
    expect(message({ ...base, metric: "spirals", threshold: 1, spiralLength: 1 })).toBe(
      "spiralLength: a spiral is at least 2 failed attempts in a row; you sent 1: send 2 to 50",
    );
    expect(message({ ...base, metric: "invalid_rate", threshold: 0.1, spiralLength: 3 })).toMatch(/^spiralLength: the spiral length is for spirals rules only/);
    expect(message({ ...base, metric: "spirals", condition: "baseline_factor", factor: 2, baselineMinutes: 1440 })).toBe(
      'condition: a retry spirals rule takes a threshold; you sent condition "baseline_factor": send condition "threshold" with a threshold',
    );
  });
});

import { describe, expect, it } from "vitest";
import { ALERT_METRICS } from "../../contracts/alerts";
import { explorerUrl, readExplorerParams } from "../calls/explorer-params";
import {
  categoryRateRows,
  firstSeen,
  formatMetricValue,
  formatWindow,
  incidentCalls,
  incidentWindows,
  MATCHING_CALLS,
  REGRESSION_METRIC,
  scopeText,
} from "./format";
import { describeRule } from "./rule-view";

const H = 3_600_000;
const now = new Date("2026-11-30T10:20:00Z");

describe("alerts format", () => {
  it("says values the way rules state them", () => {
    expect(formatMetricValue("invalid_rate", 0.1234)).toBe("12.34%");
    expect(formatMetricValue("regression", 0.2)).toBe("20.00%");
    expect(formatMetricValue("attempts_per_success", 1.234)).toBe("1.23");
    expect(formatMetricValue("call_volume", 12345)).toBe("12,345");
    expect(formatMetricValue("latency_p95", 2500.4)).toBe("2,500 ms");
    expect(formatMetricValue("spirals", 3)).toBe("3");
    expect(formatMetricValue("invalid_rate", null)).toBe("–");
  });

  it("describes scopes and windows", () => {
    expect(scopeText({})).toBe("whole project");
    expect(scopeText({ tool: "get_loan", model: "acme-large", modelVersion: "2026-11" })).toBe("tool get_loan · model acme-large 2026-11");
    expect(formatWindow(5)).toBe("5 min");
    expect(formatWindow(90)).toBe("1 h 30 min");
    expect(formatWindow(1440)).toBe("1 d");
    expect(formatWindow(10080)).toBe("7 d");
    expect(
      describeRule({ metric: "invalid_rate", category: null, condition: "threshold", threshold: 0.14, factor: null, baselineMinutes: null, windowMinutes: 60 }),
    ).toBe("Invalid rate above 14.00% over 1 h");
  });

  it("puts a rule's incident in the middle of a chart of at least a day, never past now", () => {
    const w = incidentWindows({ windowStart: "2026-11-30T09:15:00Z", firedAt: "2026-11-30T10:15:00Z" }, now);
    expect(w.window).toEqual({ from: Date.parse("2026-11-30T09:15:00Z"), to: Date.parse("2026-11-30T10:15:00Z") });
    expect(w.rollupWindow).toEqual({ from: Date.parse("2026-11-30T09:00:00Z"), to: Date.parse("2026-11-30T11:00:00Z") });
    expect(w.chart.from).toBe(Date.parse("2026-11-29T21:00:00Z"));
    expect(w.chart.to).toBe(Date.parse("2026-11-30T11:00:00Z"));
  });

  it("makes a regression's window the new version's life", () => {
    const since = Date.parse("2026-11-20T00:00:00Z");
    const w = incidentWindows({ windowStart: "2026-11-30T09:15:00Z", firedAt: "2026-11-30T10:15:00Z" }, now, since);
    expect(w.window.from).toBe(since);
    expect(w.chart.from).toBeLessThanOrEqual(since - 10 * 24 * H);
  });

  it("links to the explorer with the scope and window", () => {
    const href = explorerUrl(
      "acme",
      incidentCalls({ model: "acme-large", modelVersion: "2026-11" }, { from: Date.parse("2026-11-20T00:00:00Z"), to: Date.parse("2026-11-30T10:15:00Z") }),
    );
    expect(href).toBe("/p/acme/calls?valid=invalid&from=2026-11-20T00%3A00%3A00Z&to=2026-11-30T10%3A15%3A00Z&model=acme-large&modelVersion=2026-11");
  });

  it("links each kind of incident to the calls it is about, as the explorer reads the link back", () => {
    const window = { from: Date.parse("2026-11-30T09:15:00Z"), to: Date.parse("2026-11-30T10:15:00Z") };
    const filterOf = (metric: string, category?: string) => {
      const href = explorerUrl("acme", incidentCalls({ tool: "get_loan" }, window, category, metric));
      const view = readExplorerParams(Object.fromEntries(new URL(href, "http://x").searchParams), now);
      expect(view.problems, href).toEqual([]);
      const { from, to, ...rest } = view.filter;
      expect([from, to]).toEqual(["2026-11-30T09:15:00.000Z", "2026-11-30T10:15:00.000Z"]);
      return rest;
    };
    expect(Object.keys(MATCHING_CALLS).sort()).toEqual([...ALERT_METRICS, REGRESSION_METRIC].sort());
    for (const metric of ["invalid_rate", "attempts_per_success", REGRESSION_METRIC])
      expect(filterOf(metric), metric).toEqual({ tool: "get_loan", valid: "invalid" });
    expect(filterOf("category_rate", "wrong_type")).toEqual({ tool: "get_loan", valid: "invalid", category: "wrong_type" });
    expect(filterOf("tool_error_rate")).toEqual({ tool: "get_loan", outcome: "failed" });
    expect(filterOf("empty_result_rate")).toEqual({ tool: "get_loan", outcome: "empty" });
    for (const metric of ["latency_p95", "call_volume", "spirals"]) expect(filterOf(metric), metric).toEqual({ tool: "get_loan" });
    // a kind this release does not know (a rule stored by a newer one) links to the invalid calls
    expect(filterOf("someday_metric")).toEqual({ tool: "get_loan", valid: "invalid" });
  });

  it("finds when a version first had calls, and one category's rate per bucket", () => {
    const rows = [
      { bucket: "2026-11-21T00:00:00.000Z", key: "acme-large 2026-11", calls: 3 },
      { bucket: "2026-11-20T00:00:00.000Z", key: "acme-large 2026-11", calls: 0 },
      { bucket: "2026-11-19T00:00:00.000Z", key: "acme-large 2026-09", calls: 9 },
    ];
    expect(firstSeen(rows, "acme-large 2026-11")).toBe(Date.parse("2026-11-21T00:00:00Z"));
    expect(firstSeen(rows, "nope")).toBeNull();
    expect(
      categoryRateRows(
        [
          { bucket: "a", calls: 16, invalid: 3, unchecked: 6 },
          { bucket: "b", calls: 4, invalid: 0, unchecked: 0 },
        ],
        [
          { bucket: "a", key: "wrong_type", calls: 2 },
          { bucket: "a", key: "unknown_tool", calls: 1 },
        ],
        "wrong_type",
      ),
    ).toEqual([
      { bucket: "a", series: "rate", numerator: 2, denominator: 10 },
      { bucket: "b", series: "rate", numerator: 0, denominator: 4 },
    ]);
  });
});

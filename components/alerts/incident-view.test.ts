import { describe, expect, it } from "vitest";
import { incidentRanges, planIncident, prepareIncident, TOP, type BreakdownInput, type IncidentInput, type SeriesInput } from "./incident-view";

const now = new Date("2026-11-30T12:20:00Z");

function incident(overrides: Partial<IncidentInput> = {}): IncidentInput {
  return {
    id: "0f9d3c56-1b1e-4c36-9d7e-3d1c6a3b2e11",
    state: "firing",
    severity: "critical",
    summary: "Invalid rate 40% over 1 h (threshold 10%)",
    value: 0.4,
    threshold: 0.1,
    calls: 1234,
    firedAt: "2026-11-30T10:15:00Z",
    windowStart: "2026-11-30T09:15:00Z",
    resolvedAt: null,
    scopeTool: "get_loan",
    scopeModel: null,
    scopeVersion: null,
    rule: { name: "Loans failing", metric: "invalid_rate", category: null, windowMinutes: 60 },
    events: [],
    deliveries: [],
    ...overrides,
  };
}

/** The page's two steps, with the answers a test gives instead of the API. */
function view(
  input: IncidentInput,
  answers: { lookback?: SeriesInput; series?: SeriesInput; categorySeries?: SeriesInput; tools?: BreakdownInput; categories?: BreakdownInput } = {},
  role: "viewer" | "member" | "admin" = "member",
  zone = "UTC",
) {
  const plan = planIncident(input);
  const lookback = plan.lookback ? (answers.lookback ?? { bucket: "day", rows: [] }) : null;
  const ranges = incidentRanges(input, plan, lookback, now);
  return {
    plan,
    ranges,
    view: prepareIncident({
      slug: "acme",
      role,
      incident: input,
      now,
      plan,
      ranges,
      lookback,
      series: plan.regression ? null : (answers.series ?? { bucket: "hour", rows: [] }),
      categorySeries: answers.categorySeries ?? null,
      tools: answers.tools ?? [],
      zone,
      categories: answers.categories ?? [],
    }),
  };
}

describe("the incident page's preparer", () => {
  it("charts a rule's invalid rate per hour around the incident, with the threshold and a fired marker", () => {
    const series: SeriesInput = {
      bucket: "hour",
      rows: [
        { bucket: "2026-11-30T09:00:00.000Z", key: "", calls: 10, invalid: 1, unchecked: 0 },
        { bucket: "2026-11-30T10:00:00.000Z", key: "", calls: 20, invalid: 8, unchecked: 0 },
      ],
    };
    const { plan, ranges, view: v } = view(incident(), { series });
    expect(plan).toEqual({ regression: false, scope: { tool: "get_loan" }, lookback: null });
    expect(ranges.chartQuery).toEqual({ from: "2026-11-29T21:00:00Z", to: "2026-11-30T13:00:00Z" });
    expect(ranges.rollup).toEqual({ from: "2026-11-30T09:00:00Z", to: "2026-11-30T11:00:00Z" });
    expect(v.chart.title).toBe("Invalid rate around the incident");
    expect(v.chart.description).toBe("tool get_loan · the dashed red line is the threshold · per hour, UTC");
    expect(v.chart.threshold).toBe(0.1);
    expect(v.chart.markers).toEqual([{ at: Date.parse("2026-11-30T10:15:00Z"), label: "fired" }]);
    expect(v.chart.labels).toHaveLength(16);
    const line = v.chart.series[0]!;
    expect(line.key).toBe("Invalid rate");
    expect(line.values[v.chart.labels.indexOf(Date.parse("2026-11-30T10:00:00Z"))]).toBe(0.4);
    expect(line.values[0]).toBeNull();
    expect(v.chart.explorerHref).toBe("/p/acme/calls?valid=invalid&from=2026-11-30T09%3A15%3A00Z&to=2026-11-30T10%3A15%3A00Z&tool=get_loan");
    expect(v.whatFired).toMatchObject({ valueLabel: "Invalid rate", value: "40.00%", thresholdLabel: "Threshold", threshold: "10.00%", calls: "1,234" });
    expect(v.whatFired.window).toBe("2026-11-30 09:15 UTC – 2026-11-30 10:15 UTC (1 h before it fired)");
    expect(v.age).toBe("fired 2 h 5 min ago · 2026-11-30 10:15 UTC");
  });

  it("charts the result rates over results, and links each to its own calls", () => {
    const series: SeriesInput = {
      bucket: "hour",
      rows: [
        {
          bucket: "2026-11-30T10:00:00.000Z",
          key: "",
          calls: 50,
          invalid: 5,
          unchecked: 0,
          results: 40,
          toolErrors: 4,
          notFound: 2,
          timeouts: 1,
          notAllowed: 1,
          emptyResults: 10,
        },
      ],
    };
    const at = (v: ReturnType<typeof view>["view"]) => v.chart.series[0]!.values[v.chart.labels.indexOf(Date.parse("2026-11-30T10:00:00Z"))];
    const errors = view(incident({ rule: { name: "Errors", metric: "tool_error_rate", category: null, windowMinutes: 60 } }), { series }).view;
    expect([errors.chart.title, at(errors), errors.chart.explorerLabel]).toEqual([
      "Tool error rate around the incident",
      8 / 40,
      "Failed results in the explorer →",
    ]);
    expect(errors.chart.explorerHref).toContain("?outcome=failed&");
    const empty = view(incident({ rule: { name: "Empty", metric: "empty_result_rate", category: null, windowMinutes: 60 } }), { series }).view;
    expect([empty.chart.title, at(empty), empty.chart.explorerLabel]).toEqual([
      "Empty result rate around the incident",
      10 / 40,
      "Empty results in the explorer →",
    ]);
    expect(empty.chart.explorerHref).toContain("?outcome=empty&");
    expect(empty.whatFired).toMatchObject({ valueLabel: "Empty result rate", value: "40.00%" });
  });

  it("shows every time in the viewer's zone when they chose local time", () => {
    const { view: v } = view(
      incident({ events: [{ kind: "fired", actor: null, at: "2026-11-30T10:15:00Z", note: null, endsAt: null }] }),
      {},
      "member",
      "Asia/Kolkata",
    );
    expect(v.age).toBe("fired 2 h 5 min ago · 2026-11-30 15:45 GMT+5:30");
    expect(v.whatFired.window).toBe("2026-11-30 14:45 GMT+5:30 – 2026-11-30 15:45 GMT+5:30 (1 h before it fired)");
    expect(v.timeline.map((e) => e.at)).toEqual(["2026-11-30 15:45 GMT+5:30"]);
    expect(v.chart.description).toBe("tool get_loan · the dashed red line is the threshold · per hour, GMT+5:30");
    expect(v.chart.zone).toBe("Asia/Kolkata");
  });

  it("has nothing to chart or rank when the window had no calls, and says so without dividing by zero", () => {
    const { view: v } = view(incident({ calls: 0, value: null }), { tools: [{ key: "get_loan", calls: 0, invalid: 0, unchecked: 0 }] });
    expect(v.chart.series).toEqual([]);
    expect(v.tools.rows).toEqual([]);
    expect(v.tools.more).toBeNull();
    expect(v.tools.description).toBe("In the window: 0 of 0 checked calls invalid");
    expect(v.categories).toEqual([]);
    expect(v.whatFired.value).toBe("–");
    expect(v.whatFired.calls).toBe("0");
  });

  it("ranks failing tools by invalid calls (ties by name), shows the top ones and counts the rest", () => {
    const tools = Array.from({ length: TOP + 4 }, (_, i) => ({ key: `tool_${String.fromCharCode(97 + i)}`, calls: 100, invalid: 1 + (i % 4), unchecked: 0 }));
    tools.push({ key: "quiet", calls: 500, invalid: 0, unchecked: 0 });
    const { view: v } = view(incident(), { tools });
    const failing = tools.filter((t) => t.invalid > 0);
    expect(v.tools.rows).toHaveLength(TOP);
    expect(v.tools.rows.map((r) => r.key)).toEqual(["tool_d", "tool_h", "tool_c", "tool_g", "tool_b", "tool_f"]);
    expect(v.tools.more).toBe(`${TOP} of ${failing.length} failing tools.`);
    expect(v.tools.rows[0]).toEqual({
      key: "tool_d",
      href: "/p/acme/calls?valid=invalid&from=2026-11-30T09%3A15%3A00Z&to=2026-11-30T10%3A15%3A00Z&tool=tool_d",
      invalid: "4",
      checked: "100",
      rate: "4.0%",
    });
    const total = tools.reduce((n, t) => n + t.calls, 0);
    const invalid = tools.reduce((n, t) => n + t.invalid, 0);
    expect(v.tools.description).toBe(`In the window: ${invalid} of ${total.toLocaleString("en")} checked calls invalid`);
  });

  it("rates over checked calls: unchecked calls are left out of the chart, the failing tools and the window's count", () => {
    const series: SeriesInput = { bucket: "hour", rows: [{ bucket: "2026-11-30T10:00:00.000Z", key: "", calls: 40, invalid: 5, unchecked: 30 }] };
    const { view: v } = view(incident(), {
      series,
      tools: [
        { key: "get_loan", calls: 40, invalid: 5, unchecked: 30 },
        { key: "never_checked", calls: 25, invalid: 0, unchecked: 25 },
      ],
    });
    expect(v.chart.series[0]!.values[v.chart.labels.indexOf(Date.parse("2026-11-30T10:00:00Z"))]).toBe(0.5);
    expect(v.tools.rows).toEqual([expect.objectContaining({ key: "get_loan", invalid: "5", checked: "10", rate: "50.0%" })]);
    expect(v.tools.description).toBe("In the window: 5 of 10 checked calls invalid (55 unchecked left out)");
  });

  it("gives each failure category its share of the window's invalid calls, named and linked", () => {
    const { view: v } = view(incident({ scopeTool: null }), {
      tools: [
        { key: "a", calls: 30, invalid: 6, unchecked: 0 },
        { key: "b", calls: 10, invalid: 2, unchecked: 0 },
      ],
      categories: [
        { key: "wrong_type", calls: 6, invalid: 6, unchecked: 0 },
        { key: "some_future_category", calls: 2, invalid: 2, unchecked: 0 },
        { key: "missing_argument", calls: 0, invalid: 0, unchecked: 0 },
      ],
    });
    expect(v.categories.map((c) => [c.label, c.invalid, c.share])).toEqual([
      ["Wrong type", "6", "75.0%"],
      ["some_future_category", "2", "25.0%"],
    ]);
    expect(v.categories[0]!.href).toBe("/p/acme/calls?valid=invalid&from=2026-11-30T09%3A15%3A00Z&to=2026-11-30T10%3A15%3A00Z&category=wrong_type");
  });

  it("charts a regression per model version from the lookback, marking when the new version appeared", () => {
    const input = incident({
      scopeTool: null,
      scopeModel: "acme-large",
      scopeVersion: "2026-11",
      rule: { name: "Regression guard", metric: "regression", category: null, windowMinutes: 60 },
      value: 0.2,
      threshold: 0.05,
    });
    const lookback: SeriesInput = {
      bucket: "day",
      rows: [
        { bucket: "2026-11-10T00:00:00.000Z", key: "acme-large 2026-09", calls: 100, invalid: 50, unchecked: 0 },
        { bucket: "2026-11-20T00:00:00.000Z", key: "acme-large 2026-09", calls: 100, invalid: 5, unchecked: 0 },
        { bucket: "2026-11-25T00:00:00.000Z", key: "acme-large 2026-11", calls: 50, invalid: 10, unchecked: 0 },
        { bucket: "2026-11-24T00:00:00.000Z", key: "acme-large 2026-11", calls: 0, invalid: 0, unchecked: 0 },
      ],
    };
    const { plan, ranges, view: v } = view(input, { lookback });
    expect(plan.regression).toBe(true);
    expect(plan.lookback).toMatchObject({ model: "acme-large", range: { from: "2026-09-01T10:15:00Z", to: "2026-11-30T11:00:00Z" } });
    expect(ranges.since).toBe(Date.parse("2026-11-25T00:00:00Z"));
    expect(v.chart.bucket).toBe("day");
    expect(v.chart.series.map((s) => s.key)).toEqual(["acme-large 2026-09", "acme-large 2026-11"]);
    // the chart starts 14 days before it fired: the 50% day of the old version falls outside
    expect(v.chart.labels[0]).toBe(Date.parse("2026-11-16T00:00:00Z"));
    expect(v.chart.series[0]!.values.filter((x) => x !== null)).toEqual([0.05]);
    expect(v.chart.markers.map((m) => m.label)).toEqual(["2026-11 first seen", "fired"]);
    expect(v.chart.threshold).toBe(0.05);
    expect(v.chart.description).toBe("acme-large, one line per version; the dashed red line is the previous version's rate · per day (UTC days)");
    expect(v.whatFired).toMatchObject({ valueLabel: "New version", value: "20.00%", thresholdLabel: "Previous version", threshold: "5.00%" });
    expect(v.whatFired.window).toBe("2026-11-25 00:00 UTC – 2026-11-30 10:15 UTC (since 2026-11 first appeared)");
  });

  it("charts a tool error regression per model version over results, and links to the failed results", () => {
    const input = incident({
      scopeTool: null,
      scopeModel: "acme-large",
      scopeVersion: "2026-11",
      subject: "model:acme-large:2026-11:tool_error_rate",
      rule: { name: "Regression guard", metric: "regression", category: null, windowMinutes: 60 },
      value: 0.25,
      threshold: 0.05,
    });
    const outcomes = { toolErrors: 0, notFound: 0, timeouts: 0, notAllowed: 0, emptyResults: 0 };
    const lookback: SeriesInput = {
      bucket: "day",
      rows: [
        { bucket: "2026-11-20T00:00:00.000Z", key: "acme-large 2026-09", calls: 100, invalid: 0, unchecked: 0, ...outcomes, results: 80, toolErrors: 4 },
        {
          bucket: "2026-11-25T00:00:00.000Z",
          key: "acme-large 2026-11",
          calls: 100,
          invalid: 0,
          unchecked: 0,
          ...outcomes,
          results: 40,
          timeouts: 6,
          notFound: 4,
        },
      ],
    };
    const { view: v } = view(input, { lookback });
    expect(v.chart.title).toBe("Tool error rate of a new model version around the incident");
    const value = (key: string) => v.chart.series.find((s) => s.key === key)!.values.filter((x) => x !== null);
    expect([value("acme-large 2026-09"), value("acme-large 2026-11")]).toEqual([[0.05], [0.25]]);
    expect(v.whatFired).toMatchObject({ valueLabel: "New version's tool error rate", value: "25.00%", thresholdLabel: "Previous version", threshold: "5.00%" });
    expect(v.chart.explorerLabel).toBe("Failed results in the explorer →");
    expect(v.chart.explorerHref).toMatch(/\?outcome=failed&.*&model=acme-large&modelVersion=2026-11$/);
  });

  it("charts a schema version's tool error regression as the tool's tool error rate per hour", () => {
    const input = incident({
      subject: "schema:get_loan:4f2a9c:tool_error_rate",
      rule: { name: "Regression guard", metric: "regression", category: null, windowMinutes: 60 },
      value: 0.25,
      threshold: 0.05,
    });
    const series: SeriesInput = {
      bucket: "hour",
      rows: [
        {
          bucket: "2026-11-30T10:00:00.000Z",
          key: "",
          calls: 20,
          invalid: 10,
          unchecked: 0,
          results: 10,
          toolErrors: 2,
          notFound: 0,
          timeouts: 0,
          notAllowed: 0,
        },
      ],
    };
    const { plan, view: v } = view(input, { series });
    expect(plan.regression).toBe(false);
    expect(v.chart.title).toBe("Tool error rate of a new schema version around the incident");
    expect(v.chart.series[0]!.values.filter((x) => x !== null)).toEqual([0.2]);
    expect(v.chart.explorerHref).toContain("?outcome=failed&");
  });

  it("charts one category's rate for a category rule and links the explorer to that category", () => {
    const input = incident({ rule: { name: "Wrong types", metric: "category_rate", category: "wrong_type", windowMinutes: 60 } });
    const series: SeriesInput = { bucket: "hour", rows: [{ bucket: "2026-11-30T10:00:00.000Z", key: "", calls: 40, invalid: 20, unchecked: 0 }] };
    const categorySeries: SeriesInput = {
      bucket: "hour",
      rows: [
        { bucket: "2026-11-30T10:00:00.000Z", key: "wrong_type", calls: 10, invalid: 10, unchecked: 0 },
        { bucket: "2026-11-30T10:00:00.000Z", key: "missing_argument", calls: 10, invalid: 10, unchecked: 0 },
      ],
    };
    const { ranges, view: v } = view(input, { series, categorySeries });
    expect(ranges.category).toBe("wrong_type");
    const line = v.chart.series[0]!;
    expect(line.key).toBe("Rate of Wrong type");
    expect(line.values[v.chart.labels.indexOf(Date.parse("2026-11-30T10:00:00Z"))]).toBe(0.25);
    expect(v.chart.explorerHref).toContain("&category=wrong_type");
  });

  it("charts the invalid rate for context when the rule watches something else, without a threshold line", () => {
    const input = incident({ rule: { name: "Volume", metric: "call_volume", category: null, windowMinutes: 1440 }, value: 12000, threshold: 10000 });
    const { view: v } = view(input);
    expect(v.chart.label).toBe("Invalid rate");
    expect(v.chart.threshold).toBeUndefined();
    expect(v.chart.description).toContain("the rule watches call volume, shown above; this is the invalid rate for context");
    expect(v.whatFired).toMatchObject({ value: "12,000", threshold: "10,000" });
    expect(v.whatFired.window).toContain("(1 d before it fired)");
  });

  it("titles the timeline's events and says how each delivery went", () => {
    const input = incident({
      state: "resolved",
      resolvedAt: "2026-11-30T11:15:00Z",
      events: [
        { kind: "fired", actor: null, at: "2026-11-30T10:15:00Z", note: null, endsAt: null },
        { kind: "silenced", actor: "bo@example.com", at: "2026-11-30T10:15:00Z", note: "planned migration", endsAt: "2026-11-30T12:00:00Z" },
        { kind: "acknowledged", actor: null, at: "2026-11-30T10:20:00Z", note: "", endsAt: null },
        { kind: "snoozed", actor: "bo@example.com", at: "2026-11-30T10:25:00Z", note: null, endsAt: "2026-11-30T11:25:00Z" },
        { kind: "snoozed", actor: "bo@example.com", at: "2026-11-30T10:26:00Z", note: "after the deploy", endsAt: "2026-11-30T11:26:00Z" },
        { kind: "resolved", actor: "ana@example.com", at: "2026-11-30T11:15:00Z", note: "rolled back", endsAt: null },
        { kind: "reopened", actor: null, at: "2026-11-30T11:16:00Z", note: null, endsAt: null },
        { kind: "assigned", actor: "bo@example.com", at: "2026-11-30T11:17:00Z", note: "ana@example.com", endsAt: null },
        { kind: "assigned", actor: "ana@example.com", at: "2026-11-30T11:18:00Z", note: null, endsAt: null },
        { kind: "noted", actor: "ana@example.com", at: "2026-11-30T11:19:00Z", note: "rolled back to 2026-09", endsAt: null },
        { kind: "noted", actor: "ana@example.com", at: "2026-11-30T11:20:00Z", note: null, endsAt: null },
      ],
      deliveries: [
        { endpoint: { name: "Slack", url: "https://hooks.example/1" }, attempt: 1, statusCode: 503, error: null, durationMs: 120, at: "2026-11-30T10:15:01Z" },
        { endpoint: { name: "Slack", url: "https://hooks.example/1" }, attempt: 2, statusCode: 204, error: null, durationMs: null, at: "2026-11-30T10:16:01Z" },
        {
          endpoint: { name: "Pager", url: "https://pager.example" },
          attempt: 1,
          statusCode: null,
          error: "timed out",
          durationMs: 5000,
          at: "2026-11-30T10:15:02Z",
        },
        { endpoint: { name: "Pager", url: "https://pager.example" }, attempt: 2, statusCode: null, error: null, durationMs: null, at: "2026-11-30T10:16:02Z" },
      ],
    });
    const { view: v } = view(input, {}, "viewer", "Europe/Berlin");
    expect(v.canAct).toBe(false);
    expect(v.canAddWebhooks).toBe(false);
    expect(v.age).toBe("lasted 1 h · 2026-11-30 11:15 GMT+1");
    expect(v.timeline.map((e) => [e.title, e.dot, e.note])).toEqual([
      ["Fired", "bg-red-500", null],
      ["Silenced by bo@example.com", "bg-slate-500", "no webhooks: silenced until 2026-11-30 13:00 GMT+1 (planned migration)"],
      ["Acknowledged by someone", "bg-amber-500", null],
      ["Snoozed by bo@example.com", "bg-slate-500", "until 2026-11-30 12:25 GMT+1"],
      ["Snoozed by bo@example.com", "bg-slate-500", "until 2026-11-30 12:26 GMT+1: after the deploy"],
      ["Resolved by ana@example.com", "bg-emerald-500", "rolled back"],
      ["reopened", "bg-slate-400", null],
      ["Assigned by bo@example.com", "bg-indigo-500", "to ana@example.com"],
      ["Assigned by ana@example.com", "bg-indigo-500", "to nobody"],
      ["Note by ana@example.com", "bg-indigo-500", "rolled back to 2026-09"],
      ["Note by ana@example.com", "bg-indigo-500", "cleared the note"],
    ]);
    expect(v.deliveries.map((d) => [d.attempt, d.status, d.duration])).toEqual([
      ["#1", { text: "HTTP 503", answered: true, ok: false, title: undefined }, "120 ms"],
      ["#2", { text: "HTTP 204", answered: true, ok: true, title: undefined }, null],
      ["#1", { text: "timed out", answered: false, ok: false, title: "timed out" }, "5.0 s"],
      ["#2", { text: "no answer", answered: false, ok: false, title: undefined }, null],
    ]);
  });

  it("lets members act on an open incident and tells admins where to add endpoints", () => {
    expect(view(incident(), {}, "viewer").view.canAct).toBe(false);
    expect(view(incident(), {}, "member").view).toMatchObject({ canAct: true, canAddWebhooks: false });
    expect(view(incident(), {}, "admin").view).toMatchObject({ canAct: true, canAddWebhooks: true });
    expect(view(incident({ state: "resolved", resolvedAt: "2026-11-30T11:00:00Z" }), {}, "admin").view.canAct).toBe(false);
  });
});

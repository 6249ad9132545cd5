import { describe, expect, it } from "vitest";
import {
  allUnchecked,
  closestTool,
  inflation,
  intervalAxisMax,
  observedAttempts,
  parseK,
  parseVersionRef,
  rateChange,
  rateChangeLabel,
  rateText,
  relativeChange,
  selectSeries,
  verdictSplit,
  versionRef,
} from "./derive";

describe("observedAttempts", () => {
  it("counts retried invalid calls as attempts toward a success", () => {
    // 100 calls, 10 invalid of which 8 were retried: 90 successes took 98 attempts
    expect(observedAttempts({ calls: 100, invalid: 10, unchecked: 0, corrected: 8 })).toBeCloseTo(98 / 90, 10);
  });
  it("is null when nothing succeeded", () => {
    expect(observedAttempts({ calls: 3, invalid: 3, unchecked: 0, corrected: 0 })).toBeNull();
  });
});

describe("unchecked calls", () => {
  it("an all-unchecked set says unchecked, not 0.0%", () => {
    expect(rateText({ calls: 1, invalid: 0, unchecked: 1 })).toBe("unchecked");
    expect(rateText({ calls: 0, invalid: 0, unchecked: 0 })).toBe("–");
    expect(rateText({ calls: 4, invalid: 1, unchecked: 2 })).toBe("50.0%");
    expect(allUnchecked({ calls: 2, invalid: 0, unchecked: 2 })).toBe(true);
    expect(allUnchecked({ calls: 0, invalid: 0, unchecked: 0 })).toBe(false);
  });
  it("splits calls by verdict", () => {
    expect(verdictSplit({ calls: 1, invalid: 0, unchecked: 1 })).toBe("0 valid · 1 unchecked");
    expect(verdictSplit({ calls: 1200, invalid: 100, unchecked: 0 })).toBe("1,100 valid");
  });
  it("the rate change compares checked calls", () => {
    expect(rateChange({ calls: 20, invalid: 1, unchecked: 10 }, { calls: 10, invalid: 1, unchecked: 0 }).diff).toBeCloseTo(0, 10);
  });
});

describe("rateChange", () => {
  it("gives the difference in rate units and its direction", () => {
    const change = rateChange({ calls: 1000, invalid: 80, unchecked: 0 }, { calls: 1000, invalid: 60, unchecked: 0 });
    expect(change.diff).toBeCloseTo(0.02, 10);
    expect(change.direction).toBe("up");
    expect(rateChange({ calls: 1000, invalid: 60, unchecked: 0 }, { calls: 1000, invalid: 80, unchecked: 0 }).direction).toBe("down");
    expect(rateChange({ calls: 10000, invalid: 600, unchecked: 0 }, { calls: 10000, invalid: 601, unchecked: 0 }).direction).toBe("flat");
  });
  it("has no direction without a previous period", () => {
    expect(rateChange({ calls: 10, invalid: 1, unchecked: 0 }, { calls: 0, invalid: 0, unchecked: 0 })).toEqual({
      current: 0.1,
      previous: null,
      diff: null,
      direction: null,
    });
  });
  it("relative change of counts", () => {
    expect(relativeChange(120, 100)).toBeCloseTo(0.2, 10);
    expect(relativeChange(5, 0)).toBeNull();
  });
});

describe("rateChangeLabel", () => {
  it("shows a rise as bad, a fall as good, noise as flat, and nothing without a previous period", () => {
    expect(rateChangeLabel(rateChange({ calls: 1000, invalid: 80, unchecked: 0 }, { calls: 1000, invalid: 60, unchecked: 0 }))).toEqual({
      text: "▲ +2.0 pp",
      tone: "bad",
    });
    expect(rateChangeLabel(rateChange({ calls: 1000, invalid: 60, unchecked: 0 }, { calls: 1000, invalid: 80, unchecked: 0 }))).toMatchObject({ tone: "good" });
    expect(rateChangeLabel(rateChange({ calls: 10000, invalid: 600, unchecked: 0 }, { calls: 10000, invalid: 601, unchecked: 0 }))).toMatchObject({
      tone: "neutral",
    });
    expect(rateChangeLabel(rateChange({ calls: 10, invalid: 1, unchecked: 0 }, { calls: 0, invalid: 0, unchecked: 0 }))).toBeNull();
  });
});

describe("inflation", () => {
  it("60 of 1,000 invalid, six-call tasks → 6.38 attempts (docs/attempt-inflation.md)", () => {
    const row = inflation({ calls: 1000, invalid: 60, unchecked: 0, corrected: 60, costUsd: 10 }, 6);
    expect(row.p).toBe(0.06);
    expect(row.expected).toBeCloseTo(1.0638, 4);
    expect(row.taskAttempts!.toFixed(2)).toBe("6.38");
    expect(row.extraPer1000).toBeCloseTo(383, 0);
    expect(row.costPerCall).toBeCloseTo(0.01, 10);
    expect(row.extraCostPer1000).toBeCloseTo(3.83, 2);
    expect(row.observed).toBeCloseTo(1000 / 940, 10);
  });
  it("has no expected attempts when every call was invalid (an unknown tool name)", () => {
    expect(inflation({ calls: 5, invalid: 5, unchecked: 0, corrected: 5, costUsd: 1 }, 6)).toMatchObject({
      p: 1,
      expected: null,
      taskAttempts: null,
      extraPer1000: null,
      observed: null,
    });
  });
  it("has no rate without calls", () => {
    expect(inflation({ calls: 0, invalid: 0, unchecked: 0, corrected: 0, costUsd: 0 }, 6)).toMatchObject({ p: null, expected: null, costPerCall: null });
  });
  it("reads k from the URL within 1–100, default 6", () => {
    expect(parseK(undefined)).toBe(6);
    expect(parseK("12")).toBe(12);
    expect(parseK("0")).toBe(6);
    expect(parseK("2.5")).toBe(6);
    expect(parseK("abc")).toBe(6);
  });
});

describe("selectSeries", () => {
  const volumes = Array.from({ length: 12 }, (_, i) => ({ key: `t${String(i).padStart(2, "0")}`, volume: 100 - i }));
  it("draws the top n by default and says how many", () => {
    const s = selectSeries(volumes, undefined, 8, "tools");
    expect(s.shown).toEqual(["t00", "t01", "t02", "t03", "t04", "t05", "t06", "t07"]);
    expect(s.defaults).toEqual(s.shown);
    expect(s.options).toHaveLength(12);
    expect(s.note).toBe("8 of 12 tools");
  });
  it("draws what the URL names, in volume order, ignoring unknown keys", () => {
    const s = selectSeries(volumes, "t11,nope,t01", 8, "tools");
    expect(s.shown).toEqual(["t01", "t11"]);
    expect(s.note).toBe("2 of 12 tools");
  });
  it("has no note when everything is drawn", () => {
    expect(selectSeries(volumes.slice(0, 3), undefined, 8, "tools").note).toBe("");
  });
});

describe("version refs", () => {
  it("round-trips model@version, with an empty version", () => {
    expect(parseVersionRef("acme-large@2026-09")).toEqual({ model: "acme-large", version: "2026-09" });
    expect(parseVersionRef("globex-pro@")).toEqual({ model: "globex-pro", version: "" });
    expect(parseVersionRef("bare")).toEqual({ model: "bare", version: "" });
    expect(parseVersionRef("")).toBeNull();
    expect(parseVersionRef(`${"m".repeat(201)}@1`)).toBeNull();
    expect(versionRef({ model: "a", version: "1" })).toBe("a@1");
  });
});

describe("intervalAxisMax", () => {
  it("rounds the axis up to a readable rate", () => {
    expect(intervalAxisMax(0.07)).toBe(0.1);
    expect(intervalAxisMax(0.3)).toBe(0.5);
  });
});

describe("closestTool", () => {
  const tools = ["getloan", "listopenloans", "schedulecallback", "createticket", "sendmessage", "getcustomer"];
  it("finds what a misspelled name meant", () => {
    expect(closestTool("get_loan", tools)).toBe("getloan");
    expect(closestTool("getLoan", tools)).toBe("getloan");
    expect(closestTool("getloans", tools)).toBe("getloan");
    expect(closestTool("list_open_loans", tools)).toBe("listopenloans");
    expect(closestTool("schedulecall", tools)).toBe("schedulecallback");
    expect(closestTool("createtickets", tools)).toBe("createticket");
  });
  it("says nothing when no name is close", () => {
    expect(closestTool("transfer_funds", tools)).toBeNull();
    expect(closestTool("x", [])).toBeNull();
  });
});

import { describe, it, expect } from "vitest";
import {
  CATEGORY_COLORS,
  CHART_CATEGORIES,
  PALETTE,
  assignColors,
  categoryColor,
  fitLabel,
  seriesColor,
  stackedCategorySeries,
  timeSeries,
  topN,
} from "./prepare";
import { bucketStarts } from "../../isomorphic/buckets";

const H = 3_600_000;
const at = (iso: string) => new Date(iso);
const ms = (iso: string) => Date.parse(iso);

describe("timeSeries", () => {
  const range = { from: at("2025-03-01T00:00:00Z"), to: at("2025-03-01T04:00:00Z"), bucket: "hour" as const };

  it("computes rates per bucket and leaves missing buckets as null gaps", () => {
    const result = timeSeries(
      [
        { bucket: ms("2025-03-01T00:00:00Z"), series: "search", numerator: 1, denominator: 10 },
        { bucket: "2025-03-01T02:00:00Z", series: "search", numerator: 0, denominator: 5 },
        { bucket: at("2025-03-01T01:00:00Z"), series: "fetch", numerator: 2, denominator: 4 },
        { bucket: ms("2025-03-01T03:00:00Z"), series: "fetch", numerator: 0, denominator: 0 },
      ],
      range,
    );
    expect(result.labels).toEqual([0, 1, 2, 3].map((h) => ms("2025-03-01T00:00:00Z") + h * H));
    expect(result.series).toEqual([
      { key: "fetch", values: [null, 0.5, null, null], totals: [0, 4, 0, 0] },
      { key: "search", values: [0.1, null, 0, null], totals: [10, 0, 5, 0] },
    ]);
  });

  it("sums finer rows into their bucket and drops rows outside the range", () => {
    const dayRange = { from: at("2025-03-01T00:00:00Z"), to: at("2025-03-03T00:00:00Z"), bucket: "day" as const };
    const result = timeSeries(
      [
        { bucket: "2025-03-01T01:00:00Z", series: "s", numerator: 1, denominator: 10 },
        { bucket: "2025-03-01T23:00:00Z", series: "s", numerator: 3, denominator: 10 },
        { bucket: "2025-03-03T00:00:00Z", series: "s", numerator: 9, denominator: 9 },
        { bucket: "2025-02-28T23:00:00Z", series: "s", numerator: 9, denominator: 9 },
      ],
      dayRange,
    );
    expect(result.series).toEqual([{ key: "s", values: [0.2, null], totals: [20, 0] }]);
  });

  it("has no series without rows", () => {
    expect(timeSeries([], range)).toEqual({ labels: bucketStarts(range.from, range.to, "hour"), series: [] });
  });
});

describe("stackedCategorySeries", () => {
  it("counts per category per bucket with null gaps, in category order", () => {
    const range = { from: at("2025-03-01T00:00:00Z"), to: at("2025-03-01T03:00:00Z"), bucket: "hour" as const };
    const result = stackedCategorySeries(
      [
        { bucket: "2025-03-01T00:10:00Z", category: "wrong_type", count: 2 },
        { bucket: "2025-03-01T00:50:00Z", category: "wrong_type", count: 1 },
        { bucket: "2025-03-01T02:00:00Z", category: "unknown_tool", count: 4 },
        { bucket: "2025-03-01T01:00:00Z", category: "zz_custom", count: 1 },
      ],
      range,
    );
    expect(result.series).toEqual([
      { key: "unknown_tool", values: [null, null, 4], total: 4 },
      { key: "wrong_type", values: [3, null, null], total: 3 },
      { key: "zz_custom", values: [null, 1, null], total: 1 },
    ]);
  });
});

describe("topN", () => {
  const items = Array.from({ length: 23 }, (_, i) => ({ key: `tool-${String(i).padStart(2, "0")}`, volume: i }));

  it("keeps the n largest and says how many were shown", () => {
    const { top, rest, note } = topN(items, 8, "tools");
    expect(top).toEqual(["tool-22", "tool-21", "tool-20", "tool-19", "tool-18", "tool-17", "tool-16", "tool-15"]);
    expect(rest).toHaveLength(15);
    expect(note).toBe("8 of 23 tools");
  });

  it("has no note when everything fits", () => {
    expect(topN(items.slice(0, 3))).toEqual({ top: ["tool-02", "tool-01", "tool-00"], rest: [], note: "" });
  });

  it("breaks ties by key and sums duplicate keys", () => {
    const result = topN(
      [
        { key: "b", volume: 5 },
        { key: "a", volume: 5 },
        { key: "c", volume: 3 },
        { key: "c", volume: 3 },
      ],
      2,
    );
    expect(result).toEqual({ top: ["c", "a"], rest: ["b"], note: "2 of 3 series" });
  });
});

describe("colours", () => {
  it("gives a key the same palette colour every time", () => {
    expect(seriesColor("search")).toBe(seriesColor("search"));
    expect(PALETTE).toContain(seriesColor("search"));
    const used = new Set(Array.from({ length: 200 }, (_, i) => seriesColor(`tool-${i}`)));
    expect(used.size).toBe(PALETTE.length);
  });

  it("gives the series of one chart distinct colours, earlier keys first", () => {
    const keys = Array.from({ length: PALETTE.length }, (_, i) => `tool-${i}`);
    const colors = assignColors(keys);
    expect(new Set(Object.values(colors)).size).toBe(PALETTE.length);
    expect(colors[keys[0]!]).toBe(seriesColor(keys[0]!));
    // adding keys after them changes none of the earlier colours
    expect(assignColors([...keys.slice(0, 4), "another"])).toMatchObject(Object.fromEntries(keys.slice(0, 4).map((k) => [k, colors[k]])));
    expect(Object.keys(assignColors([...keys, "x", "x"]))).toHaveLength(PALETTE.length + 1);
  });
  it("has one distinct colour per category", () => {
    expect(Object.keys(CATEGORY_COLORS)).toEqual([...CHART_CATEGORIES]);
    expect(new Set(Object.values(CATEGORY_COLORS)).size).toBe(8);
    expect(categoryColor("wrong_type")).toBe(CATEGORY_COLORS.wrong_type);
    expect(categoryColor("something_else")).toBe(seriesColor("something_else"));
  });
});

describe("fitLabel", () => {
  const label = "Regression guard: new model or schema version fired";
  it("keeps a label that fits and cuts a longer one to the width, ending in an ellipsis", () => {
    expect(fitLabel(label, 1000)).toBe(label);
    const cut = fitLabel(label, 200); // (200 - 12) / 6.5 → 28 characters
    expect(cut).toBe("Regression guard: new model…");
    expect(cut).toHaveLength(28);
  });
  it("keeps a label exactly as long as the width allows, and a few characters on a tiny chart", () => {
    const width = 12 + 6.5 * label.length;
    expect(fitLabel(label, width)).toBe(label);
    expect(fitLabel(label, width - 1)).toHaveLength(label.length - 1);
    expect(fitLabel(label, 0)).toBe("Reg…");
  });
});

import { describe, expect, it } from "vitest";
import { categoryBreakdown, rateSeries, volumes } from "./chart-data";

const range = { from: "2026-11-28T00:00:00.000Z", to: "2026-12-01T00:00:00.000Z" };
const now = Date.parse("2026-11-30T04:30:00Z");

describe("rateSeries", () => {
  it("rates per day, a gap where a day has no calls", () => {
    const { labels, series } = rateSeries(
      [
        { bucket: "2026-11-28T00:00:00.000Z", key: "getloan", calls: 100, invalid: 10 },
        { bucket: "2026-11-30T00:00:00.000Z", key: "getloan", calls: 40, invalid: 4 },
        { bucket: "2026-11-28T00:00:00.000Z", key: "other", calls: 10, invalid: 1 },
      ],
      range,
      "day",
      ["getloan"],
      undefined,
      now,
    );
    expect(labels).toHaveLength(3);
    expect(series).toEqual([{ key: "getloan", values: [0.1, null, 0.1], totals: [100, 0, 40] }]);
  });
  it("leaves the day in progress out while it has few calls", () => {
    const { series } = rateSeries(
      [
        { bucket: "2026-11-29T00:00:00.000Z", key: "t", calls: 5, invalid: 1 },
        { bucket: "2026-11-30T00:00:00.000Z", key: "t", calls: 5, invalid: 0 },
      ],
      range,
      "day",
      undefined,
      () => "renamed",
      now,
    );
    expect(series).toEqual([{ key: "renamed", values: [null, 0.2, null], totals: [0, 5, 5] }]);
  });
});

describe("categoryBreakdown and volumes", () => {
  it("sorts categories by invalid calls and sums volumes per key", () => {
    expect(
      categoryBreakdown([
        { key: "a", invalid: 1 },
        { key: "b", invalid: 0 },
        { key: "c", invalid: 5 },
      ]),
    ).toEqual([
      { key: "c", count: 5 },
      { key: "a", count: 1 },
    ]);
    expect(
      volumes([
        { bucket: "x", key: "k", calls: 2, invalid: 0 },
        { bucket: "y", key: "k", calls: 3, invalid: 1 },
      ]),
    ).toEqual([{ key: "k", volume: 5 }]);
  });
});

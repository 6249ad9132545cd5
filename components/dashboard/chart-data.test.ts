import { describe, expect, it } from "vitest";
import { categoryBreakdown, modelVersionParams, rateSeries, timeMarkers, volumes } from "./chart-data";

const range = { from: "2026-11-28T00:00:00.000Z", to: "2026-12-01T00:00:00.000Z" };
const now = Date.parse("2026-11-30T04:30:00Z");

describe("rateSeries", () => {
  it("rates per day, a gap where a day has no calls", () => {
    const { labels, series } = rateSeries(
      [
        { bucket: "2026-11-28T00:00:00.000Z", key: "getloan", calls: 100, invalid: 10, unchecked: 0 },
        { bucket: "2026-11-30T00:00:00.000Z", key: "getloan", calls: 40, invalid: 4, unchecked: 0 },
        { bucket: "2026-11-28T00:00:00.000Z", key: "other", calls: 10, invalid: 1, unchecked: 0 },
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
  it("rates over checked calls: a day of only unchecked calls is a gap, not 0%", () => {
    const { series } = rateSeries(
      [
        { bucket: "2026-11-28T00:00:00.000Z", key: "getloan", calls: 30, invalid: 2, unchecked: 10 },
        { bucket: "2026-11-29T00:00:00.000Z", key: "getloan", calls: 5, invalid: 0, unchecked: 5 },
      ],
      range,
      "day",
      undefined,
      undefined,
      now,
    );
    expect(series[0]!.values.slice(0, 2)).toEqual([0.1, null]);
  });
  it("leaves the day in progress out while it has few calls", () => {
    const { series } = rateSeries(
      [
        { bucket: "2026-11-29T00:00:00.000Z", key: "t", calls: 5, invalid: 1, unchecked: 0 },
        { bucket: "2026-11-30T00:00:00.000Z", key: "t", calls: 5, invalid: 0, unchecked: 0 },
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
        { bucket: "x", key: "k", calls: 2, invalid: 0, unchecked: 0 },
        { bucket: "y", key: "k", calls: 3, invalid: 1, unchecked: 0 },
      ]),
    ).toEqual([{ key: "k", volume: 5 }]);
  });
});

describe("timeMarkers", () => {
  const incident = (firedAt: string, name: string) => ({ firedAt, scopeTool: null, rule: { name } });
  const version = (name: string, firstSeenAt: string) => ({ name, version: "3f2a1b0c9d", firstSeenAt });

  it("marks incidents and schema versions of the range, oldest first", () => {
    const markers = timeMarkers(range, {
      incidents: [incident("2026-11-30T03:00:00Z", "Invalid rate"), incident("2026-11-27T03:00:00Z", "too early")],
      versions: [version("getloan", "2026-11-29T12:00:00Z"), version("getloan", "2026-12-01T00:00:00Z"), version("other", "2026-11-29T13:00:00Z")],
    });
    expect(markers).toEqual([
      { at: Date.parse("2026-11-29T12:00:00Z"), label: "getloan schema 3f2a1b0", kind: "schema" },
      { at: Date.parse("2026-11-29T13:00:00Z"), label: "other schema 3f2a1b0", kind: "schema" },
      { at: Date.parse("2026-11-30T03:00:00Z"), label: "Invalid rate fired", kind: "incident" },
    ]);
  });

  it("keeps only the schema versions of the tools drawn", () => {
    const markers = timeMarkers(range, { versions: [version("getloan", "2026-11-29T12:00:00Z"), version("other", "2026-11-29T13:00:00Z")], tools: ["other"] });
    expect(markers.map((m) => m.label)).toEqual(["other schema 3f2a1b0"]);
  });
});

describe("modelVersionParams", () => {
  it("splits a series key into model and version at the last space", () => {
    expect(modelVersionParams("acme-large 2026-11")).toEqual({ model: "acme-large", modelVersion: "2026-11" });
    expect(modelVersionParams("acme large 2026-11")).toEqual({ model: "acme large", modelVersion: "2026-11" });
    expect(modelVersionParams("acme-mini")).toEqual({ model: "acme-mini" });
  });
});

import { describe, expect, it } from "vitest";
import { bucketHref, bucketRange, rangeHref, seriesParam, zoomedHref } from "./explore";

const ms = (iso: string) => Date.parse(iso);
const query = (href: string) => Object.fromEntries(new URL(href, "http://x").searchParams);

describe("chart links", () => {
  const explore = { slug: "acme", params: { tool: "getloan" }, series: { "acme-large 2026-11": { model: "acme-large", modelVersion: "2026-11" } } };

  it("open the explorer on one bucket of one series, with the page's scope", () => {
    const href = bucketHref(explore, "acme-large 2026-11", ms("2026-11-30T14:00:00Z"), "hour");
    expect(href.startsWith("/p/acme/calls?")).toBe(true);
    expect(query(href)).toEqual({
      tool: "getloan",
      model: "acme-large",
      modelVersion: "2026-11",
      from: "2026-11-30T14:00:00.000Z",
      to: "2026-11-30T15:00:00.000Z",
    });
    expect(query(bucketHref(explore, "unknown", ms("2026-11-30T00:00:00Z"), "day"))).toEqual({
      tool: "getloan",
      from: "2026-11-30T00:00:00.000Z",
      to: "2026-12-01T00:00:00.000Z",
    });
    expect(query(bucketHref({ slug: "acme", series: seriesParam("category", ["wrong_type"]) }, "wrong_type", 0, "hour"))).toMatchObject({
      category: "wrong_type",
    });
  });

  it("open a series over a whole range", () => {
    expect(query(rangeHref({ slug: "acme", series: seriesParam("category", ["missing_argument"]) }, "missing_argument", { from: "a", to: "b" }))).toEqual({
      category: "missing_argument",
      from: "a",
      to: "b",
    });
  });

  it("turn a drag over buckets into a range from the first bucket's start to the last one's end", () => {
    expect(bucketRange(ms("2026-11-30T05:00:00Z"), ms("2026-11-30T02:00:00Z"), "hour")).toEqual({
      from: "2026-11-30T02:00:00.000Z",
      to: "2026-11-30T06:00:00.000Z",
    });
    const href = zoomedHref("/p/acme", "?range=7d&by=model&cursor=abc", { from: "2026-11-30T02:00:00.000Z", to: "2026-11-30T06:00:00.000Z" });
    expect(query(href)).toEqual({ by: "model", from: "2026-11-30T02:00:00.000Z", to: "2026-11-30T06:00:00.000Z" });
  });
});

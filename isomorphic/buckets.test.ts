import { describe, it, expect } from "vitest";
import { bucketStarts, chooseBucket } from "./buckets";

const H = 3_600_000;
const D = 24 * H;
const at = (iso: string) => new Date(iso);
const ms = (iso: string) => Date.parse(iso);

describe("bucketStarts", () => {
  it("covers [from, to) in hours, starting at the hour that contains from", () => {
    expect(bucketStarts(at("2025-03-01T10:30:00Z"), at("2025-03-01T13:00:00Z"), "hour")).toEqual([
      ms("2025-03-01T10:00:00Z"),
      ms("2025-03-01T11:00:00Z"),
      ms("2025-03-01T12:00:00Z"),
    ]);
  });

  it("uses UTC days", () => {
    expect(bucketStarts(at("2025-03-01T00:00:00Z"), at("2025-03-03T00:00:01Z"), "day")).toEqual([
      ms("2025-03-01T00:00:00Z"),
      ms("2025-03-02T00:00:00Z"),
      ms("2025-03-03T00:00:00Z"),
    ]);
  });

  it("is empty for an empty range", () => {
    const t = at("2025-03-01T10:00:00Z");
    expect(bucketStarts(t, t, "hour")).toEqual([]);
  });

  it("refuses absurd ranges and invalid dates", () => {
    expect(() => bucketStarts(at("2000-01-01T00:00:00Z"), at("2025-01-01T00:00:00Z"), "hour")).toThrow(RangeError);
    expect(() => bucketStarts(new Date("nope"), at("2025-01-01T00:00:00Z"), "day")).toThrow(RangeError);
  });
});

describe("chooseBucket", () => {
  it("uses hours up to 3 days and days beyond", () => {
    const from = at("2025-03-01T00:00:00Z");
    expect(chooseBucket(from, new Date(from.getTime() + 3 * D))).toBe("hour");
    expect(chooseBucket(from, new Date(from.getTime() + 3 * D + 1))).toBe("day");
  });
});

describe("bucket limits", () => {
  it("allows exactly 10,000 buckets, not one more, and says what was wrong", () => {
    const from = new Date("2026-01-01T00:00:00Z");
    const hours = (n: number) => new Date(from.getTime() + n * 3_600_000);
    expect(bucketStarts(from, hours(10_000), "hour")).toHaveLength(10_000);
    expect(() => bucketStarts(from, hours(10_001), "hour")).toThrow("more than 10000 hour buckets");
    expect(() => bucketStarts(new Date("nope"), from, "hour")).toThrow("not a time: Invalid Date");
  });
});

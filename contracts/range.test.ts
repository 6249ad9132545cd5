import { describe, expect, it } from "vitest";
import { presetOf, previousPeriod, rangeOrLastDays, resolveRange, withParams } from "./range";

describe("resolveRange", () => {
  const now = new Date("2026-11-30T10:20:00Z");
  it("defaults to the last 7 days, ending after the current hour", () => {
    expect(resolveRange({}, now)).toMatchObject({ from: "2026-11-23T11:00:00.000Z", to: "2026-11-30T11:00:00.000Z", preset: "7d" });
  });
  it("takes a preset or an explicit range, and ignores a broken one", () => {
    expect(resolveRange({ range: "24h" }, now).from).toBe("2026-11-29T11:00:00.000Z");
    expect(resolveRange({ from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }, now)).toMatchObject({ preset: "custom", to: "2026-11-02T00:00:00.000Z" });
    expect(resolveRange({ range: "nonsense", from: "x", to: "y" }, now).preset).toBe("7d");
  });
  it("prefers a preset over from/to, and keeps the last 400 days of a longer custom range", () => {
    expect(resolveRange({ range: "30d", from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }, now).preset).toBe("30d");
    const long = resolveRange({ from: "2020-01-01T00:00:00Z", to: "2026-11-01T00:00:00Z" }, now);
    expect(long).toMatchObject({ preset: "custom", from: "2025-09-27T00:00:00.000Z", to: "2026-11-01T00:00:00.000Z" });
  });
  it("builds links that keep the other parameters", () => {
    expect(withParams("/p/x/calls", { range: "7d", tool: "getloan" }, { tool: undefined, valid: "invalid" })).toBe("/p/x/calls?range=7d&valid=invalid");
  });
});

describe("rangeOrLastDays", () => {
  it("takes the range given, otherwise the last N days up to now", () => {
    const now = new Date("2026-12-01T03:25:10Z");
    expect(rangeOrLastDays({ from: "2026-11-01T00:00:00Z", to: "2026-11-02T00:00:00Z" }, 30, now)).toEqual({
      from: new Date("2026-11-01T00:00:00Z"),
      to: new Date("2026-11-02T00:00:00Z"),
    });
    expect(rangeOrLastDays(undefined, 30, now)).toEqual({ from: new Date("2026-11-01T03:25:10Z"), to: now });
    expect(rangeOrLastDays(undefined, 1, now)).toEqual({ from: new Date("2026-11-30T03:25:10Z"), to: now });
  });
});

describe("previousPeriod", () => {
  it("is the period of the same length just before, as ISO strings or dates", () => {
    expect(previousPeriod({ from: "2026-11-24T00:00:00.000Z", to: "2026-12-01T00:00:00.000Z" })).toEqual({
      from: "2026-11-17T00:00:00.000Z",
      to: "2026-11-24T00:00:00.000Z",
    });
    const dates = previousPeriod({ from: new Date("2026-11-30T12:00:00Z"), to: new Date("2026-11-30T13:00:00Z") });
    expect(dates).toEqual({ from: new Date("2026-11-30T11:00:00Z"), to: new Date("2026-11-30T12:00:00Z") });
  });
});

describe("presetOf", () => {
  const now = new Date("2026-12-05T23:41:07Z");
  it("names the preset of a range as resolveRange makes it now", () => {
    for (const preset of ["24h", "7d", "30d", "90d"] as const) {
      const r = resolveRange({ range: preset }, now);
      expect(presetOf({ from: new Date(r.from), to: new Date(r.to) }, now)).toBe(preset);
    }
  });
  it("is null for a custom range, a preset's range of another hour, or a length no preset has", () => {
    const r = resolveRange({ range: "7d" }, now);
    const range = { from: new Date(r.from), to: new Date(r.to) };
    expect(presetOf(range, new Date("2026-12-06T00:00:01Z"))).toBeNull();
    expect(presetOf({ from: new Date(range.from.getTime() + 3_600_000), to: range.to }, now)).toBeNull();
    const custom = resolveRange({ from: "2026-12-01T00:00:00Z", to: "2026-12-05T10:00:00Z" }, now);
    expect(presetOf({ from: new Date(custom.from), to: new Date(custom.to) }, now)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { splitRange } from "./rollup-range";

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);

/** Every hour start the pieces cover, days expanded into their 24 hours. */
function coveredHours(split: ReturnType<typeof splitRange>): number[] {
  const hours: number[] = [];
  const pieces = [...split.hours, ...(split.days ? [split.days] : [])];
  for (const p of pieces) for (let t = p.from.getTime(); t < p.to.getTime(); t += HOUR) hours.push(t);
  return hours.sort((a, b) => a - b);
}

/** What the hourly table alone reads: hour >= floor_hour(from) AND hour < to. */
function hourlyOnly(from: Date, to: Date): number[] {
  const hours: number[] = [];
  for (let t = Math.floor(from.getTime() / HOUR) * HOUR; t < to.getTime(); t += HOUR) hours.push(t);
  return hours;
}

describe("splitRange", () => {
  it("reads a 7-day dashboard range as whole days plus the partial first and last day", () => {
    const split = splitRange({ from: at("2026-11-23T07:00:00Z"), to: at("2026-11-30T07:00:00Z") });
    expect(split.days).toEqual({ from: at("2026-11-24T00:00:00Z"), to: at("2026-11-30T00:00:00Z") });
    expect(split.hours).toEqual([
      { from: at("2026-11-23T07:00:00Z"), to: at("2026-11-24T00:00:00Z") },
      { from: at("2026-11-30T00:00:00Z"), to: at("2026-11-30T07:00:00Z") },
    ]);
  });

  it("needs no hours when the range is whole days", () => {
    const split = splitRange({ from: at("2026-11-01T00:00:00Z"), to: at("2026-11-03T00:00:00Z") });
    expect(split).toEqual({ hours: [], days: { from: at("2026-11-01T00:00:00Z"), to: at("2026-11-03T00:00:00Z") } });
  });

  it("reads only hours when no whole day fits", () => {
    const split = splitRange({ from: at("2026-11-29T07:30:00Z"), to: at("2026-11-30T07:00:00Z") });
    expect(split).toEqual({ hours: [{ from: at("2026-11-29T07:00:00Z"), to: at("2026-11-30T07:00:00Z") }], days: null });
  });

  it("reads only hours when asked to (hour buckets)", () => {
    const split = splitRange({ from: at("2026-11-23T07:10:00Z"), to: at("2026-11-30T07:00:00Z") }, false);
    expect(split).toEqual({ hours: [{ from: at("2026-11-23T07:00:00Z"), to: at("2026-11-30T07:00:00Z") }], days: null });
  });

  it("covers exactly the hours the hourly table alone would, for any range", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const from = new Date(Date.UTC(2026, 10, 1) + Math.floor(random() * 10 * 24 * HOUR));
      const to = new Date(from.getTime() + Math.floor(random() * 4 * 24 * HOUR) + 1);
      expect(coveredHours(splitRange({ from, to })), `${from.toISOString()} – ${to.toISOString()}`).toEqual(hourlyOnly(from, to));
    }
  });

  it("an empty range reads nothing", () => {
    expect(splitRange({ from: at("2026-11-29T07:00:00Z"), to: at("2026-11-29T07:00:00Z") })).toEqual({ hours: [], days: null });
    expect(splitRange({ from: at("2026-11-29T07:00:00Z"), to: at("2026-11-29T07:00:00Z") }, false)).toEqual({ hours: [], days: null });
  });
});

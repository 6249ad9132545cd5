import { describe, expect, it } from "vitest";
import { addHistograms, bucketValue, histogramOf, histogramPercentile, LATENCY_RELATIVE_ERROR, latencyBucket } from "./latency-histogram";

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The exact q-quantile by nearest rank, as histogramPercentile defines it. */
const exact = (sorted: number[], q: number) => sorted[Math.ceil(q * sorted.length) - 1]!;

describe("latency histogram", () => {
  it("puts 0 ms in bucket 0 and every latency within the documented error of its bucket's value", () => {
    expect(LATENCY_RELATIVE_ERROR).toBeCloseTo(0.05, 12);
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(1)).toBe(1);
    expect(latencyBucket(2)).toBe(8); // buckets 2…7 lie between 1 and 2 ms: whole milliseconds never land there
    for (const ms of [1, 2, 3, 10, 99, 100, 101, 1000, 59_999, 3_600_000, 2 ** 31 - 1]) {
      const value = bucketValue(latencyBucket(ms));
      expect(Math.abs(value - ms) / ms).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR + 1e-12);
    }
    expect(latencyBucket(2 ** 31 - 1)).toBe(216);
  });

  it("on 100,000 random latencies, p50/p95/p99 (and others) from the histogram are within 5 % of the exact ones", () => {
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      // log-uniform from 1 ms to 10 min, with a tenth at 0 ms and a heavy slow tail
      const latencies = Array.from({ length: 100_000 }, () => {
        const r = next();
        if (r < 0.1) return 0;
        return Math.round(Math.exp(next() * Math.log(600_000)));
      });
      const histogram = histogramOf(latencies);
      const sorted = [...latencies].sort((a, b) => a - b);
      for (const q of [0.01, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1]) {
        const want = exact(sorted, q);
        const got = histogramPercentile(histogram, q)!;
        if (want === 0) expect(got).toBe(0);
        else expect(Math.abs(got - want) / want, `seed ${seed}, q ${q}: ${got} vs ${want}`).toBeLessThanOrEqual(LATENCY_RELATIVE_ERROR + 1e-12);
      }
    }
  });

  it("sums of histograms equal the histogram of the union, so percentiles stay right when rows are summed", () => {
    const next = random(7);
    const parts = Array.from({ length: 24 }, () => Array.from({ length: 500 }, () => Math.round(next() ** 3 * 20_000)));
    const summed = addHistograms(...parts.map(histogramOf));
    expect(summed).toEqual(histogramOf(parts.flat()));
    expect(histogramPercentile(summed, 0.95)).toBe(histogramPercentile(histogramOf(parts.flat()), 0.95));
  });

  it("answers null for an empty histogram and refuses a quantile outside (0, 1]", () => {
    expect(histogramPercentile([], 0.95)).toBeNull();
    expect(histogramPercentile([0, 0], 0.5)).toBeNull();
    expect(() => histogramPercentile([1], 0)).toThrow("q must be in (0, 1], got 0");
    expect(addHistograms([1, 2, 0], [0, -2])).toEqual([1]);
  });
});

// The rollups' histograms in PostgreSQL (the functions of prisma/functions.sql, and the aggregate
// of outcomeAggregates in tables.ts) against the same sums computed here, on random input: every
// shortcut they take (a histogram inside the other, a group of one bucket) must give what the
// general loop gives, trimmed at both ends.
import { describe, expect, it } from "vitest";
import { pool } from "../../db/client";
import { outcomeAggregates } from "./tables";

/** A histogram as an array with its lower bound (1-based, as PostgreSQL keeps it); null for SQL NULL. */
type Histogram = { lower: number; counts: (number | null)[] } | null;

let seed = 20261206;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

/** PostgreSQL's text form of a one-dimensional array: `{…}` from 1, `[lo:hi]={…}` from elsewhere. */
function literal(h: Histogram): string | null {
  if (!h) return null;
  if (h.counts.length === 0) return "{}";
  const items = `{${h.counts.map((c) => (c === null ? "NULL" : String(c))).join(",")}}`;
  return h.lower === 1 ? items : `[${h.lower}:${h.lower + h.counts.length - 1}]=${items}`;
}

/** Bucket by bucket sums (NULL and missing count 0), trimmed of zeros at both ends. */
function sumOf(...histograms: Histogram[]): string {
  const sums = new Map<number, number>();
  for (const h of histograms) h?.counts.forEach((c, i) => sums.set(h.lower + i, (sums.get(h.lower + i) ?? 0) + (c ?? 0)));
  const used = [...sums.entries()].filter(([, c]) => c !== 0).map(([b]) => b);
  if (!used.length) return "{}";
  const lower = Math.min(...used);
  const upper = Math.max(...used);
  return literal({ lower, counts: Array.from({ length: upper - lower + 1 }, (_, i) => sums.get(lower + i) ?? 0) })!;
}

/** A stored histogram: trimmed, non-empty ends, counts of 0 or more inside. */
function stored(): Histogram {
  const length = int(0, 12);
  if (length === 0) return { lower: 1, counts: [] };
  const counts = Array.from({ length }, (_, i) => (i === 0 || i === length - 1 ? int(1, 9) : int(0, 9)));
  return { lower: int(1, 60), counts };
}

/** What a batch adds or takes out: any bounds, negative counts, zeros at the ends, NULL elements, NULL itself. */
function change(near: Histogram): Histogram {
  const kind = int(0, 9);
  if (kind === 0) return null;
  if (kind === 1) return { lower: 1, counts: [] };
  const inside = near && near.counts.length > 0 && kind < 7; // mostly within the other, the shortcut's case
  const lower = inside ? near.lower + int(0, near.counts.length - 1) : int(1, 70);
  const length = inside ? int(1, near.lower + near.counts.length - lower) : int(1, 8);
  const negative = kind === 6 || kind === 9;
  return { lower, counts: Array.from({ length }, () => (kind === 8 && random() < 0.2 ? null : negative ? int(-3, 3) : int(0, 4))) };
}

describe("the histogram functions", () => {
  it("toolgate_hist_add gives the bucket-by-bucket sum, trimmed at both ends, on 3,000 random pairs", async () => {
    const pairs = Array.from({ length: 3_000 }, () => {
      const a = stored();
      return [a, change(a)] as const;
    });
    const { rows } = await pool().query<{ sum: string }>(
      "SELECT toolgate_hist_add(a::bigint[], b::bigint[])::text AS sum FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(a, b, n) ORDER BY n",
      [pairs.map(([a]) => literal(a)), pairs.map(([, b]) => literal(b))],
    );
    const expected = pairs.map(([a, b]) => sumOf(a, b));
    expect(rows.map((r) => r.sum)).toEqual(expected);
    // both the shortcut (b within a, nothing negative) and the general loop were taken
    const within = pairs.filter(
      ([a, b]) => a!.counts.length && b?.counts.length && b.lower >= a!.lower && b.lower + b.counts.length <= a!.lower + a!.counts.length,
    );
    expect(within.length).toBeGreaterThan(1_000);
    expect(within.length).toBeLessThan(2_900);
  });

  it("toolgate_hist_sum adds up a column of histograms as toolgate_hist_add does pair by pair", async () => {
    const column = Array.from({ length: 200 }, () => stored());
    const { rows } = await pool().query<{ sum: string }>("SELECT toolgate_hist_sum(h::bigint[])::text AS sum FROM unnest($1::text[]) AS t(h)", [
      column.map(literal),
    ]);
    expect(rows[0]!.sum).toBe(sumOf(...column));
  });

  it("toolgate_hist_of counts each bucket with its weight, one latency or many", async () => {
    const cases = Array.from({ length: 1_000 }, () => {
      const n = int(0, 3) === 0 ? 1 : int(0, 6);
      const buckets = Array.from({ length: n }, () => int(1, 80));
      const weights = buckets.map(() => (random() < 0.2 ? -1 : random() < 0.1 ? 0 : 1)); // 0 never comes from a batch, but must not leave a bucket of 0
      return { buckets, weights };
    });
    const { rows } = await pool().query<{ hist: string }>(
      `SELECT toolgate_hist_of(b::int[], w::int[])::text AS hist FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(b, w, n) ORDER BY n`,
      [cases.map((c) => `{${c.buckets.join(",")}}`), cases.map((c) => `{${c.weights.join(",")}}`)],
    );
    const expected = cases.map((c) => sumOf(...c.buckets.map((b, i) => ({ lower: b, counts: [c.weights[i]!] }))));
    expect(rows.map((r) => r.hist)).toEqual(expected);
    expect(cases.filter((c) => c.buckets.length === 1).length).toBeGreaterThan(200);
  });

  it("outcomeAggregates builds each group's histogram from its calls' buckets and weights: one bucket, several, none, or summing to nothing", async () => {
    const groups = Array.from({ length: 1_000 }, (_, g) => {
      const shape = int(0, 3); // 0: one call, 1: one bucket (several calls), 2: any buckets, 3: no timed call
      const bucket = int(1, 80);
      return Array.from({ length: shape === 0 ? 1 : int(1, 5) }, () => ({
        g,
        bucket: shape === 3 ? null : shape === 2 ? int(1, 80) : bucket,
        weight: random() < 0.25 ? -1 : 1,
      }));
    });
    const calls = groups.flat();
    const { rows } = await pool().query<{ g: number; hist: string }>(
      `SELECT g, latency_hist::text AS hist FROM (
         SELECT g, ${outcomeAggregates("weight")}
           FROM (SELECT g, o_bucket, weight, 1 AS o_results, 0 AS o_tool_errors, 0 AS o_not_found, 0 AS o_timeouts, 0 AS o_not_allowed, 0 AS o_empty_results
                   FROM unnest($1::int[], $2::int[], $3::int[]) AS c(g, o_bucket, weight)) c
          GROUP BY g) a ORDER BY g`,
      [calls.map((c) => c.g), calls.map((c) => c.bucket), calls.map((c) => c.weight)],
    );
    const expected = groups.map((calls) => sumOf(...calls.filter((c) => c.bucket !== null).map((c) => ({ lower: c.bucket!, counts: [c.weight] }))));
    expect(rows.map((r) => r.hist)).toEqual(expected);
    // a one-bucket group whose weights cancel out is among them: its histogram is empty, not a bucket of 0
    expect(
      groups.some(
        (calls) => calls.length > 1 && calls.every((c) => c.bucket === calls[0]!.bucket && c.bucket !== null) && calls.reduce((s, c) => s + c.weight, 0) === 0,
      ),
    ).toBe(true);
  });
});

import { DAY_MS, HOUR_MS } from "../contracts/metrics";
// Time buckets of the charts and the metric queries: hours up to 3 days, days beyond (UTC).
// Browser-safe: the server picks the bucket of a series, the charts lay out the same buckets.

export type Bucket = "hour" | "day";
export type BucketInput = number | Date | string;

export interface Range {
  from: Date;
  to: Date;
  bucket: Bucket;
}

export const BUCKET_MS: Record<Bucket, number> = { hour: HOUR_MS, day: DAY_MS };
const MAX_BUCKETS = 10_000;

export function toMs(value: BucketInput): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${String(value)}`);
  return ms;
}

export function floorTo(ms: number, bucket: Bucket): number {
  const size = BUCKET_MS[bucket];
  return Math.floor(ms / size) * size;
}

/** Start (ms, UTC) of every bucket that overlaps [from, to); the first may start before `from`. */
export function bucketStarts(from: Date, to: Date, bucket: Bucket): number[] {
  const start = floorTo(toMs(from), bucket);
  const end = toMs(to);
  const size = BUCKET_MS[bucket];
  if ((end - start) / size > MAX_BUCKETS) throw new RangeError(`more than ${MAX_BUCKETS} ${bucket} buckets`);
  const starts: number[] = [];
  for (let t = start; t < end; t += size) starts.push(t);
  return starts;
}

/** Hourly buckets up to 3 days, daily beyond. */
export function chooseBucket(from: Date, to: Date): Bucket {
  return toMs(to) - toMs(from) <= 3 * BUCKET_MS.day ? "hour" : "day";
}

/** Pure rate-limiting state machines; the clock is a parameter (milliseconds). */

/** A token bucket: `capacity` requests at once, refilled at `perMinute`. */
export type Bucket = { tokens: number; updatedAt: number };

export function takeToken(bucket: Bucket | undefined, perMinute: number, now: number, capacity = perMinute) {
  const refill = bucket ? ((now - bucket.updatedAt) * perMinute) / 60_000 : capacity;
  const tokens = Math.min(capacity, (bucket?.tokens ?? 0) + refill);
  if (tokens >= 1) return { allowed: true as const, bucket: { tokens: tokens - 1, updatedAt: now } };
  const retryAfterSeconds = Math.ceil(((1 - tokens) * 60) / perMinute);
  return { allowed: false as const, bucket: { tokens, updatedAt: now }, retryAfterSeconds };
}

/**
 * Login failures: after `free` failures within `windowMs`, each further attempt must wait
 * 2^(extra) seconds (capped) after the last failure. A success clears the record.
 */
export type Failures = { count: number; first: number; last: number };
export const LOGIN_POLICY = { free: 5, windowMs: 15 * 60_000, maxDelayMs: 5 * 60_000 };

export function loginDelayMs(record: Failures | undefined, now: number, policy = LOGIN_POLICY): number {
  if (!record || now - record.first > policy.windowMs || record.count < policy.free) return 0;
  const delay = Math.min(policy.maxDelayMs, 1000 * 2 ** (record.count - policy.free));
  return Math.max(0, record.last + delay - now);
}

export function recordFailure(record: Failures | undefined, now: number, policy = LOGIN_POLICY): Failures {
  if (!record || now - record.first > policy.windowMs) return { count: 1, first: now, last: now };
  return { count: record.count + 1, first: record.first, last: now };
}

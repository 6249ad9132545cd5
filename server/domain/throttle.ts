/**
 * Rate-limit policies and the arithmetic around them. The buckets themselves live in
 * PostgreSQL (server/services/rate-limits.ts), where one statement refills a bucket and takes
 * a token, so that parallel requests and separate app instances share one count.
 */

/** A token bucket: `capacity` requests at once, refilled continuously at `perMinute`. */
export type BucketPolicy = { capacity: number; perMinute: number };

/**
 * Sign-in attempts, counted BEFORE the password is checked (a refused attempt checks nothing).
 * Per account: five at once, then one every three minutes (a success clears the account's
 * bucket). Per client address: twenty at once, then five a minute. When the server cannot
 * tell clients apart (no trusted proxy: see clientAddress), all sign-ins share one bucket.
 */
export const SIGN_IN_LIMITS = {
  account: { capacity: 5, perMinute: 1 / 3 },
  address: { capacity: 20, perMinute: 5 },
  unknownAddress: { capacity: 100, perMinute: 30 },
} satisfies Record<string, BucketPolicy>;

/** Requests per API key: a minute's worth at once, refilled at the same rate. */
export const apiKeyPolicy = (perMinute: number): BucketPolicy => ({ capacity: perMinute, perMinute });

/** Whole seconds until a bucket holding `tokens` (< 1) has a token again. */
export function retryAfterSeconds(tokens: number, perMinute: number) {
  return Math.max(1, Math.ceil(((1 - tokens) * 60) / perMinute));
}

/** The address that sign-ins from clients the server cannot tell apart are counted under. */
export const UNKNOWN_ADDRESS = "unknown";

/**
 * The client's address for per-address limits. `X-Forwarded-For` is written by the client
 * unless a proxy in front of the app rewrites it, so it counts only when the operator says
 * how many proxies there are (`trustedProxies`, TOOLGATE_TRUST_PROXY): the entry that the
 * nearest trusted proxy added is the one the client could not forge. Without a trusted proxy
 * the answer is UNKNOWN_ADDRESS: Next.js route handlers do not expose the socket's address
 * (next start fills X-Forwarded-For from the socket only when the client sent none).
 */
export function clientAddress(forwardedFor: string | null, trustedProxies: number): string {
  if (trustedProxies < 1 || !forwardedFor) return UNKNOWN_ADDRESS;
  const hops = forwardedFor
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return hops[hops.length - trustedProxies] ?? UNKNOWN_ADDRESS;
}

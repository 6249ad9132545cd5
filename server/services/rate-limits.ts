import { retryAfterSeconds, type BucketPolicy } from "../domain/throttle";
import { pool } from "../db/client";

export type Taken = { key: string; allowed: boolean; retryAfterSeconds: number };

/**
 * Refills each named bucket for the time since its last use and takes one token from it, in
 * ONE statement: the row lock of the upsert orders parallel requests (of any app instance),
 * so a burst cannot be checked before it is counted. A bucket without a token is left as it
 * is (the refused attempt costs nothing). Keys are taken in sorted order, so that statements
 * naming two buckets never wait on each other in a cycle.
 */
const TAKE = `
  INSERT INTO rate_limits AS r (key, tokens, capacity, per_minute, allowed, updated_at, expires_at)
  SELECT k, c - 1, c, p, true, now(), now() + make_interval(secs => 60 / p)
    FROM unnest($1::text[], $2::float8[], $3::float8[]) AS t(k, c, p)
   ORDER BY k
  ON CONFLICT (key) DO UPDATE SET (tokens, allowed, capacity, per_minute, updated_at, expires_at) = (
    SELECT level - taken, taken = 1, EXCLUDED.capacity, EXCLUDED.per_minute, now(),
           now() + make_interval(secs => (EXCLUDED.capacity - level + taken) * 60 / EXCLUDED.per_minute)
      FROM (SELECT level, CASE WHEN level >= 1 THEN 1 ELSE 0 END AS taken
              FROM (SELECT LEAST(EXCLUDED.capacity,
                                 r.tokens + GREATEST(0, EXTRACT(EPOCH FROM now() - r.updated_at)) * EXCLUDED.per_minute / 60) AS level) refill) take)
  RETURNING key, allowed, tokens, per_minute`;

export async function takeTokens(buckets: Record<string, BucketPolicy>): Promise<Taken[]> {
  const keys = Object.keys(buckets).sort();
  const { rows } = await pool().query<{ key: string; allowed: boolean; tokens: number; per_minute: number }>(TAKE, [
    keys,
    keys.map((k) => buckets[k]!.capacity),
    keys.map((k) => buckets[k]!.perMinute),
  ]);
  sweepNowAndThen();
  return rows.map((row) => ({
    key: row.key,
    allowed: row.allowed,
    retryAfterSeconds: row.allowed ? 0 : retryAfterSeconds(row.tokens, row.per_minute),
  }));
}

/** Forgets a bucket (a full bucket and no row mean the same). */
export async function resetBucket(key: string) {
  await pool().query("DELETE FROM rate_limits WHERE key = $1", [key]);
}

/**
 * Rows whose bucket is full again hold nothing: at most once a minute per process, delete a
 * bounded number of them, skipping rows another request holds; a full batch means more are
 * waiting, so the next request sweeps again (a flood of new keys cannot outgrow the sweep).
 * The request does not wait for it.
 */
let lastSweep = 0;
function sweepNowAndThen(now = Date.now()) {
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  const limit = 5000;
  sweepExpiredBuckets(limit).then(
    (deleted) => (deleted === limit ? (lastSweep = 0) : undefined),
    (error: Error) => console.error("[rate-limits] sweep failed:", error.message),
  );
}

/** Deletes up to `limit` rows whose bucket is full again; answers how many. */
export async function sweepExpiredBuckets(limit = 1000) {
  const { rowCount } = await pool().query(
    `DELETE FROM rate_limits WHERE key IN (
       SELECT key FROM rate_limits WHERE expires_at < now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [limit],
  );
  return rowCount ?? 0;
}

-- Latency histograms trimmed of leading zeros too. Latencies sit in the upper buckets (100 ms is
-- bucket 49), so a histogram that started at bucket 0 was mostly zeros, and reading percentiles
-- unnested every one of them: the tools table spent 270 ms on 6,000 rollup rows. A histogram is
-- now stored from its first to its last non-empty bucket, with the array's lower bound as the
-- first bucket's 1-based index: h[i] is still the count of bucket i - 1, for any h.

-- a + b, bucket by bucket (either may be NULL, empty or start anywhere), both ends trimmed of zeros
CREATE OR REPLACE FUNCTION toolgate_hist_add(a BIGINT[], b BIGINT[]) RETURNS BIGINT[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  WITH s AS (
    SELECT i, coalesce(a[i], 0) + coalesce(b[i], 0) AS n
      FROM generate_series(least(array_lower(a, 1), array_lower(b, 1)), greatest(array_upper(a, 1), array_upper(b, 1))) AS i
  ), ends AS (SELECT min(i) AS lo, max(i) AS hi FROM s WHERE n <> 0)
  SELECT CASE WHEN lo IS NULL THEN '{}'::BIGINT[]
              ELSE ('[' || lo || ':' || hi || ']=' || array(SELECT n FROM s WHERE i BETWEEN lo AND hi ORDER BY i)::text)::BIGINT[] END
    FROM ends
$$;

-- the rows written before: their leading zeros trimmed
UPDATE "call_rollups_hourly" SET "latency_hist" = toolgate_hist_add("latency_hist", NULL) WHERE "latency_hist"[array_lower("latency_hist", 1)] = 0;

UPDATE "call_rollups_daily" SET "latency_hist" = toolgate_hist_add("latency_hist", NULL) WHERE "latency_hist"[array_lower("latency_hist", 1)] = 0;

-- AlterTable
ALTER TABLE "call_rollups_daily" ADD COLUMN     "latency_hist" BIGINT[] DEFAULT ARRAY[]::BIGINT[],
ADD COLUMN     "not_allowed" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "not_found" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "results" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "timeouts" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "tool_errors" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "call_rollups_hourly" ADD COLUMN     "latency_hist" BIGINT[] DEFAULT ARRAY[]::BIGINT[],
ADD COLUMN     "not_allowed" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "not_found" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "results" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "timeouts" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "tool_errors" BIGINT NOT NULL DEFAULT 0;

-- Latency histograms (isomorphic/latency-histogram.ts) are arrays of counts per bucket, trimmed
-- of trailing zeros. Which bucket a latency falls in is decided by the application, the database
-- only adds the arrays up. (Prisma's adapter splits migrations at every semicolon, so these
-- functions are single SQL statements.)

-- a + b, bucket by bucket (either may be NULL or shorter), trailing zeros trimmed
CREATE FUNCTION toolgate_hist_add(a BIGINT[], b BIGINT[]) RETURNS BIGINT[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(s[1:(SELECT max(i) FROM generate_subscripts(s, 1) i WHERE s[i] <> 0)], '{}')
    FROM (SELECT array(SELECT coalesce(x, 0) + coalesce(y, 0) FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i) ORDER BY i) AS s) t
$$;

-- the histogram of 1-based buckets, each counted with its weight (1, or -1 to take a latency out)
CREATE FUNCTION toolgate_hist_of(buckets INT[], weights INT[]) RETURNS BIGINT[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT toolgate_hist_add(array(
    SELECT coalesce(c.n, 0) FROM generate_series(1, (SELECT max(b) FROM unnest(buckets) AS b)) AS i
      LEFT JOIN (SELECT b, sum(w)::BIGINT AS n FROM unnest(buckets, weights) AS u(b, w) GROUP BY b) c ON c.b = i
     ORDER BY i), NULL)
$$;

-- the sum of histograms
CREATE AGGREGATE toolgate_hist_sum(BIGINT[]) (SFUNC = toolgate_hist_add, STYPE = BIGINT[], INITCOND = '{}');

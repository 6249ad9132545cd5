-- Functions in PL/pgSQL, applied after the migrations on every migrate (server/db/migrate.ts), as
-- one script in one transaction: Prisma's driver adapter runs a migration statement by statement,
-- cutting it at every semicolon, also inside a function body, so a migration cannot hold them.
-- Each is CREATE OR REPLACE: change it here, and the next migrate replaces it.

-- The latency histograms of the rollups (docs/rollups.md). As SQL functions with subqueries
-- (the migrations rollup_outcomes_and_latency and latency_histograms_trimmed_both_ends), a call of
-- toolgate_hist_add cost about 260 us, and ingestion calls it for every rollup row a batch touches;
-- these loops cost about 5 us a call and give the same answers (docs/PERFORMANCE.md). The shortcut
-- of toolgate_hist_add for what most batches add (buckets within the row's histogram) takes about
-- 2 us; server/services/rollups/histograms.integration.test.ts checks both ways on random input.

-- They replace the SQL functions of the migration rollup_outcomes_and_latency once it has run: a
-- database migrated part of the way (as the migration tests do) has none yet, and that migration
-- creates them with CREATE FUNCTION, which would fail on functions already there.
DO $guard$
BEGIN
  IF to_regprocedure('toolgate_hist_add(bigint[], bigint[])') IS NULL THEN RETURN; END IF;

  -- a + b, bucket by bucket (either may be NULL, empty or start anywhere; NULL elements count 0),
  -- both ends trimmed of zeros: the lower bound of the answer is the index of its first non-empty bucket
  EXECUTE $create$
    CREATE OR REPLACE FUNCTION toolgate_hist_add(a BIGINT[], b BIGINT[]) RETURNS BIGINT[]
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $body$
    DECLARE
      lo INT := least(array_lower(a, 1), array_lower(b, 1));
      hi INT := greatest(array_upper(a, 1), array_upper(b, 1));
      s BIGINT[] := '{}';
    BEGIN
      IF lo IS NULL THEN RETURN s; END IF;
      -- b within a (trimmed: non-zero ends), none of b negative: a's ends stay non-zero, only b's buckets change
      IF 0 <= ALL (b) AND array_lower(b, 1) >= array_lower(a, 1) AND array_upper(b, 1) <= array_upper(a, 1)
         AND a[array_lower(a, 1)] > 0 AND a[array_upper(a, 1)] > 0 THEN
        s := a;
        FOR i IN array_lower(b, 1)..array_upper(b, 1) LOOP s[i] := coalesce(s[i], 0) + coalesce(b[i], 0); END LOOP;
        RETURN s;
      END IF;
      WHILE lo <= hi AND coalesce(a[lo], 0) + coalesce(b[lo], 0) = 0 LOOP lo := lo + 1; END LOOP;
      WHILE hi >= lo AND coalesce(a[hi], 0) + coalesce(b[hi], 0) = 0 LOOP hi := hi - 1; END LOOP;
      FOR i IN lo..hi LOOP s[i] := coalesce(a[i], 0) + coalesce(b[i], 0); END LOOP;
      RETURN s;
    END $body$
  $create$;

  -- the histogram of 1-based buckets, each counted with its weight (1, or -1 to take a latency out)
  EXECUTE $create$
    CREATE OR REPLACE FUNCTION toolgate_hist_of(buckets INT[], weights INT[]) RETURNS BIGINT[]
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $body$
    DECLARE
      s BIGINT[] := '{}';
    BEGIN
      FOR k IN 1..coalesce(array_length(buckets, 1), 0) LOOP
        s[buckets[k]] := coalesce(s[buckets[k]], 0) + weights[k];
      END LOOP;
      RETURN toolgate_hist_add(s, NULL);
    END $body$
  $create$;
END $guard$;

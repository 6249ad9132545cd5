-- AlterTable
ALTER TABLE "call_rollups_daily" ADD COLUMN     "unchecked" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "call_rollups_hourly" ADD COLUMN     "unchecked" BIGINT NOT NULL DEFAULT 0;

-- The calls stored so far without a verdict (valid null: no schema, no harness verdict) were
-- counted among the calls and not among the invalid ones, so the pages took them for valid.
-- Count them apart in the rows that hold them (only those rows: the rest stay 0).
UPDATE "call_rollups_hourly" AS r SET "unchecked" = u.n
FROM (
  SELECT "project_id", date_trunc('hour', "timestamp", 'UTC') AS hour, "tool", "model_name", coalesce("model_version", '') AS model_version,
         coalesce("category", '') AS category, count(*) AS n
  FROM "tool_calls" WHERE "valid" IS NULL GROUP BY 1, 2, 3, 4, 5, 6
) AS u
WHERE r."project_id" = u."project_id" AND r."hour" = u.hour AND r."tool" = u."tool" AND r."model_name" = u."model_name"
  AND r."model_version" = u.model_version AND r."category" = u.category;

UPDATE "call_rollups_daily" AS r SET "unchecked" = u.n
FROM (
  SELECT "project_id", date_bin('1 day', "timestamp", TIMESTAMPTZ '2000-01-01 00:00:00+00') AS day, "tool", "model_name",
         coalesce("model_version", '') AS model_version, coalesce("category", '') AS category, count(*) AS n
  FROM "tool_calls" WHERE "valid" IS NULL GROUP BY 1, 2, 3, 4, 5, 6
) AS u
WHERE r."project_id" = u."project_id" AND r."day" = u.day AND r."tool" = u."tool" AND r."model_name" = u."model_name"
  AND r."model_version" = u.model_version AND r."category" = u.category;

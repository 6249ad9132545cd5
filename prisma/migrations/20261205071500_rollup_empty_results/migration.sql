-- Empty results (isomorphic/outcome.ts: isEmptyResult): ok results that say nothing, per rollup row.
-- Rows written before this migration count none (the rollups written from now on count them).

-- AlterTable
ALTER TABLE "call_rollups_daily" ADD COLUMN     "empty_results" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "call_rollups_hourly" ADD COLUMN     "empty_results" BIGINT NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "call_rollups_hourly" ADD COLUMN     "corrected" BIGINT NOT NULL DEFAULT 0;

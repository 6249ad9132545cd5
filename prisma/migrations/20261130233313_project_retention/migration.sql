-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "call_retention_days" INTEGER NOT NULL DEFAULT 90,
ADD COLUMN     "rollup_retention_days" INTEGER NOT NULL DEFAULT 400;

-- Whether an invalid call's correction recovered it (the correction exists and is not itself
-- invalid, docs/pairing.md), stored on the invalid call: the schema doctor's failure patterns read
-- it from their index instead of looking up each correction's verdict by primary key (37,000
-- lookups for one tool over 30 days at 10 million calls, ~500 ms, docs/PERFORMANCE.md). The
-- pairing statement keeps it with every link it changes, a re-check with every verdict
-- (server/services/ingest/write-calls.ts). Filled here from the calls kept, by the same rule
-- (recoveredSql in server/services/rollups/tables.ts).

-- AlterTable
ALTER TABLE "tool_calls" ADD COLUMN "recovered" BOOLEAN NOT NULL DEFAULT false;

-- DropIndex
DROP INDEX "tool_calls_patterns_idx";

-- Backfill (before the index is built again, so that the updates do not maintain it)
UPDATE "tool_calls" x SET "recovered" = true
 WHERE x.valid = false AND x.correction_id IS NOT NULL
   AND NOT EXISTS (SELECT FROM "tool_calls" f WHERE f.project_id = x.project_id AND f.id = x.correction_id AND f.valid = false);

-- CreateIndex
CREATE INDEX "tool_calls_patterns_idx" ON "tool_calls"("project_id", "tool", "timestamp", "pattern", "correction_id", "id", "recovered") WHERE (valid = false);

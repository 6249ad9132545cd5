-- AlterTable
ALTER TABLE "tool_calls" ADD COLUMN     "pattern" TEXT;

-- CreateIndex
CREATE INDEX "tool_calls_patterns_idx" ON "tool_calls"("project_id", "tool", "timestamp", "pattern", "correction_id", "id") WHERE (valid = false);

-- Calls stored before this column: their category and the checked path (array indexes dropped),
-- the name for an unknown tool. New calls also get the kind of value sent (at ingestion).
UPDATE "tool_calls" SET "pattern" = coalesce("category", '') || E'\t' ||
       CASE WHEN "category" = "checked_category" AND "category" NOT IN ('unknown_tool', 'malformed_arguments')
            THEN regexp_replace(coalesce("checked_path", ''), '\[[0-9]+\]', '[]', 'g') ELSE '' END || E'\t' ||
       CASE WHEN "category" = 'unknown_tool' THEN "tool" ELSE '' END
 WHERE "valid" = false;

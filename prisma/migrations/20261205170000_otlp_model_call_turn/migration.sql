-- A model call's place in its conversation (the assistant turns its input repeats): orders the
-- model calls of a run that started in the same millisecond (server/services/otlp/ingest-traces.ts,
-- RANKED). Rows written before this migration keep 0, the order they had (start time, span id).

-- AlterTable
ALTER TABLE "otlp_model_calls" ADD COLUMN     "turn" INTEGER NOT NULL DEFAULT 0;

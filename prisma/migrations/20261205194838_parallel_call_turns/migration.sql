-- Parallel calls (docs/events.md, "Parallel calls"): a call's turn (which model response of its run
-- wrote it: calls of one turn were requested together), whether the tool message that answered an
-- OTLP call named its tool call id (docs/otlp.md), and partial indexes of the calls that have a
-- turn, so that a tool's or a model version's parallel groups are read from a bounded sample
-- (server/services/parallel-calls.ts). Rows written before keep no turn: "not reported".

-- AlterTable
ALTER TABLE "otlp_results" ADD COLUMN     "id_kept" BOOLEAN;

-- AlterTable
ALTER TABLE "tool_calls" ADD COLUMN     "result_id_kept" BOOLEAN,
ADD COLUMN     "turn" INTEGER;

-- CreateIndex
CREATE INDEX "tool_calls_turn_tool_idx" ON "tool_calls"("project_id", "tool", "timestamp", "run_id", "turn") WHERE (turn IS NOT NULL);

-- CreateIndex
CREATE INDEX "tool_calls_turn_model_idx" ON "tool_calls"("project_id", "model_name", "model_version", "timestamp", "run_id", "turn") WHERE (turn IS NOT NULL);

-- CreateIndex
CREATE INDEX "tool_calls_turn_group_idx" ON "tool_calls"("project_id", "run_id", "turn") WHERE (turn IS NOT NULL);

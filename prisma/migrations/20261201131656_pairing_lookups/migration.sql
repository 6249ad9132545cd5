-- DropIndex
DROP INDEX "tool_calls_project_id_corrects_id_idx";

-- CreateIndex
CREATE INDEX "tool_calls_project_id_corrects_id_step_timestamp_id_idx" ON "tool_calls"("project_id", "corrects_id", "step", "timestamp", "id");

-- CreateIndex
CREATE INDEX "tool_calls_project_id_run_id_tool_step_timestamp_id_idx" ON "tool_calls"("project_id", "run_id", "tool", "step", "timestamp", "id");

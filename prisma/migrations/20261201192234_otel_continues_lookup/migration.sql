-- CreateIndex
CREATE INDEX "tool_calls_otel_continues_idx" ON "tool_calls"("project_id", "timestamp") WHERE (metadata ? 'otel.continues');

-- CreateIndex
CREATE INDEX "call_rollups_hourly_project_id_model_name_model_version_hou_idx" ON "call_rollups_hourly"("project_id", "model_name", "model_version", "hour");

-- CreateIndex
CREATE INDEX "tool_calls_invalid_idx" ON "tool_calls"("project_id", "timestamp", "id") WHERE (valid = false);

-- Day buckets of the dashboards' series (server/services/metrics/rollups.ts, DAY_BUCKET): without
-- statistics on the expression the planner takes every hour for a day, expects 24 times too many
-- groups and sorts the rows (on disk) instead of hashing them. Prisma's schema cannot express
-- statistics objects and its diff leaves them alone.
CREATE STATISTICS "call_rollups_hourly_day_stat" ON (date_bin('1 day', "hour", TIMESTAMPTZ '2000-01-01 00:00:00+00')) FROM "call_rollups_hourly";

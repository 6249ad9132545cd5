-- Rollup rows are updated by every batch that adds to them. With full pages, each update puts the
-- new version of the row on another page and a new entry in each index of the table. With half of
-- each page free, the new version stays on the page and no index changes (a HOT update): batches
-- spread over many hours cost PostgreSQL 10 to 15 % less CPU (docs/PERFORMANCE.md). Pages written
-- before this keep what they hold until the table is rewritten.
ALTER TABLE "call_rollups_hourly" SET (fillfactor = 50);
ALTER TABLE "call_rollups_daily" SET (fillfactor = 50);
ALTER TABLE "call_rollups_tool_daily" SET (fillfactor = 50);
ALTER TABLE "call_rollups_model_daily" SET (fillfactor = 50);
ALTER TABLE "error_message_rollups_hourly" SET (fillfactor = 50);
ALTER TABLE "error_message_rollups_daily" SET (fillfactor = 50);

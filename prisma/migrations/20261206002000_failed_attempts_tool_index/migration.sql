-- Retry spirals (server/services/metrics/spirals.ts): a tool's failed attempts (invalid calls and
-- failed results, ~11 % of all calls) by time, so that the read takes them alone from the heap
-- instead of every call of the tool in the range (at 10 million calls, 7 days of the tenth tool:
-- 13,622 failed of 57,628). Its predicate is the read's own condition, word for word, with
-- `valid IS FALSE`, which PostgreSQL does not prove from `valid = false`: the pairing of an ingest
-- batch (server/services/ingest/write-calls.ts, `valid = false`), planned with statistics older than
-- its runs, took an index of `valid = false OR …` and read 19,661 rows instead of under 600
-- (pairing-scale.exhaustive.test.ts).

-- CreateIndex
CREATE INDEX "tool_calls_failed_tool_idx" ON "tool_calls"("project_id", "tool", "timestamp") WHERE ((valid IS FALSE) OR (result_status = ANY (ARRAY['error'::text, 'not_found'::text, 'timeout'::text, 'not_allowed'::text])));

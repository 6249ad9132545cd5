-- The daily call rollups per model version alone (no tool, no category). A read per model
-- version that needs neither (the models page's series, table and latencies) reads its whole
-- days there: ~5 rows a day against ~1,850 at 10 million calls a month (docs/PERFORMANCE.md).
-- Written by the same statements as the other call rollups (server/services/rollups/write.ts), and
-- a re-check recomputes its days from the daily rows (rebuild.ts).

-- CreateTable
CREATE TABLE "call_rollups_model_daily" (
    "project_id" UUID NOT NULL,
    "day" TIMESTAMPTZ(3) NOT NULL,
    "model_name" TEXT NOT NULL,
    "model_version" TEXT NOT NULL,
    "calls" BIGINT NOT NULL DEFAULT 0,
    "invalid" BIGINT NOT NULL DEFAULT 0,
    "unchecked" BIGINT NOT NULL DEFAULT 0,
    "corrected" BIGINT NOT NULL DEFAULT 0,
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "results" BIGINT NOT NULL DEFAULT 0,
    "tool_errors" BIGINT NOT NULL DEFAULT 0,
    "not_found" BIGINT NOT NULL DEFAULT 0,
    "timeouts" BIGINT NOT NULL DEFAULT 0,
    "not_allowed" BIGINT NOT NULL DEFAULT 0,
    "empty_results" BIGINT NOT NULL DEFAULT 0,
    "latency_hist" BIGINT[] DEFAULT ARRAY[]::BIGINT[],

    CONSTRAINT "call_rollups_model_daily_pkey" PRIMARY KEY ("project_id","day","model_name","model_version")
);

-- Fill it from the daily call rollups already stored, in time order (as ingestion writes them);
-- toolgate_hist_sum (migration rollup_outcomes_and_latency) adds up the histograms
INSERT INTO "call_rollups_model_daily" ("project_id", "day", "model_name", "model_version", "calls", "invalid", "unchecked", "corrected", "input_tokens", "output_tokens",
    "cost_usd", "results", "tool_errors", "not_found", "timeouts", "not_allowed", "empty_results", "latency_hist")
SELECT "project_id", "day", "model_name", "model_version", sum("calls"), sum("invalid"), sum("unchecked"), sum("corrected"), sum("input_tokens"), sum("output_tokens"),
       sum("cost_usd"), sum("results"), sum("tool_errors"), sum("not_found"), sum("timeouts"), sum("not_allowed"), sum("empty_results"), toolgate_hist_sum("latency_hist")
  FROM "call_rollups_daily" GROUP BY 1, 2, 3, 4 ORDER BY 2, 3, 4;

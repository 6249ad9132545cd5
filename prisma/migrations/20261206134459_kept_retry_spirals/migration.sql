-- Retry spirals kept per run: the worker computes the spirals of each marked run from the whole run
-- and keeps their attempts here, so that reads clip them to a range instead of reading every
-- failed call of it (docs/PERFORMANCE.md). Statements that change a run mark it stale, and reads
-- take a stale run from its calls until the worker keeps it again.
-- CreateTable
CREATE TABLE "spiral_attempts" (
    "project_id" UUID NOT NULL,
    "run_id" TEXT NOT NULL,
    "call_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "spiral" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "length" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "model_name" TEXT NOT NULL,
    "model_version" TEXT,
    "cost_usd" DOUBLE PRECISION NOT NULL,
    "tokens" BIGINT NOT NULL,
    "ended_by" TEXT,

    CONSTRAINT "spiral_attempts_pkey" PRIMARY KEY ("project_id","run_id","call_id")
);

-- CreateTable
CREATE TABLE "spiral_stale_runs" (
    "project_id" UUID NOT NULL,
    "run_id" TEXT NOT NULL,

    CONSTRAINT "spiral_stale_runs_pkey" PRIMARY KEY ("project_id","run_id")
);

-- CreateIndex
CREATE INDEX "spiral_attempts_tool_covering_idx" ON "spiral_attempts"("project_id", "tool", "at", "length", "run_id", "spiral", "position", "call_id", "model_name", "model_version", "cost_usd", "tokens", "ended_by");

-- CreateIndex
CREATE INDEX "spiral_attempts_project_id_at_idx" ON "spiral_attempts"("project_id", "at");

-- Every run that has a failed call (an invalid call, or a result that failed) may have spirals:
-- all are marked, and the worker keeps them. Reads take them from the calls until then.
INSERT INTO "spiral_stale_runs" ("project_id", "run_id")
SELECT DISTINCT "project_id", "run_id" FROM "tool_calls"
 WHERE "valid" IS FALSE OR "result_status" IN ('error', 'not_found', 'timeout', 'not_allowed');

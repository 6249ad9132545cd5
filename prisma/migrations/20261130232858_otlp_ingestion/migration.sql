-- AlterTable
ALTER TABLE "tool_definitions" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'api';

-- CreateTable
CREATE TABLE "otlp_model_calls" (
    "project_id" UUID NOT NULL,
    "run_id" TEXT NOT NULL,
    "span_key" TEXT NOT NULL,
    "started_ns" BIGINT NOT NULL,

    CONSTRAINT "otlp_model_calls_pkey" PRIMARY KEY ("project_id","run_id","span_key")
);

-- CreateTable
CREATE TABLE "otlp_results" (
    "project_id" UUID NOT NULL,
    "call_id" TEXT NOT NULL,
    "priority" SMALLINT NOT NULL,
    "status" TEXT NOT NULL,
    "summary" TEXT,
    "latency_ms" INTEGER,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otlp_results_pkey" PRIMARY KEY ("project_id","call_id","priority")
);

-- CreateTable
CREATE TABLE "otlp_stats" (
    "project_id" UUID NOT NULL,
    "last_span_at" TIMESTAMPTZ(3),
    "spans" BIGINT NOT NULL DEFAULT 0,
    "ignored" BIGINT NOT NULL DEFAULT 0,
    "rejected" BIGINT NOT NULL DEFAULT 0,
    "last_reason" TEXT,
    "last_reason_at" TIMESTAMPTZ(3),

    CONSTRAINT "otlp_stats_pkey" PRIMARY KEY ("project_id")
);

-- AddForeignKey
ALTER TABLE "otlp_model_calls" ADD CONSTRAINT "otlp_model_calls_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "otlp_results" ADD CONSTRAINT "otlp_results_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "otlp_stats" ADD CONSTRAINT "otlp_stats_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

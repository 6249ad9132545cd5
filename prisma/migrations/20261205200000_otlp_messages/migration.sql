-- A run's conversation as OTLP model calls delivered it (server/adapters/otlp/transcript.ts):
-- one row per message of a run, keyed by a hash chain over the conversation so that the prefix
-- every model call repeats is stored once. No foreign key (written in bulk, like
-- otlp_model_calls): deleteProject removes the rows by hand, the retention sweep by started_ns.

-- CreateTable
CREATE TABLE "otlp_messages" (
    "project_id" UUID NOT NULL,
    "run_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "depth" INTEGER NOT NULL,
    "role" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "chars" INTEGER NOT NULL,
    "calls" JSONB NOT NULL,
    "call_id" TEXT,
    "error" BOOLEAN NOT NULL DEFAULT false,
    "span_key" TEXT NOT NULL,
    "started_ns" BIGINT NOT NULL,
    "output" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "otlp_messages_pkey" PRIMARY KEY ("project_id","run_id","key")
);

-- CreateIndex
CREATE INDEX "otlp_messages_call_id_idx" ON "otlp_messages"("project_id", "call_id") WHERE (call_id IS NOT NULL);

-- The order GenAI log records arrived in: a span's messages in the order they were emitted where
-- their times are equal (server/services/otlp/log-content.ts). Rows already kept are numbered in
-- no particular order.
-- AlterTable
ALTER TABLE "otlp_log_records" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

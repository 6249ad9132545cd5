-- CreateTable
CREATE TABLE "otlp_tool_executions" (
    "project_id" UUID NOT NULL,
    "trace_id" TEXT NOT NULL,
    "span_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "summary" TEXT,
    "latency_ms" INTEGER NOT NULL,
    "started_ns" BIGINT NOT NULL,
    "server" TEXT,
    "protocol_version" TEXT,
    "request_id" TEXT,
    "arguments" JSONB,
    "call_id" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otlp_tool_executions_pkey" PRIMARY KEY ("project_id","trace_id","span_id")
);

-- AlterTable
ALTER TABLE "otlp_stats" ADD COLUMN     "executions" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "executions_joined" BIGINT NOT NULL DEFAULT 0;

-- AddForeignKey
ALTER TABLE "otlp_tool_executions" ADD CONSTRAINT "otlp_tool_executions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

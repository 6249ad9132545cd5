-- CreateTable
CREATE TABLE "otlp_pending_spans" (
    "project_id" UUID NOT NULL,
    "span_key" TEXT NOT NULL,
    "span" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otlp_pending_spans_pkey" PRIMARY KEY ("project_id","span_key")
);

-- CreateTable
CREATE TABLE "otlp_log_records" (
    "project_id" UUID NOT NULL,
    "span_key" TEXT NOT NULL,
    "record_key" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "time_ns" BIGINT NOT NULL,
    "body" JSONB NOT NULL,
    "attributes" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "otlp_log_records_pkey" PRIMARY KEY ("project_id","span_key","record_key")
);

-- AddForeignKey
ALTER TABLE "otlp_pending_spans" ADD CONSTRAINT "otlp_pending_spans_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "otlp_log_records" ADD CONSTRAINT "otlp_log_records_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "otlp_exports" (
    "id" BIGSERIAL NOT NULL,
    "project_id" UUID NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "spans" INTEGER NOT NULL,
    "accepted" INTEGER NOT NULL,
    "rejected" INTEGER NOT NULL,
    "ignored" JSONB NOT NULL,

    CONSTRAINT "otlp_exports_pkey" PRIMARY KEY ("project_id","id")
);

-- CreateIndex
CREATE INDEX "otlp_exports_project_id_received_at_idx" ON "otlp_exports"("project_id", "received_at");

-- AddForeignKey
ALTER TABLE "otlp_exports" ADD CONSTRAINT "otlp_exports_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

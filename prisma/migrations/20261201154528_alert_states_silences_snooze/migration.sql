-- AlterTable
ALTER TABLE "alert_rules" ADD COLUMN     "last_calls" DOUBLE PRECISION,
ADD COLUMN     "last_state" TEXT,
ADD COLUMN     "last_threshold" DOUBLE PRECISION,
ADD COLUMN     "last_value" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "incidents" ADD COLUMN     "silenced" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "snoozed_until" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "alert_silences" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "rule_id" UUID,
    "scope_tool" TEXT,
    "scope_model" TEXT,
    "reason" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_silences_pkey" PRIMARY KEY ("project_id","id")
);

-- CreateIndex
CREATE INDEX "alert_silences_project_id_ends_at_idx" ON "alert_silences"("project_id", "ends_at");

-- AddForeignKey
ALTER TABLE "alert_silences" ADD CONSTRAINT "alert_silences_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_silences" ADD CONSTRAINT "alert_silences_project_id_rule_id_fkey" FOREIGN KEY ("project_id", "rule_id") REFERENCES "alert_rules"("project_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

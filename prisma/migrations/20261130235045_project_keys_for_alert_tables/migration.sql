-- DropForeignKey
ALTER TABLE "incident_events" DROP CONSTRAINT "incident_events_incident_id_fkey";

-- DropForeignKey
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_rule_id_fkey";

-- DropForeignKey
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_endpoint_id_fkey";

-- DropForeignKey
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_incident_id_fkey";

-- DropIndex
DROP INDEX "alert_rules_project_id_idx";

-- DropIndex
DROP INDEX "incident_events_incident_id_at_idx";

-- DropIndex
DROP INDEX "incidents_rule_id_subject_state_idx";

-- DropIndex
DROP INDEX "webhook_deliveries_endpoint_id_at_idx";

-- DropIndex
DROP INDEX "webhook_deliveries_incident_id_at_idx";

-- DropIndex
DROP INDEX "webhook_endpoints_project_id_idx";

-- AlterTable
ALTER TABLE "alert_rules" DROP CONSTRAINT "alert_rules_pkey",
ADD CONSTRAINT "alert_rules_pkey" PRIMARY KEY ("project_id", "id");

-- AlterTable (written by hand: existing rows take their project from their incident)
ALTER TABLE "incident_events" ADD COLUMN "project_id" UUID;
UPDATE "incident_events" e SET "project_id" = i."project_id" FROM "incidents" i WHERE i."id" = e."incident_id";
ALTER TABLE "incident_events" ALTER COLUMN "project_id" SET NOT NULL,
DROP CONSTRAINT "incident_events_pkey",
ADD CONSTRAINT "incident_events_pkey" PRIMARY KEY ("project_id", "id");

-- AlterTable
ALTER TABLE "incidents" DROP CONSTRAINT "incidents_pkey",
ADD CONSTRAINT "incidents_pkey" PRIMARY KEY ("project_id", "id");

-- AlterTable (written by hand: existing rows take their project from their endpoint)
ALTER TABLE "webhook_deliveries" ADD COLUMN "project_id" UUID;
UPDATE "webhook_deliveries" d SET "project_id" = w."project_id" FROM "webhook_endpoints" w WHERE w."id" = d."endpoint_id";
ALTER TABLE "webhook_deliveries" ALTER COLUMN "project_id" SET NOT NULL,
DROP CONSTRAINT "webhook_deliveries_pkey",
ADD CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("project_id", "id");

-- AlterTable
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_pkey",
ADD CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("project_id", "id");

-- CreateIndex
CREATE INDEX "incident_events_project_id_incident_id_at_idx" ON "incident_events"("project_id", "incident_id", "at");

-- CreateIndex
CREATE INDEX "incidents_project_id_rule_id_subject_state_idx" ON "incidents"("project_id", "rule_id", "subject", "state");

-- CreateIndex
CREATE INDEX "webhook_deliveries_project_id_incident_id_at_idx" ON "webhook_deliveries"("project_id", "incident_id", "at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_project_id_endpoint_id_at_idx" ON "webhook_deliveries"("project_id", "endpoint_id", "at");

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_project_id_rule_id_fkey" FOREIGN KEY ("project_id", "rule_id") REFERENCES "alert_rules"("project_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident_events" ADD CONSTRAINT "incident_events_project_id_incident_id_fkey" FOREIGN KEY ("project_id", "incident_id") REFERENCES "incidents"("project_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_project_id_endpoint_id_fkey" FOREIGN KEY ("project_id", "endpoint_id") REFERENCES "webhook_endpoints"("project_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_project_id_incident_id_fkey" FOREIGN KEY ("project_id", "incident_id") REFERENCES "incidents"("project_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;

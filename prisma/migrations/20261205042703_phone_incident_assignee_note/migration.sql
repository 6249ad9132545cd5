-- AlterTable
ALTER TABLE "incidents" ADD COLUMN     "assignee_id" UUID,
ADD COLUMN     "note" TEXT;

-- AddForeignKey
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_assignee_id_fkey" FOREIGN KEY ("assignee_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

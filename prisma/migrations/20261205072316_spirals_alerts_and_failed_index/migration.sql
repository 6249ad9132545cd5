-- AlterTable
ALTER TABLE "alert_rules" ADD COLUMN     "spiral_length" INTEGER;

-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "demo" BOOLEAN NOT NULL DEFAULT false;

-- CreateEnum
CREATE TYPE "api_key_scope" AS ENUM ('ingest', 'read');

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "scope" "api_key_scope" NOT NULL DEFAULT 'ingest';

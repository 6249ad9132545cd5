-- Pending invitations were bound only to an address and have no secret to hand over:
-- they cannot be accepted safely, so owners invite again and pass on the new link.
DELETE FROM "invitations";

-- DropIndex
DROP INDEX "invitations_email_idx";

-- AlterTable
ALTER TABLE "invitations" DROP CONSTRAINT "invitations_pkey",
ADD COLUMN     "expires_at" TIMESTAMPTZ(3) NOT NULL,
ADD COLUMN     "id" UUID NOT NULL,
ADD COLUMN     "token_hash" TEXT NOT NULL,
ADD CONSTRAINT "invitations_pkey" PRIMARY KEY ("id");

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "invited_into_project_id" UUID;

-- CreateIndex
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "invitations_project_id_email_key" ON "invitations"("project_id", "email");

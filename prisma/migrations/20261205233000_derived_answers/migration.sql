-- Stored answers of the dashboards' costly derived reads (server/services/derived/answers.ts):
-- computed in the background or by the first page view, used while fresh
-- (server/domain/derived-freshness.ts). Deleted with the project (foreign key, cascade).

-- CreateTable
CREATE TABLE "derived_answers" (
    "project_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "range_from" TIMESTAMPTZ(3) NOT NULL,
    "range_to" TIMESTAMPTZ(3) NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,
    "through" TEXT NOT NULL,
    "read_at" TIMESTAMPTZ(3) NOT NULL,
    "answer" JSONB NOT NULL,

    CONSTRAINT "derived_answers_pkey" PRIMARY KEY ("project_id","kind","key")
);

-- CreateIndex
CREATE INDEX "derived_answers_read_at_idx" ON "derived_answers"("read_at");

-- AddForeignKey
ALTER TABLE "derived_answers" ADD CONSTRAINT "derived_answers_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The coarse daily call rollups (per tool and category, per model version) are no longer added to
-- by every batch: a batch marks the days it wrote to here, and the worker recomputes those days of
-- the coarse tables from the daily rows. Reads take a marked day from the daily rows meanwhile.
-- What a batch saves: the coarse tables rows, about as many as the daily tables rows when its
-- calls span many days (docs/PERFORMANCE.md).
-- CreateTable
CREATE TABLE "call_rollups_stale_days" (
    "project_id" UUID NOT NULL,
    "day" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "call_rollups_stale_days_pkey" PRIMARY KEY ("project_id","day")
);

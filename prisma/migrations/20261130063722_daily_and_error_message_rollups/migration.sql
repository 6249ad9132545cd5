-- CreateTable
CREATE TABLE "call_rollups_daily" (
    "project_id" UUID NOT NULL,
    "day" TIMESTAMPTZ(3) NOT NULL,
    "tool" TEXT NOT NULL,
    "model_name" TEXT NOT NULL,
    "model_version" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "calls" BIGINT NOT NULL DEFAULT 0,
    "invalid" BIGINT NOT NULL DEFAULT 0,
    "corrected" BIGINT NOT NULL DEFAULT 0,
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "call_rollups_daily_pkey" PRIMARY KEY ("project_id","day","tool","model_name","model_version","category")
);

-- CreateTable
CREATE TABLE "error_message_rollups_hourly" (
    "project_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "tool" TEXT NOT NULL,
    "message_hash" UUID NOT NULL,
    "message" TEXT NOT NULL,
    "sent" BIGINT NOT NULL DEFAULT 0,
    "followed" BIGINT NOT NULL DEFAULT 0,
    "recovered" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "error_message_rollups_hourly_pkey" PRIMARY KEY ("project_id","hour","tool","message_hash")
);

-- CreateTable
CREATE TABLE "error_message_rollups_daily" (
    "project_id" UUID NOT NULL,
    "day" TIMESTAMPTZ(3) NOT NULL,
    "tool" TEXT NOT NULL,
    "message_hash" UUID NOT NULL,
    "message" TEXT NOT NULL,
    "sent" BIGINT NOT NULL DEFAULT 0,
    "followed" BIGINT NOT NULL DEFAULT 0,
    "recovered" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "error_message_rollups_daily_pkey" PRIMARY KEY ("project_id","day","tool","message_hash")
);

-- CreateIndex
CREATE INDEX "call_rollups_daily_project_id_tool_day_idx" ON "call_rollups_daily"("project_id", "tool", "day");

-- CreateIndex
CREATE INDEX "call_rollups_daily_project_id_model_name_model_version_day_idx" ON "call_rollups_daily"("project_id", "model_name", "model_version", "day");

-- Fill the new rollups from what is already stored (server/services/ingest/write-calls.ts keeps
-- them up from here on). UTC days by date_bin, as there.
INSERT INTO "call_rollups_daily" ("project_id", "day", "tool", "model_name", "model_version", "category",
                                  "calls", "invalid", "corrected", "input_tokens", "output_tokens", "cost_usd")
SELECT "project_id", date_bin('1 day', "hour", TIMESTAMPTZ '2000-01-01 00:00:00+00'), "tool", "model_name", "model_version", "category",
       sum("calls"), sum("invalid"), sum("corrected"), sum("input_tokens"), sum("output_tokens"), sum("cost_usd")
  FROM "call_rollups_hourly" GROUP BY 1, 2, 3, 4, 5, 6;

-- A correction counts as recovered unless it is itself an invalid call.
INSERT INTO "error_message_rollups_hourly" ("project_id", "hour", "tool", "message_hash", "message", "sent", "followed", "recovered")
SELECT x."project_id", date_trunc('hour', x."timestamp", 'UTC'), x."tool", md5(coalesce(x."message", ''))::uuid, coalesce(x."message", ''),
       count(*), count(x."correction_id"), count(x."correction_id") - count(failed."id")
  FROM "tool_calls" x
  LEFT JOIN "tool_calls" failed ON failed."project_id" = x."project_id" AND failed."id" = x."correction_id" AND failed."valid" = false
 WHERE x."valid" = false
 GROUP BY 1, 2, 3, 5;

INSERT INTO "error_message_rollups_daily" ("project_id", "day", "tool", "message_hash", "message", "sent", "followed", "recovered")
SELECT "project_id", date_bin('1 day', "hour", TIMESTAMPTZ '2000-01-01 00:00:00+00'), "tool", "message_hash", min("message"),
       sum("sent"), sum("followed"), sum("recovered")
  FROM "error_message_rollups_hourly" GROUP BY 1, 2, 3, 4;

-- CreateEnum
CREATE TYPE "role" AS ENUM ('owner', 'admin', 'member', 'viewer');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "password_hash" TEXT NOT NULL,
    "must_change_password" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memberships" (
    "user_id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "role" "role" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memberships_pkey" PRIMARY KEY ("user_id","project_id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool_definitions" (
    "project_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "parameters" JSONB NOT NULL,
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_definitions_pkey" PRIMARY KEY ("project_id","name","version")
);

-- CreateTable
CREATE TABLE "tool_calls" (
    "project_id" UUID NOT NULL,
    "id" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "step" INTEGER,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "model_provider" TEXT,
    "model_name" TEXT NOT NULL,
    "model_version" TEXT,
    "tool" TEXT NOT NULL,
    "arguments" JSONB NOT NULL,
    "valid" BOOLEAN,
    "category" TEXT,
    "message" TEXT,
    "harness_valid" BOOLEAN,
    "harness_category" TEXT,
    "harness_message" TEXT,
    "checked_valid" BOOLEAN,
    "checked_category" TEXT,
    "checked_message" TEXT,
    "checked_path" TEXT,
    "checked_version" TEXT,
    "violations" JSONB NOT NULL DEFAULT '[]',
    "verdicts_differ" BOOLEAN NOT NULL DEFAULT false,
    "result_status" TEXT,
    "result_summary" TEXT,
    "latency_ms" INTEGER,
    "corrects_id" TEXT,
    "correction_id" TEXT,
    "input_tokens" INTEGER,
    "output_tokens" INTEGER,
    "cost_usd" DOUBLE PRECISION,
    "tool_version" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "tool_calls_pkey" PRIMARY KEY ("project_id","id")
);

-- CreateTable
CREATE TABLE "call_rollups_hourly" (
    "project_id" UUID NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "tool" TEXT NOT NULL,
    "model_name" TEXT NOT NULL,
    "model_version" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "calls" BIGINT NOT NULL DEFAULT 0,
    "invalid" BIGINT NOT NULL DEFAULT 0,
    "input_tokens" BIGINT NOT NULL DEFAULT 0,
    "output_tokens" BIGINT NOT NULL DEFAULT 0,
    "cost_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,

    CONSTRAINT "call_rollups_hourly_pkey" PRIMARY KEY ("project_id","hour","tool","model_name","model_version","category")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "projects_slug_key" ON "projects"("slug");

-- CreateIndex
CREATE INDEX "memberships_project_id_idx" ON "memberships"("project_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"("prefix");

-- CreateIndex
CREATE INDEX "api_keys_project_id_idx" ON "api_keys"("project_id");

-- CreateIndex
CREATE INDEX "tool_definitions_project_id_name_first_seen_at_idx" ON "tool_definitions"("project_id", "name", "first_seen_at");

-- CreateIndex
CREATE INDEX "tool_calls_project_id_timestamp_idx" ON "tool_calls"("project_id", "timestamp");

-- CreateIndex
CREATE INDEX "tool_calls_project_id_tool_timestamp_idx" ON "tool_calls"("project_id", "tool", "timestamp");

-- CreateIndex
CREATE INDEX "tool_calls_project_id_model_name_model_version_timestamp_idx" ON "tool_calls"("project_id", "model_name", "model_version", "timestamp");

-- CreateIndex
CREATE INDEX "tool_calls_project_id_run_id_step_timestamp_idx" ON "tool_calls"("project_id", "run_id", "step", "timestamp");

-- CreateIndex
CREATE INDEX "tool_calls_project_id_category_timestamp_idx" ON "tool_calls"("project_id", "category", "timestamp");

-- CreateIndex
CREATE INDEX "tool_calls_project_id_corrects_id_idx" ON "tool_calls"("project_id", "corrects_id");

-- CreateIndex
CREATE INDEX "call_rollups_hourly_project_id_tool_hour_idx" ON "call_rollups_hourly"("project_id", "tool", "hour");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_definitions" ADD CONSTRAINT "tool_definitions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The tool sets runs carried (docs/definition-lint.md, "Context cost"): each distinct set of tool
-- names a project's model calls were given, once per project by the hash of its sorted names, and
-- which set each run carried. No foreign key (written in bulk beside the calls, like
-- otlp_model_calls): deleteProject removes the rows by hand, the retention sweep by last_at.

-- CreateTable
CREATE TABLE "tool_sets" (
    "project_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "tools" TEXT[],
    "last_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tool_sets_pkey" PRIMARY KEY ("project_id","hash")
);

-- CreateTable
CREATE TABLE "run_tool_sets" (
    "project_id" UUID NOT NULL,
    "run_id" TEXT NOT NULL,
    "set_hash" TEXT NOT NULL,
    "first_at" TIMESTAMPTZ(3) NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "run_tool_sets_pkey" PRIMARY KEY ("project_id","run_id")
);

-- CreateIndex
CREATE INDEX "run_tool_sets_project_id_last_at_idx" ON "run_tool_sets"("project_id", "last_at");

-- One row per model call and per result of every OTLP export, written in bulk: the per-row
-- foreign-key check cost as much as the insert. deleteProject removes their rows by hand, as for
-- the rollups.

-- DropForeignKey
ALTER TABLE "otlp_model_calls" DROP CONSTRAINT "otlp_model_calls_project_id_fkey";

-- DropForeignKey
ALTER TABLE "otlp_results" DROP CONSTRAINT "otlp_results_project_id_fkey";

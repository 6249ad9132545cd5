import type { SeriesDimension } from "../../../contracts/metrics";
import { pool } from "../../db/client";
import { runRollupRows } from "../rollups/rebuild";
import { rollupRows } from "../rollups/read";
import { CALL_ROLLUPS, dayOf } from "../rollups/tables";

/** Dashboards read only the rollups (whole UTC days from the daily table, hours from the hourly one), never raw calls. */
export type Range = { from: Date; to: Date };
/** `runIdPrefix`: only the calls of runs whose id starts with it (read from the raw calls, not the rollups). */
export type Scope = { tool?: string; model?: string; modelVersion?: string; runIdPrefix?: string };
export type Bucket = "hour" | "day";

/** The project's call rollups over the range and scope, as a FROM item, with its parameters. */
function rows(projectId: string, range: Range, scope: Scope = {}, hourly = false) {
  const params: unknown[] = [];
  const filters = { tool: scope.tool, model_name: scope.model, model_version: scope.modelVersion };
  const from = scope.runIdPrefix
    ? runRollupRows("calls", projectId, range, filters, params, scope.runIdPrefix)
    : rollupRows(CALL_ROLLUPS, projectId, range, filters, params, hourly);
  return { from, params };
}

const TOTALS = `sum(calls)::float8 AS calls, sum(invalid)::float8 AS invalid, sum(corrected)::float8 AS corrected,
  sum(cost_usd)::float8 AS cost_usd, sum(input_tokens)::float8 AS input_tokens, sum(output_tokens)::float8 AS output_tokens`;

export type Totals = { calls: number; invalid: number; corrected: number; costUsd: number; inputTokens: number; outputTokens: number };
type TotalsRow = {
  calls: number | null;
  invalid: number | null;
  corrected: number | null;
  cost_usd: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
};

const totalsOf = (r: TotalsRow | undefined): Totals => ({
  calls: r?.calls ?? 0,
  invalid: r?.invalid ?? 0,
  corrected: r?.corrected ?? 0,
  costUsd: r?.cost_usd ?? 0,
  inputTokens: r?.input_tokens ?? 0,
  outputTokens: r?.output_tokens ?? 0,
});

export async function totals(projectId: string, range: Range, scope?: Scope): Promise<Totals> {
  const r = rows(projectId, range, scope);
  const result = await pool().query<TotalsRow>(`SELECT ${TOTALS} FROM ${r.from}`, r.params);
  return totalsOf(result.rows[0]);
}

const KEY: Record<Exclude<SeriesDimension, "none">, string> = {
  tool: "tool",
  modelVersion: "model_name || CASE WHEN model_version = '' THEN '' ELSE ' ' || model_version END",
  category: "category",
};

/**
 * UTC days: the same buckets as date_trunc('day', hour, 'UTC') at a tenth of its cost per row
 * (date_trunc with a time zone converts every value; date_bin is arithmetic). The daily
 * rollups' rows are midnights already; the hourly ones of a range's partial days are binned.
 */
const DAY_BUCKET = dayOf("hour");

const SUMS = `sum(calls) AS calls, sum(invalid) AS invalid, sum(corrected) AS corrected, sum(cost_usd) AS cost_usd,
  sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens`;

/** Per time bucket and series key: calls and invalid calls (and the rest of the totals). */
export async function series(projectId: string, range: Range, bucket: Bucket, dimension: SeriesDimension, scope?: Scope) {
  const r = rows(projectId, range, scope, bucket === "hour");
  const bucketSql = bucket === "hour" ? "hour" : DAY_BUCKET;
  const category = dimension === "category" ? "WHERE category <> ''" : "";
  // Model versions are grouped by their columns first and labelled per group, not per row.
  const sql =
    dimension === "modelVersion"
      ? `SELECT bucket, ${KEY.modelVersion} AS key, ${TOTALS}
           FROM (SELECT ${bucketSql} AS bucket, model_name, model_version, ${SUMS} FROM ${r.from} GROUP BY 1, 2, 3) per_version
          GROUP BY 1, 2 ORDER BY 1, 2`
      : `SELECT ${bucketSql} AS bucket, ${dimension === "none" ? "''" : KEY[dimension]} AS key, ${TOTALS}
           FROM ${r.from} ${category} GROUP BY 1, 2 ORDER BY 1, 2`;
  const result = await pool().query<TotalsRow & { bucket: Date; key: string }>(sql, r.params);
  return result.rows.map((row) => ({ bucket: row.bucket.toISOString(), key: row.key, ...totalsOf(row) }));
}

/** Totals per key over the whole range, largest first. */
export async function breakdown(projectId: string, range: Range, dimension: Exclude<SeriesDimension, "none"> | "model", scope?: Scope) {
  const r = rows(projectId, range, scope);
  const select = dimension === "model" ? "model_name AS key, model_version AS version" : `${KEY[dimension]} AS key, '' AS version`;
  const result = await pool().query<TotalsRow & { key: string; version: string }>(
    `SELECT ${select}, ${TOTALS} FROM ${r.from}
      ${dimension === "category" ? "WHERE category <> ''" : ""} GROUP BY 1, 2 ORDER BY sum(calls) DESC, 1, 2`,
    r.params,
  );
  return result.rows.map((row) => ({ key: row.key, version: row.version, ...totalsOf(row) }));
}

/** Per tool: totals and its most common failure category (of two as common, the first by name, so that every read agrees). */
export async function toolTable(projectId: string, range: Range, scope?: Scope) {
  const r = rows(projectId, range, scope);
  const result = await pool().query<TotalsRow & { key: string; top_category: string | null }>(
    `SELECT tool AS key, ${TOTALS},
            (array_agg(category ORDER BY invalid DESC, category) FILTER (WHERE category <> '' AND invalid > 0))[1] AS top_category
       FROM (SELECT tool, category, ${SUMS} FROM ${r.from} GROUP BY 1, 2) per_category
      GROUP BY 1 ORDER BY sum(calls) DESC, 1`,
    r.params,
  );
  return result.rows.map((row) => ({ tool: row.key, topCategory: row.top_category, ...totalsOf(row) }));
}

/** Two model versions side by side, per `dimension` (tool or category). */
export async function versionCounts(projectId: string, range: Range, model: string, version: string, dimension: "tool" | "category") {
  const r = rows(projectId, range, { model, modelVersion: version });
  const result = await pool().query<{ key: string; invalid: number; total: number }>(
    dimension === "tool"
      ? `SELECT tool AS key, sum(invalid)::float8 AS invalid, sum(calls)::float8 AS total FROM ${r.from} GROUP BY 1`
      : // per category: calls of that category against all calls of the version
        `SELECT category AS key, sum(invalid)::float8 AS invalid, sum(sum(calls)) OVER ()::float8 AS total
           FROM ${r.from} GROUP BY 1 ORDER BY 1`,
    r.params,
  );
  return dimension === "category" ? result.rows.filter((row) => row.key !== "") : result.rows;
}

import type { SeriesDimension } from "../../../contracts/metrics";
import { pool } from "../../db/client";
import { runRollupRows } from "../rollups/rebuild";
import { rollupRows } from "../rollups/read";
import { CALL_ROLLUPS, dayOf, OUTCOME_COUNT_COLUMNS } from "../rollups/tables";
import { latencySummary, type LatencySummary } from "../../../isomorphic/latency-histogram";
import type { ResultCounts } from "../../../isomorphic/outcome";

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

const TOTALS = `sum(calls)::float8 AS calls, sum(invalid)::float8 AS invalid, sum(unchecked)::float8 AS unchecked, sum(corrected)::float8 AS corrected,
  sum(cost_usd)::float8 AS cost_usd, sum(input_tokens)::float8 AS input_tokens, sum(output_tokens)::float8 AS output_tokens,
  ${OUTCOME_COUNT_COLUMNS.map((c) => `sum(${c})::float8 AS ${c}`).join(", ")}`;

/**
 * Calls, invalid calls and their corrections, usage, and the execution outcomes of the calls
 * that ran (isomorphic/outcome.ts): `results` reported, of which `toolErrors`, `notFound`,
 * `timeouts` and `notAllowed` failed, and `emptyResults` were ok but said nothing.
 */
export type Totals = {
  calls: number;
  invalid: number;
  /** calls nobody could check, neither valid nor invalid (isomorphic/stats.ts: checkedCalls) */
  unchecked: number;
  corrected: number;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
} & ResultCounts;
type TotalsRow = { [column in "calls" | "invalid" | "unchecked" | "corrected" | "cost_usd" | "input_tokens" | "output_tokens"]: number | null } & {
  [column: string]: unknown;
};

const totalsOf = (r: TotalsRow | undefined): Totals => {
  const n = (column: string) => (r?.[column] as number | null | undefined) ?? 0;
  return {
    calls: n("calls"),
    invalid: n("invalid"),
    unchecked: n("unchecked"),
    corrected: n("corrected"),
    costUsd: n("cost_usd"),
    inputTokens: n("input_tokens"),
    outputTokens: n("output_tokens"),
    results: n("results"),
    toolErrors: n("tool_errors"),
    notFound: n("not_found"),
    timeouts: n("timeouts"),
    notAllowed: n("not_allowed"),
    emptyResults: n("empty_results"),
  };
};

/**
 * The latencies of the results per key (`tool`, or '' for all), as percentiles of the summed
 * histograms of the rollup rows (isomorphic/latency-histogram.ts): one row per key and bucket.
 */
export async function latencies(projectId: string, range: Range, dimension: "tool" | "none", scope?: Scope): Promise<Map<string, LatencySummary>> {
  const r = rows(projectId, range, scope);
  const result = await pool().query<{ key: string; bucket: number; n: number }>(
    // a histogram starts at its first non-empty bucket, whose 1-based index is the array's lower bound
    `SELECT ${dimension === "tool" ? "tool" : "''"} AS key, (u.i + array_lower(r.latency_hist, 1) - 2)::int4 AS bucket, sum(u.n)::float8 AS n
       FROM ${r.from} CROSS JOIN LATERAL unnest(r.latency_hist) WITH ORDINALITY AS u(n, i)
      WHERE r.results > 0 AND u.n <> 0 GROUP BY 1, 2`,
    r.params,
  );
  const histograms = new Map<string, number[]>();
  for (const row of result.rows) {
    const histogram = histograms.get(row.key) ?? [];
    histogram[row.bucket] = row.n;
    histograms.set(row.key, histogram);
  }
  return new Map([...histograms].map(([key, histogram]) => [key, latencySummary(Array.from(histogram, (n) => n ?? 0))]));
}

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

const SUMS = `sum(calls) AS calls, sum(invalid) AS invalid, sum(unchecked) AS unchecked, sum(corrected) AS corrected, sum(cost_usd) AS cost_usd,
  sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens, ${OUTCOME_COUNT_COLUMNS.map((c) => `sum(${c}) AS ${c}`).join(", ")}`;

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

/**
 * Per tool: totals, its most common failure category (of two as common, the first by name, so
 * that every read agrees) and the percentiles of its results' latencies.
 */
export async function toolTable(projectId: string, range: Range, scope?: Scope) {
  const r = rows(projectId, range, scope);
  const latency = latencies(projectId, range, "tool", scope);
  const result = await pool().query<TotalsRow & { key: string; top_category: string | null }>(
    `SELECT tool AS key, ${TOTALS},
            (array_agg(category ORDER BY invalid DESC, category) FILTER (WHERE category <> '' AND invalid > 0))[1] AS top_category
       FROM (SELECT tool, category, ${SUMS} FROM ${r.from} GROUP BY 1, 2) per_category
      GROUP BY 1 ORDER BY sum(calls) DESC, 1`,
    r.params,
  );
  const byTool = await latency;
  return result.rows.map((row) => ({ tool: row.key, topCategory: row.top_category, ...totalsOf(row), latency: byTool.get(row.key) ?? latencySummary([]) }));
}

/**
 * Per model version: totals (as `breakdown` by model gives them) and the percentiles of its
 * results' latencies; and per model of several versions, the percentiles over all of them. Read
 * with `latencies` scoped to each (one read each; a project has few models).
 */
export async function modelTable(projectId: string, range: Range) {
  const rows = await breakdown(projectId, range, "model");
  const latencyOf = (scope: Scope) => latencies(projectId, range, "none", scope).then((m) => m.get("") ?? latencySummary([]));
  const several = [...new Set(rows.map((r) => r.key))].filter((model) => rows.filter((r) => r.key === model).length > 1);
  const [versions, models] = await Promise.all([
    Promise.all(rows.map(async (r) => ({ ...r, latency: await latencyOf({ model: r.key, modelVersion: r.version }) }))),
    Promise.all(several.map(async (model) => ({ model, latency: await latencyOf({ model }) }))),
  ]);
  return { versions, models };
}

/** Two model versions side by side, per `dimension` (tool or category); `total` counts checked calls only (the invalid rate's denominator). */
export async function versionCounts(projectId: string, range: Range, model: string, version: string, dimension: "tool" | "category") {
  const r = rows(projectId, range, { model, modelVersion: version });
  const result = await pool().query<{ key: string; invalid: number; total: number }>(
    dimension === "tool"
      ? `SELECT tool AS key, sum(invalid)::float8 AS invalid, sum(calls - unchecked)::float8 AS total FROM ${r.from} GROUP BY 1`
      : // per category: calls of that category against all checked calls of the version
        `SELECT category AS key, sum(invalid)::float8 AS invalid, sum(sum(calls - unchecked)) OVER ()::float8 AS total
           FROM ${r.from} GROUP BY 1 ORDER BY 1`,
    r.params,
  );
  return dimension === "category" ? result.rows.filter((row) => row.key !== "") : result.rows;
}

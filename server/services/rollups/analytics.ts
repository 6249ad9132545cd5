// The analytics read port (server/services/analytics/port.ts) over PostgreSQL's rollups: every
// read of the rollup tables by the dashboards, tools pages and alerts is one of these statements.
import type { SeriesDimension } from "../../../contracts/metrics";
import { pool } from "../../db/client";
import { modelVersionKey, type AnalyticsReads, type CallScope, type Range, type Totals, type VersionCounts } from "../analytics/port";
import { runRollupRows } from "./rebuild";
import { rollupRows } from "./read";
import { CALL_ROLLUPS, dayOf, ERROR_MESSAGE_ROLLUPS, FAILED_COUNT_COLUMNS, OUTCOME_COUNT_COLUMNS, tablesFor } from "./tables";

/**
 * The project's call rollups over the range and scope, as a FROM item, with its parameters: from
 * the coarse tables when neither the scope nor the statement (`uses`: the key columns it reads) needs a model.
 */
function rows(projectId: string, range: Range, scope: CallScope, uses: string[], hourly = false) {
  const params: unknown[] = [];
  const filters = { tool: scope.tool, model_name: scope.model, model_version: scope.modelVersion, category: scope.category };
  const filtered = Object.entries(filters).flatMap(([column, value]) => (value === undefined || value === null ? [] : [column]));
  const from = scope.runIdPrefix
    ? runRollupRows("calls", projectId, range, filters, params, scope.runIdPrefix)
    : rollupRows(tablesFor(CALL_ROLLUPS, [...filtered, ...uses]), projectId, range, filters, params, hourly);
  return { from, params };
}

const TOTALS = `sum(calls)::float8 AS calls, sum(invalid)::float8 AS invalid, sum(unchecked)::float8 AS unchecked, sum(corrected)::float8 AS corrected,
  sum(cost_usd)::float8 AS cost_usd, sum(input_tokens)::float8 AS input_tokens, sum(output_tokens)::float8 AS output_tokens,
  ${OUTCOME_COUNT_COLUMNS.map((c) => `sum(${c})::float8 AS ${c}`).join(", ")}`;

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

/** The key columns a series, breakdown or histogram per dimension reads. */
const KEY_COLUMNS: Record<SeriesDimension, string[]> = { none: [], tool: ["tool"], modelVersion: ["model_name", "model_version"], category: ["category"] };

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

export const rollupAnalytics: AnalyticsReads = {
  async totals(projectId, range, scope = {}) {
    const r = rows(projectId, range, scope, []);
    const result = await pool().query<TotalsRow>(`SELECT ${TOTALS} FROM ${r.from}`, r.params);
    return totalsOf(result.rows[0]);
  },

  async windowTotals(projectId, range, scope, { perHour, category }) {
    const r = rows(projectId, range, scope, ["category"], perHour);
    const result = await pool().query<TotalsRow & { bucket: Date | null; category_calls: number | null }>(
      `SELECT ${perHour ? "hour" : "NULL::timestamptz"} AS bucket, ${TOTALS},
              (sum(calls) FILTER (WHERE category = $${r.params.push(category)}))::float8 AS category_calls
         FROM ${r.from}${perHour ? " GROUP BY 1" : ""}`,
      r.params,
    );
    return result.rows.map((row) => ({ bucket: row.bucket, ...totalsOf(row), categoryCalls: row.category_calls ?? 0 }));
  },

  async series(projectId, range, bucket, dimension, scope = {}) {
    const r = rows(projectId, range, scope, KEY_COLUMNS[dimension], bucket === "hour");
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
  },

  async breakdown(projectId, range, dimension, scope = {}) {
    const r = rows(projectId, range, scope, KEY_COLUMNS[dimension === "model" ? "modelVersion" : dimension]);
    const select = dimension === "model" ? "model_name AS key, model_version AS version" : `${KEY[dimension]} AS key, '' AS version`;
    const result = await pool().query<TotalsRow & { key: string; version: string }>(
      `SELECT ${select}, ${TOTALS} FROM ${r.from}
        ${dimension === "category" ? "WHERE category <> ''" : ""} GROUP BY 1, 2 ORDER BY sum(calls) DESC, 1, 2`,
      r.params,
    );
    return result.rows.map((row) => ({ key: row.key, version: row.version, ...totalsOf(row) }));
  },

  async toolTotals(projectId, range, scope = {}) {
    const r = rows(projectId, range, scope, ["tool", "category"]);
    const result = await pool().query<TotalsRow & { key: string; top_category: string | null }>(
      `SELECT tool AS key, ${TOTALS},
              (array_agg(category ORDER BY invalid DESC, category) FILTER (WHERE category <> '' AND invalid > 0))[1] AS top_category
         FROM (SELECT tool, category, ${SUMS} FROM ${r.from} GROUP BY 1, 2) per_category
        GROUP BY 1 ORDER BY sum(calls) DESC, 1`,
      r.params,
    );
    return result.rows.map((row) => ({ tool: row.key, topCategory: row.top_category, ...totalsOf(row) }));
  },

  async checkedCounts(projectId, range, scope, dimension) {
    const r = rows(projectId, range, scope, [dimension]);
    const result = await pool().query<{ key: string; invalid: number; total: number }>(
      dimension === "tool"
        ? `SELECT tool AS key, sum(invalid)::float8 AS invalid, sum(calls - unchecked)::float8 AS total FROM ${r.from} GROUP BY 1`
        : // per category: calls of that category against all checked calls of the scope
          `SELECT category AS key, sum(invalid)::float8 AS invalid, sum(sum(calls - unchecked)) OVER ()::float8 AS total
             FROM ${r.from} GROUP BY 1 ORDER BY 1`,
      r.params,
    );
    return result.rows;
  },

  async latencyHistograms(projectId, range, dimension, scope = {}) {
    const r = rows(projectId, range, scope, KEY_COLUMNS[dimension]);
    const [key, version] = ({ tool: ["tool", "''"], modelVersion: ["model_name", "model_version"], none: ["''", "''"] } as const)[dimension];
    // Each row's histogram as stored, added up here: unnesting and grouping every element in SQL
    // cost PostgreSQL ~20 µs a row (30 days of 2 million calls: 149 ms a read, docs/PERFORMANCE.md).
    // A histogram starts at its first non-empty bucket, whose 1-based index is the array's lower bound.
    const result = await pool().query<{ key: string; version: string; first: number; counts: string }>(
      `SELECT ${key} AS key, ${version} AS version, array_lower(r.latency_hist, 1) - 1 AS first, array_to_string(r.latency_hist, ',') AS counts
         FROM ${r.from} WHERE r.results > 0 AND cardinality(r.latency_hist) > 0`,
      r.params,
    );
    const histograms = new Map<string, number[]>();
    for (const row of result.rows) {
      const rowKey = dimension === "modelVersion" ? modelVersionKey(row.key, row.version) : row.key;
      const histogram = histograms.get(rowKey) ?? histograms.set(rowKey, []).get(rowKey)!;
      row.counts.split(",").forEach((n, i) => {
        const bucket = row.first + i;
        while (histogram.length <= bucket) histogram.push(0);
        histogram[bucket]! += Number(n);
      });
    }
    for (const histogram of histograms.values()) while (histogram.at(-1) === 0) histogram.pop(); // results taken out may leave zeros
    return histograms;
  },

  async errorMessages(projectId, range, { tool, runIdPrefix }, limit) {
    const params: unknown[] = [];
    const from = runIdPrefix
      ? runRollupRows("messages", projectId, range, { tool }, params, runIdPrefix)
      : rollupRows(ERROR_MESSAGE_ROLLUPS, projectId, range, { tool }, params);
    const { rows } = await pool().query<{ message: string; count: number; followed: number; recovered: number }>(
      `SELECT CASE WHEN message = '' THEN '(no message)' ELSE message END AS message,
              sum(sent)::int AS count, sum(followed)::int AS followed, sum(recovered)::int AS recovered
         FROM ${from} GROUP BY message ORDER BY 2 DESC, 1 LIMIT ${Number(limit)}`,
      params,
    );
    return rows;
  },

  async modelVersionPairs(projectId, until) {
    const sums = (side: "new" | "old") => {
      const where = side === "new" ? "r.model_version = p.new_version AND r.hour >= p.first" : "r.model_version = p.old_version AND r.hour < p.first";
      const sum = (expression: string, as: string) => `coalesce(sum(${expression}) FILTER (WHERE ${where}), 0)::float8 AS ${side}_${as}`;
      return [
        sum("r.calls - r.unchecked", "calls"),
        sum("r.invalid", "invalid"),
        sum("r.results", "results"),
        sum(FAILED_COUNT_COLUMNS.map((c) => `r.${c}`).join(" + "), "failed"),
      ];
    };
    const { rows } = await pool().query<{ model_name: string; new_version: string; old_version: string } & VersionCounts>(
      `WITH v AS (
         SELECT model_name, model_version, min(hour) AS first FROM ${CALL_ROLLUPS.hourly}
          WHERE project_id = $1 AND model_version <> '' AND hour <= $2 GROUP BY 1, 2
       ), ranked AS (
         SELECT *, row_number() OVER (PARTITION BY model_name ORDER BY first DESC, model_version DESC) AS rank FROM v
       ), pairs AS (
         SELECT n.model_name, n.model_version AS new_version, o.model_version AS old_version, n.first
           FROM ranked n JOIN ranked o ON o.model_name = n.model_name AND o.rank = 2 WHERE n.rank = 1
       )
       SELECT p.model_name, p.new_version, p.old_version, ${[...sums("new"), ...sums("old")].join(", ")}
         FROM pairs p JOIN ${CALL_ROLLUPS.hourly} r ON r.project_id = $1 AND r.model_name = p.model_name AND r.hour <= $2
        GROUP BY 1, 2, 3, p.first`,
      [projectId, until],
    );
    return rows.map(({ model_name, new_version, old_version, ...counts }) => ({ model: model_name, newVersion: new_version, oldVersion: old_version, counts }));
  },

  async messageFollowUpsPerDay(projectId, range, tools) {
    const params: unknown[] = [];
    const from = rollupRows(ERROR_MESSAGE_ROLLUPS, projectId, range, {}, params);
    const { rows } = await pool().query<{ tool: string; day: Date; followed: number; recovered: number }>(
      `SELECT tool, ${DAY_BUCKET} AS day, sum(followed)::int AS followed, sum(recovered)::int AS recovered
         FROM ${from} WHERE tool = ANY($${params.push(tools)}::text[]) GROUP BY 1, 2`,
      params,
    );
    return rows;
  },
};

// The analytics read port: the questions the dashboards, tools pages and alerts ask of the
// aggregated calls, as typed functions. Today one store answers them, PostgreSQL's rollups
// (server/services/rollups/analytics.ts); another store (ClickHouse, say) would implement the
// same interface and be chosen in ./index.ts. Consumers never see a table or a SQL fragment.
import type { SeriesDimension } from "../../../contracts/metrics";
import type { ResultCounts } from "../../../isomorphic/outcome";

/** [from, to): read in whole UTC hours and days (server/domain/rollup-range.ts). */
export type Range = { from: Date; to: Date };
/**
 * Which calls: equality filters, left out when undefined. `runIdPrefix`: only the calls of runs
 * whose id starts with it (aggregates know no runs: answered from the raw calls).
 */
export type CallScope = { tool?: string; model?: string; modelVersion?: string; category?: string; runIdPrefix?: string };
export type Bucket = "hour" | "day";

/** A model version's key in latencyHistograms' answer per model version: its name and version ('' for none). */
export const modelVersionKey = (model: string, version: string) => JSON.stringify([model, version]);

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

/** Sent, followed (a next call came) and recovered (it was valid), of one error message or one (tool, day). */
/** A version pair's counts, each side's: its (checked) calls, the invalid ones, its results, the failed ones. */
export type VersionCounts = Record<`${"new" | "old"}_${"calls" | "invalid" | "results" | "failed"}`, number>;

type MessageFollowUps = { followed: number; recovered: number };

export interface AnalyticsReads {
  /** The totals of the range. */
  totals(projectId: string, range: Range, scope?: CallScope): Promise<Totals>;
  /** The totals of the range (`bucket` null), or per UTC hour, with the calls of `category` counted apart (alert windows). */
  windowTotals(
    projectId: string,
    range: Range,
    scope: CallScope,
    options: { perHour: boolean; category: string },
  ): Promise<(Totals & { bucket: Date | null; categoryCalls: number })[]>;
  /** Per time bucket and series key, in bucket and key order. */
  series(projectId: string, range: Range, bucket: Bucket, dimension: SeriesDimension, scope?: CallScope): Promise<(Totals & { bucket: string; key: string })[]>;
  /** Totals per key over the range (per model: name as key and its `version`), most calls first. */
  breakdown(
    projectId: string,
    range: Range,
    dimension: Exclude<SeriesDimension, "none"> | "model",
    scope?: CallScope,
  ): Promise<(Totals & { key: string; version: string })[]>;
  /** Per tool, most calls first: totals and its most common failure category (of two as common, the first by name). */
  toolTotals(projectId: string, range: Range, scope?: CallScope): Promise<(Totals & { tool: string; topCategory: string | null })[]>;
  /** Per tool or category: invalid calls and checked calls (per category: all checked calls of the scope). */
  checkedCounts(projectId: string, range: Range, scope: CallScope, dimension: "tool" | "category"): Promise<{ key: string; invalid: number; total: number }[]>;
  /**
   * The summed latency histograms (isomorphic/latency-histogram.ts) of the results, per tool, per
   * model version (key: modelVersionKey(name, version), the version '' for none) or in all (key '').
   */
  latencyHistograms(projectId: string, range: Range, dimension: "tool" | "modelVersion" | "none", scope?: CallScope): Promise<Map<string, number[]>>;
  /** The messages returned to models (an empty one as "(no message)"), most sent first, at most `limit`. */
  errorMessages(
    projectId: string,
    range: Range,
    scope: Pick<CallScope, "tool" | "runIdPrefix">,
    limit: number,
  ): Promise<(MessageFollowUps & { message: string; count: number })[]>;
  /**
   * Per model: its newest version (by first hour seen, up to `until`) against the one before,
   * counted over every hour up to `until`: the new version's from its first hour, the old one's
   * before it (the regression guard).
   */
  modelVersionPairs(projectId: string, until: Date): Promise<{ model: string; newVersion: string; oldVersion: string; counts: VersionCounts }[]>;
  /** The follow-ups of the invalid calls of these tools, per tool and UTC day. */
  messageFollowUpsPerDay(projectId: string, range: Range, tools: string[]): Promise<(MessageFollowUps & { tool: string; day: Date })[]>;
}

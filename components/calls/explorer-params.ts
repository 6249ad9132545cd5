import { CATEGORIES, CATEGORY_LABELS, type Category } from "../../contracts/categories";
import type { CallsFilter } from "../../contracts/metrics";
import { callsFilterInput, isRangePreset } from "../../contracts/metrics";
import { OUTCOME_FILTERS, type OutcomeFilter } from "../../contracts/event";
import { resolveRange } from "../../contracts/range";
import { OUTCOME_LABELS } from "../../isomorphic/outcome";

/**
 * The calls explorer's URL, both ways: which parameters it reads, how they become a calls filter,
 * the clean form of a query (a GET form also sends empty fields), and the one builder of links
 * into it (`explorerUrl`). Pure.
 */

export type RawParams = Record<string, string | string[] | undefined>;

/** Every parameter the explorer reads, in the order its clean URL writes them. */
export const EXPLORER_PARAMS = [
  "range",
  "from",
  "to",
  "tool",
  "model",
  "modelVersion",
  "runId",
  "q",
  "valid",
  "category",
  "outcome",
  "disagree",
  "order",
  "cursor",
] as const;
export type ExplorerParam = (typeof EXPLORER_PARAMS)[number];
/**
 * A query of the explorer, by the parameters it reads (an unknown or misspelt one does not
 * typecheck). The values are as the URL writes them (`disagree: "1"`, `order: "oldest"`); an
 * undefined or empty value is left out.
 */
export type ExplorerQuery = { [K in ExplorerParam]?: string | undefined };

/** A link into a project's calls explorer: its path and, in the order given, the query's parameters. */
export const explorerUrl = (slug: string, query: ExplorerQuery = {}): string => `/p/${slug}/calls${queryString(query)}`;

const DEFAULT_RANGE = "7d";

const TEXT_KEYS = ["tool", "model", "modelVersion", "runId", "q"] as const satisfies readonly ExplorerParam[];

export type ExplorerView = {
  /** the query as the explorer's links should write it (no empty values, no from/to beside a preset) */
  params: ExplorerQuery;
  filter: CallsFilter;
  range: { key: string; label: string; from?: string; to?: string };
  cursor?: string;
  /** the list's order (the time column's sort): newest first unless order=oldest */
  order: "newest" | "oldest";
  /** parameters that were ignored, said as instructions */
  problems: string[];
};

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || undefined;

export function readExplorerParams(raw: RawParams, now = new Date()): ExplorerView {
  const params: ExplorerQuery = {};
  const problems: string[] = [];
  const filter: CallsFilter = {};

  // time range: a preset (or "all") wins over from/to; from/to alone is a custom range
  const rangeParam = first(raw.range);
  const from = first(raw.from);
  const to = first(raw.to);
  let range: ExplorerView["range"];
  if (rangeParam === "all") {
    params.range = "all";
    range = { key: "all", label: "All time" };
  } else if (isRangePreset(rangeParam)) {
    params.range = rangeParam;
    const r = resolveRange({ range: rangeParam }, now);
    range = { key: rangeParam, label: r.label, from: r.from, to: r.to };
  } else {
    if (rangeParam && rangeParam !== "custom") {
      params.range = rangeParam; // kept, so that the message below stays on screen
      problems.push(`Ignored range=${rangeParam}: choose 24h, 7d, 30d, 90d or all.`);
    }
    const custom = from && to ? resolveRange({ from, to }, now) : null;
    if (custom?.preset === "custom") {
      params.from = from!;
      params.to = to!;
      range = { key: "custom", label: custom.label, from: custom.from, to: custom.to };
    } else {
      if (from || to)
        problems.push("Ignored from/to: give both as ISO 8601 dates with from before to, e.g. from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z.");
      const r = resolveRange({ range: DEFAULT_RANGE }, now);
      range = { key: DEFAULT_RANGE, label: r.label, from: r.from, to: r.to };
    }
  }
  if (range.from) filter.from = range.from;
  if (range.to) filter.to = range.to;

  for (const key of TEXT_KEYS) {
    const value = first(raw[key]);
    if (!value) continue;
    params[key] = value;
    // the API's own rule for the filter (contracts/metrics.ts), so the page says what the API would
    const checked = callsFilterInput.shape[key].safeParse(value);
    if (checked.success) filter[key] = value;
    else problems.push(`Ignored ${key}: ${checked.error.issues[0]?.message ?? "not a valid filter"}.`);
  }

  const valid = first(raw.valid);
  if (valid) {
    params.valid = valid;
    if (valid === "valid" || valid === "invalid" || valid === "unchecked") filter.valid = valid;
    else problems.push(`Ignored valid=${valid}: use valid=valid, valid=invalid or valid=unchecked.`);
  }
  const category = first(raw.category);
  if (category) {
    params.category = category;
    if ((CATEGORIES as readonly string[]).includes(category)) filter.category = category as Category;
    else problems.push(`Ignored category=${category}: not a failure category. Use one of ${CATEGORIES.join(", ")}.`);
  }
  const outcome = first(raw.outcome);
  if (outcome) {
    params.outcome = outcome;
    if ((OUTCOME_FILTERS as readonly string[]).includes(outcome)) filter.outcome = outcome as OutcomeFilter;
    else problems.push(`Ignored outcome=${outcome}: not an execution outcome. Use one of ${OUTCOME_FILTERS.join(", ")}.`);
  }
  const disagree = first(raw.disagree);
  if (disagree === "1" || disagree === "on" || disagree === "true") {
    params.disagree = "1";
    filter.disagree = true;
  }
  const orderParam = first(raw.order);
  let order: ExplorerView["order"] = "newest";
  if (orderParam === "oldest") order = params.order = "oldest";
  else if (orderParam && orderParam !== "newest") problems.push(`Ignored order=${orderParam}: use order=oldest, or leave it out for the newest first.`);
  const cursor = first(raw.cursor);
  if (cursor) params.cursor = cursor;

  return { params, filter, range, order, ...(cursor ? { cursor } : {}), problems };
}

/** The query string of a params record (stable order: as inserted). */
export function queryString(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1])).toString();
  return q ? `?${q}` : "";
}

/** Whether the URL carries anything the clean params drop or change (then the page redirects to the clean URL). */
export function needsCleaning(raw: RawParams, clean: ExplorerQuery): boolean {
  const rawEntries = Object.entries(raw).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x] as const) : v === undefined ? [] : [[k, v] as const]));
  const known = rawEntries.filter((e): e is readonly [ExplorerParam, string] => KNOWN.has(e[0]));
  if (known.length !== Object.keys(clean).length) return true;
  return known.some(([k, v]) => clean[k] !== v);
}
const KNOWN: ReadonlySet<string> = new Set(EXPLORER_PARAMS);

/** The CSV export's query: the same filter, with the range as explicit from/to. */
export function csvQuery(filter: CallsFilter): string {
  const { disagree, ...rest } = filter;
  return queryString({ ...rest, ...(disagree ? { disagree: "1" } : {}) });
}

/** Active filters as removable chips: label and the params without it. */
export function activeFilters(params: ExplorerQuery): { key: string; label: string; without: ExplorerQuery }[] {
  const labels: Partial<Record<ExplorerParam, (v: string) => string>> = {
    tool: (v) => `tool: ${v}`,
    model: (v) => `model: ${v}`,
    modelVersion: (v) => `version: ${v}`,
    valid: (v) => (v === "invalid" ? "invalid only" : v === "valid" ? "valid only" : v === "unchecked" ? "unchecked only" : `valid: ${v}`),
    category: (v) => `category: ${CATEGORY_LABELS[v as Category] ?? v}`,
    outcome: (v) => `outcome: ${OUTCOME_LABELS[v as OutcomeFilter] ?? v}`,
    runId: (v) => `run: ${v}`,
    q: (v) => `message contains “${v}”`,
    disagree: () => "verdicts differ",
  };
  return (Object.keys(labels) as ExplorerParam[])
    .filter((key) => params[key])
    .map((key) => {
      const { [key]: _removed, cursor: _cursor, ...without } = params;
      return { key, label: labels[key]!(params[key]!), without };
    });
}

/**
 * The explorer view a call page was opened from, carried as `?list=<the explorer's query>` so
 * the call page can link back to the same filtered list: read through the explorer's own
 * parameters (anything else is dropped; {} for the unfiltered list).
 */
export function listQuery(list: string | undefined): ExplorerQuery {
  if (!list) return {};
  const raw: RawParams = {};
  for (const [key, value] of new URLSearchParams(list)) raw[key] ??= value;
  return readExplorerParams(raw).params;
}

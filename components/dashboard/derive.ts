// Pure derivations for the dashboards (no I/O): rates, changes, attempt inflation, series
// selection. Pages fetch rollup totals and pass them through these before rendering.
import { likelyTool } from "../../isomorphic/tool-names";
import { formatCount, formatPercent, formatPp } from "../../contracts/format-number";
import { assignColors, topN } from "../charts/prepare";
import {
  checkedCalls,
  checkedInvalidRate,
  expectedAttempts,
  expectedTaskAttempts,
  extraCallsPer1000Tasks,
  observedAttemptsFromCounts,
} from "../../isomorphic/stats";

export type Counts = { calls: number; invalid: number; unchecked: number; corrected: number; costUsd: number };

/** invalid / checked calls (unchecked ones are left out), or null when no call was checked. */
export const rateOf = (t: Pick<Counts, "calls" | "invalid" | "unchecked">) => checkedInvalidRate(t);

/** Calls there were but none of them checked: no rate to show, "unchecked" instead. */
export const allUnchecked = (t: Pick<Counts, "calls" | "invalid" | "unchecked">) => t.calls > 0 && checkedCalls(t) === 0;

/** The invalid rate as every page writes it: "4.2%", "unchecked" when no call was checked, "–" without calls. */
export const rateText = (t: Pick<Counts, "calls" | "invalid" | "unchecked">, digits = 1) =>
  allUnchecked(t) ? "unchecked" : formatPercent(rateOf(t), { digits });

/** "12 valid · 3 unchecked": how the calls split by verdict (the invalid ones are counted beside it). */
export function verdictSplit(t: Pick<Counts, "calls" | "invalid" | "unchecked">): string {
  const valid = `${formatCount(checkedCalls(t) - t.invalid)} valid`;
  return t.unchecked > 0 ? `${valid} · ${formatCount(t.unchecked)} unchecked` : valid;
}

/** Observed attempts per successful call from rollup totals (isomorphic/stats.ts). */
export const observedAttempts = (t: Pick<Counts, "calls" | "invalid" | "unchecked" | "corrected">) => observedAttemptsFromCounts(t);

/** 1/(1−p), or null when p is unknown or every call was invalid. */
export function expectedAttemptsOrNull(p: number | null): number | null {
  return p === null || p >= 1 ? null : expectedAttempts(p);
}

export type RateChange = { current: number | null; previous: number | null; diff: number | null; direction: "up" | "down" | "flat" | null };

/** Change of the invalid rate between two periods, in rate units (0.012 = 1.2 pp). */
export function rateChange(current: Pick<Counts, "calls" | "invalid" | "unchecked">, previous: Pick<Counts, "calls" | "invalid" | "unchecked">): RateChange {
  const a = rateOf(current);
  const b = rateOf(previous);
  if (a === null || b === null) return { current: a, previous: b, diff: null, direction: null };
  const diff = a - b;
  // below 0.05 pp the arrow would only show noise in the last digit
  const direction = Math.abs(diff) < 0.0005 ? "flat" : diff > 0 ? "up" : "down";
  return { current: a, previous: b, diff, direction };
}

/** A rate change as the tiles and tables show it: an arrow and percentage points, coloured (a rise is bad); null without both periods. */
export function rateChangeLabel(change: RateChange): { text: string; tone: "bad" | "good" | "neutral" } | null {
  if (change.diff === null) return null;
  const arrow = change.direction === "up" ? "▲" : change.direction === "down" ? "▼" : "■";
  return { text: `${arrow} ${formatPp(change.diff)}`, tone: change.direction === "up" ? "bad" : change.direction === "down" ? "good" : "neutral" };
}

/** Relative change of a count (0.12 = +12%), or null when there was nothing before. */
export const relativeChange = (current: number, previous: number) => (previous > 0 ? (current - previous) / previous : null);

export type InflationRow = {
  calls: number;
  p: number | null;
  /** 1/(1−p). */
  expected: number | null;
  /** (successes + corrected) / successes. */
  observed: number | null;
  /** k/(1−p). */
  taskAttempts: number | null;
  /** 1000·k·p/(1−p). */
  extraPer1000: number | null;
  /** costUsd / calls. */
  costPerCall: number | null;
  /** extraPer1000 × costPerCall. */
  extraCostPer1000: number | null;
};

/** The attempt-inflation figures of one row (a tool, a model version, everything) for k-call tasks. */
export function inflation(t: Counts, k: number): InflationRow {
  const p = rateOf(t);
  const finite = p !== null && p < 1;
  const costPerCall = t.calls > 0 ? t.costUsd / t.calls : null;
  const extraPer1000 = finite ? extraCallsPer1000Tasks(p, k) : null;
  return {
    calls: t.calls,
    p,
    expected: finite ? expectedAttempts(p) : null,
    observed: observedAttempts(t),
    taskAttempts: finite ? expectedTaskAttempts(p, k) : null,
    extraPer1000,
    costPerCall,
    extraCostPer1000: extraPer1000 !== null && costPerCall !== null ? extraPer1000 * costPerCall : null,
  };
}

/** k from the URL: an integer from 1 to 100, default 6 (a six-call task, as in docs/attempt-inflation.md). */
export function parseK(raw: string | undefined, fallback = 6): number {
  const k = Number(raw);
  return Number.isInteger(k) && k >= 1 && k <= 100 ? k : fallback;
}

export type SeriesSelection = {
  /** Keys to draw. */
  shown: string[];
  /** Every key with its volume, largest first. */
  options: { key: string; volume: number }[];
  /** The top-n keys: what is drawn when the URL names none. */
  defaults: string[];
  /** "8 of 23 tools" when not everything is drawn, else "". */
  note: string;
  /** A distinct colour per key: the defaults first, so theirs never change with the selection. */
  colors: Record<string, string>;
};

/**
 * Which series a chart draws: the keys the URL asks for (`tools=a,b`, unknown keys dropped),
 * otherwise the n largest by volume.
 */
export function selectSeries(volumes: readonly { key: string; volume: number }[], requested: string | undefined, n = 8, noun = "series"): SeriesSelection {
  const { top, rest } = topN(volumes, n, noun);
  const totals = new Map<string, number>();
  for (const { key, volume } of volumes) totals.set(key, (totals.get(key) ?? 0) + volume);
  const options = [...top, ...rest].map((key) => ({ key, volume: totals.get(key) ?? 0 }));
  const wanted = (requested ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => totals.has(s));
  const shown = wanted.length ? options.map((o) => o.key).filter((k) => wanted.includes(k)) : top;
  return {
    shown,
    options,
    defaults: top,
    note: shown.length < options.length ? `${shown.length} of ${options.length} ${noun}` : "",
    colors: assignColors(options.map((o) => o.key)),
  };
}

/** "acme-large@2026-09" ⇄ { model, version }; the version may be empty ("globex-pro@"). */
export function parseVersionRef(raw: string | undefined): { model: string; version: string } | null {
  if (!raw) return null;
  const at = raw.lastIndexOf("@");
  const model = at < 0 ? raw : raw.slice(0, at);
  const version = at < 0 ? "" : raw.slice(at + 1);
  // the API takes names of up to 200 characters
  return model && model.length <= 200 && version.length <= 200 ? { model, version } : null;
}
export const versionRef = (v: { model: string; version: string }) => `${v.model}@${v.version}`;
export const versionLabel = (v: { model: string; version: string }) => (v.version ? `${v.model} ${v.version}` : v.model);

/** The right end of an interval-bar axis: the smallest of 5%, 10%, 20%, 25%, 50%, 100% that holds `max`. */
export function intervalAxisMax(max: number): number {
  return [0.05, 0.1, 0.2, 0.25, 0.5, 1].find((m) => max <= m) ?? 1;
}

/**
 * The registered tool an unknown name most likely meant ("get_loan", "getLoan", "getloans" →
 * "getloan"; "ls<|channel|>commentary" → "ls"): the classifier's own rule (likelyTool), so the
 * dashboard suggests what the model was told; null when none is a clear guess.
 */
export function closestTool(name: string, registered: readonly string[]): string | null {
  return likelyTool(name, registered) ?? null;
}

/**
 * A tool name the model made up or misspelt: no schema of that name while the project
 * registers schemas, or the harness itself called its calls "unknown_tool".
 */
export function isUnknownTool(t: { tool: string; topCategory: string | null }, registered: ReadonlySet<string>): boolean {
  return !registered.has(t.tool) && (registered.size > 0 || t.topCategory === "unknown_tool");
}

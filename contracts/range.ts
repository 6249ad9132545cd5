import { DAY_MS, isRangePreset, MAX_RANGE_DAYS, RANGE_PRESET_LABELS, RANGE_PRESETS, type RangePreset } from "./metrics";

export type ResolvedRange = { from: string; to: string; preset: RangePreset | "custom"; label: string };

/** The end of the current hour: presets end there, so that the current hour is included. */
export function endOfCurrentHour(now = new Date()): Date {
  const end = new Date(now);
  end.setUTCMinutes(0, 0, 0);
  end.setUTCHours(end.getUTCHours() + 1);
  return end;
}

/**
 * A page's time range from its URL parameters, the one reading every page uses: a preset
 * (`?range=7d`) wins; otherwise `?from=…&to=…` when both are dates with from before to (a range
 * longer than MAX_RANGE_DAYS keeps its last MAX_RANGE_DAYS); otherwise the last 7 days.
 */
export function resolveRange(params: { range?: string; from?: string; to?: string }, now = new Date()): ResolvedRange {
  const from = params.from ? Date.parse(params.from) : NaN;
  const to = params.to ? Date.parse(params.to) : NaN;
  if (!isRangePreset(params.range) && from < to) {
    const start = new Date(Math.max(from, to - MAX_RANGE_DAYS * DAY_MS)).toISOString();
    const end = new Date(to).toISOString();
    return { from: start, to: end, preset: "custom", label: `${start.slice(0, 16).replace("T", " ")} – ${end.slice(0, 16).replace("T", " ")} UTC` };
  }
  const preset = isRangePreset(params.range) ? params.range : "7d";
  const end = endOfCurrentHour(now);
  const start = new Date(end.getTime() - RANGE_PRESETS[preset] * DAY_MS);
  return { from: start.toISOString(), to: end.toISOString(), preset, label: RANGE_PRESET_LABELS[preset] };
}

/** An API's optional `{from, to}`, or the last `days` days up to `now` (not hour-aligned: automation asks "until now"). */
export function rangeOrLastDays(range: { from: string; to: string } | undefined, days: number, now = new Date()): { from: Date; to: Date } {
  if (range) return { from: new Date(range.from), to: new Date(range.to) };
  return { from: new Date(now.getTime() - days * DAY_MS), to: now };
}

/** The period of the same length just before a range: what "vs previous period" compares with. */
export function previousPeriod<T extends string | Date>(range: { from: T; to: T }): { from: T; to: T } {
  const from = new Date(range.from).getTime();
  const length = new Date(range.to).getTime() - from;
  const at = (ms: number) => (typeof range.from === "string" ? new Date(ms).toISOString() : new Date(ms)) as T;
  return { from: at(from - length), to: range.from };
}

/** The same page with some URL parameters changed (undefined removes one). */
export function withParams(path: string, current: Record<string, string | undefined>, changes: Record<string, string | undefined>) {
  const merged = { ...current, ...changes };
  const query = new URLSearchParams(Object.entries(merged).filter((e): e is [string, string] => !!e[1])).toString();
  return query ? `${path}?${query}` : path;
}

/**
 * The preset a range is, when it is one as `resolveRange` makes it now (its end the end of the
 * current hour, its length a preset's); null for any other range (custom ones, the API's "until now").
 */
export function presetOf(range: { from: Date; to: Date }, now = new Date()): RangePreset | null {
  if (range.to.getTime() !== endOfCurrentHour(now).getTime()) return null;
  const days = (range.to.getTime() - range.from.getTime()) / DAY_MS;
  return (Object.keys(RANGE_PRESETS) as RangePreset[]).find((p) => RANGE_PRESETS[p] === days) ?? null;
}

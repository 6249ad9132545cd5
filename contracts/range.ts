import { RANGE_PRESETS, type RangePreset } from "./metrics";

export type ResolvedRange = { from: string; to: string; preset: RangePreset | "custom"; label: string };

/**
 * The dashboards' time range from URL parameters: `?range=7d` (default) or `?from=…&to=…`.
 * `to` of a preset is rounded up to the next hour, so that the current hour is included.
 */
export function resolveRange(params: { range?: string; from?: string; to?: string }, now = new Date()): ResolvedRange {
  if (
    params.from &&
    params.to &&
    !Number.isNaN(Date.parse(params.from)) &&
    !Number.isNaN(Date.parse(params.to)) &&
    Date.parse(params.from) < Date.parse(params.to)
  ) {
    const from = new Date(params.from).toISOString();
    const to = new Date(params.to).toISOString();
    return { from, to, preset: "custom", label: `${from.slice(0, 16).replace("T", " ")} – ${to.slice(0, 16).replace("T", " ")} UTC` };
  }
  const preset = (params.range && params.range in RANGE_PRESETS ? params.range : "7d") as RangePreset;
  const end = new Date(now);
  end.setUTCMinutes(0, 0, 0);
  end.setUTCHours(end.getUTCHours() + 1);
  const start = new Date(end.getTime() - RANGE_PRESETS[preset] * 86_400_000);
  const labels: Record<RangePreset, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };
  return { from: start.toISOString(), to: end.toISOString(), preset, label: labels[preset] };
}

/** The same page with some URL parameters changed (undefined removes one). */
export function withParams(path: string, current: Record<string, string | undefined>, changes: Record<string, string | undefined>) {
  const merged = { ...current, ...changes };
  const query = new URLSearchParams(Object.entries(merged).filter((e): e is [string, string] => !!e[1])).toString();
  return query ? `${path}?${query}` : path;
}

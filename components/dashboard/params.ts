import { DAY_MS, MAX_RANGE_DAYS, RANGE_PRESET_LABELS } from "../../contracts/metrics";
import { resolveRange, type ResolvedRange } from "../../contracts/range";
import { formatDateTime, zoneName } from "../../isomorphic/time-zone";

/** A page's `searchParams` as Next.js passes them (a Promise in Next 16). */
export type SearchParams = Promise<Record<string, string | string[] | undefined>>;
export type Params = Record<string, string | undefined>;

/** The first value of each parameter; empty values dropped. */
export async function readParams(searchParams: SearchParams): Promise<Params> {
  const raw = await searchParams;
  const out: Params = {};
  for (const [key, value] of Object.entries(raw)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first) out[key] = first;
  }
  return out;
}

/** The dashboards' range from the URL (contracts/range.ts); a custom range is labelled in the viewer's zone. */
export function dashboardRange(params: Params, zone = "UTC", now = new Date()): ResolvedRange {
  const range = resolveRange(params, now);
  if (range.preset !== "custom") return range;
  return { ...range, label: `${formatDateTime(range.from, zone)} – ${formatDateTime(range.to, zone)} ${zoneName(zone, Date.parse(range.to))}` };
}

/** Whether the range reaches into the current hour (then its last bucket is still filling). */
export const includesNow = (range: Pick<ResolvedRange, "to">, now = Date.now()) => Date.parse(range.to) > now;

/** Why a typed custom range (ms) cannot be used, or null when it can. */
export function customRangeProblem(from: number, to: number): string | null {
  if (Number.isNaN(from) || Number.isNaN(to)) return "Enter a start and an end, both with date and time.";
  if (from >= to) return "The start must be before the end.";
  if (to - from > MAX_RANGE_DAYS * DAY_MS) return `A range covers at most ${MAX_RANGE_DAYS} days.`;
  return null;
}

/** The range as the metrics procedures take it. */
export const apiRange = (r: ResolvedRange) => ({ from: r.from, to: r.to });

/** "the previous 7 days" for the delta lines of the tiles. */
export function previousLabel(r: ResolvedRange): string {
  return r.preset === "custom" ? "previous period" : RANGE_PRESET_LABELS[r.preset].replace(/^Last/, "previous");
}

/** Only the range parameters: links to another dashboard keep the time range and nothing else. */
export const rangeParams = (params: Params): Pick<Params, "range" | "from" | "to"> => ({ range: params.range, from: params.from, to: params.to });

import { RANGE_PRESET_LABELS } from "../../contracts/metrics";
import { resolveRange, type ResolvedRange } from "../../contracts/range";

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

/** The dashboards' range from the URL (contracts/range.ts). */
export const dashboardRange = (params: Params, now = new Date()): ResolvedRange => resolveRange(params, now);

/** The range as the metrics procedures take it. */
export const apiRange = (r: ResolvedRange) => ({ from: r.from, to: r.to });

/** "the previous 7 days" for the delta lines of the tiles. */
export function previousLabel(r: ResolvedRange): string {
  return r.preset === "custom" ? "previous period" : RANGE_PRESET_LABELS[r.preset].replace(/^Last/, "previous");
}

/** Only the range parameters: links to another dashboard keep the time range and nothing else. */
export const rangeParams = (params: Params): Params => ({ range: params.range, from: params.from, to: params.to });

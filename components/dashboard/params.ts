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

const MAX_DAYS = 400;

/** The dashboards' range from the URL; a custom range longer than the API allows keeps its last 400 days. */
export function dashboardRange(params: Params, now = new Date()): ResolvedRange {
  const range = resolveRange(params, now);
  const from = Date.parse(range.from);
  const to = Date.parse(range.to);
  if (to - from > MAX_DAYS * 86_400_000) return { ...range, from: new Date(to - MAX_DAYS * 86_400_000).toISOString() };
  return range;
}

/** The range as the metrics procedures take it. */
export const apiRange = (r: ResolvedRange) => ({ from: r.from, to: r.to });

/** "the previous 7 days" for the delta lines of the tiles. */
export function previousLabel(r: ResolvedRange): string {
  const labels: Record<string, string> = { "24h": "previous 24 hours", "7d": "previous 7 days", "30d": "previous 30 days", "90d": "previous 90 days" };
  return labels[r.preset] ?? "previous period";
}

/** Only the range parameters: links to another dashboard keep the time range and nothing else. */
export const rangeParams = (params: Params): Params => ({ range: params.range, from: params.from, to: params.to });

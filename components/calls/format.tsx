import { CATEGORY_LABELS, type Category } from "../../contracts/categories";
import { formatDuration } from "../../contracts/format-number";
import { formatDateTime } from "../../isomorphic/time-zone";
import { verdictOf } from "../../isomorphic/stats";
import { Badge } from "../ui";
import { queryString, type ExplorerQuery } from "./explorer-params";

/** Shared bits of the calls pages: links, time and model labels, the verdict badge. */

/** A call's page; `list`, the explorer query it was opened from, lets that page link back to the same list. */
export function callHref(slug: string, id: string, list?: ExplorerQuery): string {
  const query = list ? queryString(list).slice(1) : "";
  return `/p/${slug}/calls/${encodeURIComponent(id)}${query ? `?${new URLSearchParams({ list: query })}` : ""}`;
}
/** The call as stored, as a JSON download (app/api/projects/[slug]/calls/[id]/raw). */
export const rawCallHref = (slug: string, id: string) => `/api/projects/${slug}/calls/${encodeURIComponent(id)}/raw`;
export const runHref = (slug: string, runId: string) => `/p/${slug}/runs/${encodeURIComponent(runId)}`;

const asDate = (d: Date | string) => (typeof d === "string" ? new Date(d) : d);

/** "2026-11-30 14:03:12" in the zone (UTC unless given). */
export function formatTime(d: Date | string, zone = "UTC"): string {
  return formatDateTime(asDate(d), zone, "second");
}

/** "14:03:12" in the zone (UTC unless given). */
export function formatClock(d: Date | string, zone = "UTC"): string {
  return formatTime(d, zone).slice(11);
}

/** "+1 min 5 s" from the start of a run. */
export const formatOffset = (ms: number) => `+${formatDuration(Math.max(0, ms))}`;

export function modelLabel(c: { modelName: string; modelVersion: string | null }): string {
  return c.modelVersion ? `${c.modelName}@${c.modelVersion}` : c.modelName;
}

export function categoryLabel(category: string | null | undefined): string | null {
  if (!category) return null;
  return CATEGORY_LABELS[category as Category] ?? category;
}

/** valid / invalid (+ category) / unchecked. */
export function VerdictBadge({ valid, category }: { valid: boolean | null; category?: string | null }) {
  const verdict = verdictOf(valid);
  if (verdict === "unchecked") return <Badge tone="slate">unchecked</Badge>;
  if (verdict === "valid") return <Badge tone="green">valid</Badge>;
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <Badge tone="red">invalid</Badge>
      {category && <span className="text-xs text-slate-600">{categoryLabel(category)}</span>}
    </span>
  );
}

export const linkClass =
  "font-medium text-indigo-700 hover:text-indigo-900 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 rounded-sm";

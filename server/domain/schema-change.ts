import { DAY_MS, HOUR_MS } from "../../contracts/metrics";
// The windows around a tool's schema change in which its effect is measured: the same length
// before and after the moment the version was first seen (at most 14 days each, never reaching
// back before the previous version or on past the next one). With a selected range, the newest
// change inside it, both windows inside it too; without a change inside, the newest change,
// marked as outside the range so that the page says which windows it used. Pure.

const IMPACT_WINDOW_MS = 14 * DAY_MS;

export type Span = { from: Date; to: Date };
export type ImpactWindows<T> = { marker: Date; before: Span; after: Span; newer: T; older: T; inRange: boolean };

const wholeHours = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

/** null when the tool has fewer than two versions or the change measured is not a whole hour old. */
export function impactWindows<T extends { firstSeenAt: Date }>(versions: readonly T[], now: Date, within?: Span): ImpactWindows<T> | null {
  const sorted = [...versions].sort((a, b) => b.firstSeenAt.getTime() - a.firstSeenAt.getTime()); // newest first
  if (sorted.length < 2) return null;
  const inside = within ? sorted.findIndex((v, i) => i < sorted.length - 1 && v.firstSeenAt >= within.from && v.firstSeenAt < within.to) : 0;
  const index = inside === -1 ? 0 : inside;
  const inRange = inside !== -1;
  const newer = sorted[index]!;
  const older = sorted[index + 1]!;
  const next = sorted[index - 1];
  // Whole hours: the rollups the windows are read from are hourly.
  const marker = new Date(Math.ceil(newer.firstSeenAt.getTime() / HOUR_MS) * HOUR_MS);
  const start = Math.max(older.firstSeenAt.getTime(), inRange && within ? within.from.getTime() : -Infinity);
  const end = Math.min(now.getTime(), next ? next.firstSeenAt.getTime() : Infinity, inRange && within ? within.to.getTime() : Infinity);
  const length = Math.min(IMPACT_WINDOW_MS, wholeHours(marker.getTime() - start), wholeHours(end - marker.getTime()));
  if (length < HOUR_MS) return null;
  return {
    marker,
    before: { from: new Date(marker.getTime() - length), to: marker },
    after: { from: marker, to: new Date(marker.getTime() + length) },
    newer,
    older,
    inRange,
  };
}

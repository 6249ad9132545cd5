import { DAY_MS, HOUR_MS } from "../../contracts/metrics";
// The windows around a tool's newest schema version in which its effect is measured: the same
// length before and after the moment the version was first seen (at most 14 days each, never
// reaching back before the previous version). Pure.

const IMPACT_WINDOW_MS = 14 * DAY_MS;

export type Span = { from: Date; to: Date };

/** null when the tool has fewer than two versions or the newest one is not an hour old. */
export function impactWindows(versions: readonly { firstSeenAt: Date }[], now: Date): { marker: Date; before: Span; after: Span } | null {
  const [latest, previous] = [...versions].sort((a, b) => b.firstSeenAt.getTime() - a.firstSeenAt.getTime());
  if (!latest || !previous) return null;
  // Whole hours: the rollups the windows are read from are hourly.
  const marker = new Date(Math.ceil(latest.firstSeenAt.getTime() / HOUR_MS) * HOUR_MS);
  const length = Math.min(
    IMPACT_WINDOW_MS,
    marker.getTime() - previous.firstSeenAt.getTime(),
    Math.floor((now.getTime() - marker.getTime()) / HOUR_MS) * HOUR_MS,
  );
  if (length < HOUR_MS) return null;
  return {
    marker,
    before: { from: new Date(marker.getTime() - length), to: marker },
    after: { from: marker, to: new Date(marker.getTime() + length) },
  };
}

import { formatDuration } from "../../contracts/format-number";

/**
 * How long ago a page was updated: "just now", "20 s ago" (in tens of seconds), "3 min ago" (in
 * whole minutes), so that the text does not change every second. The numbers are
 * contracts/format-number.ts's.
 */
export function agoText(seconds: number): string {
  if (seconds < 10) return "just now";
  const step = seconds < 60 ? 10 : 60;
  return `${formatDuration(Math.floor(seconds / step) * step * 1000)} ago`;
}

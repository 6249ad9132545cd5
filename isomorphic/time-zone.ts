// The time zone pages show times in: UTC (the default, as the rollups are) or the viewer's own,
// chosen once and kept in a cookie so that server-rendered pages use it too. Browser-safe.

import type { Bucket } from "./buckets";

/** The cookie: "utc", or "local:<IANA zone>" (the browser's zone when "Local time" was chosen). */
export const TIME_ZONE_COOKIE = "toolgate-tz";

export type TimeZoneSetting = { mode: "utc" | "local"; zone: string };

export const UTC: TimeZoneSetting = { mode: "utc", zone: "UTC" };

/** Whether Intl knows this IANA zone name. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The setting a cookie value stands for; anything unreadable is UTC. */
export function readTimeZoneCookie(value: string | undefined): TimeZoneSetting {
  if (!value?.startsWith("local:")) return UTC;
  const zone = decodeURIComponent(value.slice("local:".length));
  return zone && zone.length <= 64 && isTimeZone(zone) ? { mode: "local", zone } : UTC;
}

export function timeZoneCookieValue(setting: TimeZoneSetting): string {
  return setting.mode === "utc" ? "utc" : `local:${encodeURIComponent(setting.zone)}`;
}

type Parts = { year: string; month: string; day: string; hour: string; minute: string; second: string };
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(ms: number, zone: string): Parts {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  const out: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) out[p.type] = p.value;
  return out as Parts;
}

/** The zone's short name at that moment: "UTC", "CET", "GMT+5:30". */
export function zoneName(zone: string, ms = Date.now()): string {
  if (zone === "UTC") return "UTC";
  const part = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "short" }).formatToParts(new Date(ms)).find((p) => p.type === "timeZoneName");
  return part?.value ?? zone;
}

/** "2026-11-30 14:03" (or with seconds) in the zone, without the zone's name. */
export function formatDateTime(value: Date | string | number, zone: string, precision: "minute" | "second" = "minute"): string {
  const ms = new Date(value).getTime();
  if (Number.isNaN(ms)) return "–";
  const p = partsIn(ms, zone);
  const time = precision === "second" ? `${p.hour}:${p.minute}:${p.second}` : `${p.hour}:${p.minute}`;
  return `${p.year}-${p.month}-${p.day} ${time}`;
}

/** "2026-11-30 14:03 UTC" / "2026-11-30 15:03 CET" (or with seconds); "–" for no date. */
export function formatDateTimeZoned(value: Date | string | number | null | undefined, zone: string, precision: "minute" | "second" = "minute"): string {
  const ms = value === null || value === undefined ? NaN : new Date(value).getTime();
  return Number.isNaN(ms) ? "–" : `${formatDateTime(ms, zone, precision)} ${zoneName(zone, ms)}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A chart bucket's label: "Nov 30 14:00" for an hour (in the zone: 15:00 in Berlin), "Nov 30" for
 * a day. Days are UTC days in every zone (the daily rollups are), so a day is named by its UTC date.
 */
export function bucketLabel(ms: number, bucket: Bucket, zone = "UTC"): string {
  const p = partsIn(ms, bucket === "day" ? "UTC" : zone);
  const day = `${MONTHS[Number(p.month) - 1]} ${Number(p.day)}`;
  return bucket === "hour" ? `${day} ${p.hour}:${p.minute}` : day;
}

/** The value of an `<input type="datetime-local">` showing this moment in the zone: "2026-11-30T14:03". */
export function toDateTimeInput(ms: number, zone: string): string {
  return formatDateTime(ms, zone).replace(" ", "T");
}

/** The moment an `<input type="datetime-local">` value means in the zone; NaN when it is no date. */
export function fromDateTimeInput(value: string, zone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return NaN;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const wall = Date.UTC(y!, mo! - 1, d!, h!, mi!, s || 0);
  // the zone's offset at that wall time: guess with the offset at `wall`, then correct once (DST edges)
  let ms = wall - offsetAt(wall, zone);
  ms = wall - offsetAt(ms, zone);
  return ms;
}

/** The zone's offset from UTC at a moment, in ms (CET: +3,600,000). */
function offsetAt(ms: number, zone: string): number {
  const p = partsIn(ms, zone);
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

import { DAY_MS, HOUR_MS } from "../../contracts/metrics";

export type Span = { from: Date; to: Date };

/**
 * Which rollup rows add up to a range. The hourly rollups cover [from rounded down to its hour,
 * to); that is the same as the whole UTC days inside it, read from the daily rollups, plus the
 * hours before the first of those days and from the last one's end. `days: null` when no whole
 * day fits, or with `wholeDays` false (everything from the hourly table).
 */
export function splitRange(range: Span, wholeDays = true): { hours: Span[]; days: Span | null } {
  const fromHour = Math.floor(range.from.getTime() / HOUR_MS) * HOUR_MS;
  const to = range.to.getTime();
  const firstDay = Math.ceil(fromHour / DAY_MS) * DAY_MS;
  const endDay = Math.floor(to / DAY_MS) * DAY_MS;
  const span = (a: number, b: number) => ({ from: new Date(a), to: new Date(b) });
  if (!wholeDays || firstDay >= endDay) return { hours: to > fromHour ? [span(fromHour, to)] : [], days: null };
  return {
    hours: [span(fromHour, firstDay), span(endDay, to)].filter((s) => s.to > s.from),
    days: span(firstDay, endDay),
  };
}

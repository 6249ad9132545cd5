const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type Span = { from: Date; to: Date };

/**
 * Which rollup rows add up to a range. The hourly rollups cover [from rounded down to its hour,
 * to); that is the same as the whole UTC days inside it, read from the daily rollups, plus the
 * hours before the first of those days and from the last one's end. `days: null` when no whole
 * day fits, or with `wholeDays` false (everything from the hourly table).
 */
export function splitRange(range: Span, wholeDays = true): { hours: Span[]; days: Span | null } {
  const fromHour = Math.floor(range.from.getTime() / HOUR) * HOUR;
  const to = range.to.getTime();
  const firstDay = Math.ceil(fromHour / DAY) * DAY;
  const endDay = Math.floor(to / DAY) * DAY;
  const span = (a: number, b: number) => ({ from: new Date(a), to: new Date(b) });
  if (!wholeDays || firstDay >= endDay) return { hours: to > fromHour ? [span(fromHour, to)] : [], days: null };
  return {
    hours: [span(fromHour, firstDay), span(endDay, to)].filter((s) => s.to > s.from),
    days: span(firstDay, endDay),
  };
}

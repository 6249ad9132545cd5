// How every number is written for people, in the UI and in the server's and SDK's messages:
// counts, rates, decimals, money, p-values and durations. One rule per kind, one locale; dates and
// times in the viewer's zone are isomorphic/time-zone.ts. Pure and browser-safe, in the lowest
// floor so that the contracts' own messages (text limits, alert thresholds) share it.

/** The one locale of every number Toolgate writes: "12,345", "6.4". */
const NUMBER_LOCALE = "en";

/** What stands for a number that is missing (null, undefined, NaN, ±Infinity). */
export const MISSING = "–";

/** The sign of a negative number: the minus sign (U+2212), not a hyphen. */
const MINUS = "−";

type Maybe = number | null | undefined;

const isNumber = (v: Maybe): v is number => typeof v === "number" && Number.isFinite(v);

const formatters = new Map<number, Intl.NumberFormat>();

/** `x` (not negative) with grouping and exactly `digits` decimals: 1234.5 → "1,234.50". */
function fixed(x: number, digits: number): string {
  let f = formatters.get(digits);
  if (!f) {
    f = new Intl.NumberFormat(NUMBER_LOCALE, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formatters.set(digits, f);
  }
  return f.format(x);
}

/** The number `fixed` shows, back as a number: what the reader sees, for the boundary rules. */
const shown = (x: number, digits: number) => Number(x.toFixed(digits));

/** A count, rounded to a whole number: 12345 → "12,345", −3 → "−3". */
export function formatCount(n: Maybe): string {
  if (!isNumber(n)) return MISSING;
  const r = Math.round(Math.abs(n));
  return r === 0 ? "0" : `${n < 0 ? MINUS : ""}${fixed(r, 0)}`;
}

/** A number with a fixed number of decimals (attempts per success, factors): 1.0638 → "1.06". */
export function formatNumber(v: Maybe, { digits = 2 }: { digits?: number } = {}): string {
  if (!isNumber(v)) return MISSING;
  const abs = Math.abs(v);
  return `${v < 0 && shown(abs, digits) !== 0 ? MINUS : ""}${fixed(abs, digits)}`;
}

/**
 * A rate (a fraction, 0.0638) as a percentage with `digits` decimals, always that many: "6.4%",
 * "1.0%", "0.0%". A rate that is not exactly 0 or 1 never shows as "0.0%" or "100.0%": a tiny one
 * is "<0.1%", one just short of all ">99.9%", one just over all ">100.0%" (with `digits: 0`,
 * "<1%", ">99%", ">100%").
 */
export function formatPercent(rate: Maybe, { digits = 1 }: { digits?: number } = {}): string {
  if (!isNumber(rate)) return MISSING;
  const pct = Math.abs(rate) * 100;
  const sign = rate < 0 ? MINUS : "";
  const rounded = shown(pct, digits);
  const step = 10 ** -digits;
  if (rounded === 0 && pct !== 0) return `${rate < 0 ? `>${MINUS}` : "<"}${fixed(step, digits)}%`;
  if (rounded === 100 && rate > 0 && pct !== 100) return `>${fixed(pct < 100 ? 100 - step : 100, digits)}%`;
  return `${sign}${fixed(pct, digits)}%`;
}

/** A difference of two rates in percentage points, signed: "+1.2 pp", "−0.4 pp", "±0.0 pp". */
export function formatPp(diff: Maybe, { digits = 1 }: { digits?: number } = {}): string {
  if (!isNumber(diff)) return MISSING;
  const pp = Math.abs(diff) * 100;
  if (shown(pp, digits) === 0) return `±${fixed(0, digits)} pp`;
  return `${diff > 0 ? "+" : MINUS}${fixed(pp, digits)} pp`;
}

/** The relative change of a count, in whole percent and signed: "+12%", "−3%", "±0%". */
export function formatChange(change: Maybe): string {
  if (!isNumber(change)) return MISSING;
  const pct = Math.round(Math.abs(change) * 100);
  return pct === 0 ? "±0%" : `${change > 0 ? "+" : MINUS}${fixed(pct, 0)}%`;
}

/** A p-value: "0.042", and "< 0.001" below that. */
export function formatPValue(p: Maybe): string {
  if (!isNumber(p)) return MISSING;
  return p < 0.001 ? "< 0.001" : fixed(p, 3);
}

/** US dollars: "$1,234.56"; below a dollar four decimals ("$0.0123", "$0.1250"), below a hundredth of a cent two significant digits ("$0.000012"). */
export function formatUsd(v: Maybe): string {
  if (!isNumber(v)) return MISSING;
  const abs = Math.abs(v);
  if (abs === 0) return "$0.00";
  const sign = v < 0 ? MINUS : "";
  if (abs < 0.0001) return `${sign}$${abs.toPrecision(2)}`;
  return `${sign}$${fixed(abs, abs < 1 ? 4 : 2)}`;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Two units, the second left out when it is 0: "2 min 5 s", "3 h", "2 d 4 h". */
const twoUnits = (big: number, bigUnit: string, small: number, smallUnit: string) => (small ? `${big} ${bigUnit} ${small} ${smallUnit}` : `${big} ${bigUnit}`);

/**
 * A duration in milliseconds, in the units people read: "0.4 ms", "850 ms", "1.3 s", "12 s",
 * "2 min 5 s", "3 h 5 min", "2 d 4 h". Latencies, ages, windows and offsets all say it this way.
 */
export function formatDuration(ms: Maybe): string {
  if (!isNumber(ms)) return MISSING;
  const sign = ms < 0 ? MINUS : "";
  const abs = Math.abs(ms);
  if (abs === 0) return "0 ms";
  const tenths = shown(abs, 1);
  if (tenths === 0) return `${sign}<0.1 ms`;
  if (tenths < 10) return `${sign}${tenths} ms`;
  if (Math.round(abs) < SECOND) return `${sign}${Math.round(abs)} ms`;
  const seconds1 = shown(abs / SECOND, 1);
  if (seconds1 < 10) return `${sign}${fixed(seconds1, 1)} s`;
  const s = Math.round(abs / SECOND);
  if (s < 60) return `${sign}${s} s`;
  if (s * SECOND < HOUR) return sign + twoUnits(Math.floor(s / 60), "min", s % 60, "s");
  const min = Math.round(abs / MINUTE);
  if (min * MINUTE < DAY) return sign + twoUnits(Math.floor(min / 60), "h", min % 60, "min");
  const h = Math.round(abs / HOUR);
  return sign + twoUnits(Math.floor(h / 24), "d", h % 24, "h");
}

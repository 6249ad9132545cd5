// Number formatting for the dashboards: one place, so every page says a rate the same way.

/** 12,345 */
export const formatCount = (n: number) => Math.round(n).toLocaleString("en");

/** $1,234.56; small amounts keep enough digits to be useful ($0.0042). */
export function formatUsd(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "–";
  const abs = Math.abs(v);
  const sign = v < 0 ? "−" : "";
  if (abs === 0) return "$0.00";
  if (abs < 0.01) return `${sign}$${abs.toPrecision(2)}`;
  if (abs < 1) return `${sign}$${abs.toFixed(3)}`;
  return `${sign}$${abs.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A difference of two rates in percentage points, signed: "+1.2 pp", "−0.4 pp". */
export function formatPp(diff: number | null | undefined, digits = 1): string {
  if (diff === null || diff === undefined || !Number.isFinite(diff)) return "–";
  const pp = diff * 100;
  const rounded = Number(pp.toFixed(digits));
  if (rounded === 0) return `±${(0).toFixed(digits)} pp`;
  return `${rounded > 0 ? "+" : "−"}${Math.abs(pp).toFixed(digits)} pp`;
}

/** Attempts (1.064 per call, 6.38 per task). */
export const formatAttempts = (v: number | null | undefined, digits = 2) => (v === null || v === undefined || !Number.isFinite(v) ? "–" : v.toFixed(digits));

export function formatPValue(p: number | null | undefined): string {
  if (p === null || p === undefined) return "–";
  return p < 0.001 ? "< 0.001" : p.toFixed(3);
}

/** "+12%" / "−3%" relative change of a count. */
export function formatRelative(change: number | null): string {
  if (change === null || !Number.isFinite(change)) return "–";
  const pct = Math.round(change * 100);
  return pct === 0 ? "±0%" : `${pct > 0 ? "+" : "−"}${Math.abs(pct)}%`;
}

/** A rate as a percentage with one decimal: 0.0638 → "6.4%" (usable in server components, unlike the charts' `percent`). */
export const formatRate = (v: number | null | undefined, digits = 1) =>
  v === null || v === undefined || !Number.isFinite(v) ? "–" : `${(v * 100).toFixed(digits)}%`;

/** How long ago a page was updated: "just now", "20 s ago" (in tens of seconds), "3 min ago". */
export function agoText(seconds: number): string {
  if (seconds < 10) return "just now";
  if (seconds < 60) return `${Math.floor(seconds / 10) * 10} s ago`;
  return `${Math.floor(seconds / 60)} min ago`;
}

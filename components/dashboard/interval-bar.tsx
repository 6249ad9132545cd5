import { formatPercent } from "../../contracts/format-number";

/**
 * A rate with its 95% interval on a shared axis [0, max]: a bar from low to high and a tick at
 * the observed rate. Rows drawn on the same axis can be compared by eye: overlapping bars mean
 * the difference may be noise.
 */
export function IntervalBar({
  rate,
  low,
  high,
  max,
  color = "var(--color-indigo-600)",
}: {
  rate: number;
  low: number;
  high: number;
  max: number;
  color?: string;
}) {
  const at = (v: number) => `${Math.min(100, Math.max(0, (v / max) * 100))}%`;
  return (
    <div
      className="relative h-4 w-40"
      role="img"
      aria-label={`${formatPercent(rate)}, 95% interval ${formatPercent(low)} to ${formatPercent(high)}`}
      title={`${formatPercent(rate)} (95% interval ${formatPercent(low)} – ${formatPercent(high)})`}
      data-testid="interval-bar"
    >
      <div className="absolute inset-x-0 top-1/2 h-px bg-slate-200" />
      <div
        className="absolute top-1/2 h-2 -translate-y-1/2 rounded-sm opacity-30"
        style={{ left: at(low), width: `calc(${at(high)} - ${at(low)})`, minWidth: 2, background: color }}
      />
      <div className="absolute top-0.5 bottom-0.5 w-0.5 -translate-x-1/2 rounded" style={{ left: at(rate), background: color }} />
    </div>
  );
}

/** The axis under a column of interval bars. */
export function IntervalAxis({ max }: { max: number }) {
  return (
    <div className="flex w-40 justify-between text-[10px] font-normal normal-case tracking-normal text-slate-500 tabular-nums">
      <span>0%</span>
      <span>{formatPercent(max / 2, { digits: (max * 50) % 1 ? 1 : 0 })}</span>
      <span>{formatPercent(max, { digits: 0 })}</span>
    </div>
  );
}

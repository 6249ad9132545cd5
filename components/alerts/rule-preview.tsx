// The preview of a rule (alerts.preview): its metric over the last days against its threshold,
// where it would have fired, and the sentence that sums it up. Plain SVG, no script needed.

import { formatDuration } from "../../contracts/format-number";
import { formatMetricValue } from "./format";

type Point = { at: number; value: number | null; threshold: number | null; state: string };
export type PreviewData = { points: Point[]; fired: number; firingMinutes: number; days: number; stepMinutes: number };

/** "Would have fired 3 times in the last 7 days (firing 5 h in all)." */
function previewSentence(p: Pick<PreviewData, "fired" | "firingMinutes" | "days" | "points">): string {
  const days = `the last ${p.days === 1 ? "day" : `${p.days} days`}`;
  if (p.fired === 0) {
    const quiet = p.points.filter((pt) => pt.state === "not_enough_calls").length;
    const empty = p.points.filter((pt) => pt.state === "no_data").length;
    const why =
      empty === p.points.length
        ? ": no calls in scope at all"
        : quiet > p.points.length / 2
          ? ": most of the time there were fewer calls than the minimum"
          : "";
    return `Would not have fired in ${days}${why}.`;
  }
  return `Would have fired ${p.fired === 1 ? "once" : `${p.fired} times`} in ${days} (firing ${formatDuration(p.firingMinutes * 60_000)} in all).`;
}

const W = 600;
const H = 120;

export function RulePreview({ preview, metric }: { preview: PreviewData; metric: string }) {
  const { points } = preview;
  const values = points.flatMap((p) => [p.value ?? 0, p.threshold ?? 0]);
  const max = Math.max(...values, 1e-9) * 1.1;
  const x = (i: number) => (points.length > 1 ? (i / (points.length - 1)) * W : 0);
  const y = (v: number) => H - (v / max) * H;
  const line = (pick: (p: Point) => number | null) =>
    points
      .map((p, i) => [i, pick(p)] as const)
      .filter(([, v]) => v !== null)
      .map(([i, v], k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(v!).toFixed(1)}`)
      .join(" ");
  const firing = points.map((p, i) => (p.state === "firing" ? i : -1)).filter((i) => i >= 0);
  const peak = Math.max(...points.map((p) => p.value ?? 0));
  const sentence = previewSentence(preview);
  return (
    <figure data-testid="rule-preview" data-fired={preview.fired} className="space-y-2">
      <figcaption className="font-medium text-slate-900" data-testid="preview-sentence">
        {sentence}
      </figcaption>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        preserveAspectRatio="none"
        className="h-28 w-full rounded bg-slate-50"
        role="img"
        aria-label={`${sentence} Peak ${formatMetricValue(metric, peak)}.`}
      >
        {firing.map((i) => (
          <rect key={i} x={x(i) - W / points.length / 2} width={Math.max(W / points.length, 1)} y={0} height={H} className="fill-red-100" />
        ))}
        <path d={line((p) => p.threshold)} className="fill-none stroke-red-500" strokeDasharray="4 3" strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
        <path d={line((p) => p.value)} className="fill-none stroke-indigo-600" strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
      </svg>
      <p className="text-xs text-slate-600">
        The metric (solid) against its threshold (dashed) over the last {preview.days} days, evaluated every{" "}
        {preview.stepMinutes >= 60 ? `${preview.stepMinutes / 60} h` : `${preview.stepMinutes} min`} with the evaluator&apos;s own check; shaded: firing. Peak{" "}
        {formatMetricValue(metric, peak)}.
      </p>
    </figure>
  );
}

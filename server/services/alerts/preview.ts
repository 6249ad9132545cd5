import { SPIRAL_LENGTH, type AlertRuleInput } from "../../../contracts/alerts";
import { HOUR_MS } from "../../../contracts/metrics";
import { previewRule, previewTimes, type Preview, type WindowCounts } from "../../domain/alert-rules";
import { spiralsInWindow } from "../../domain/spirals";
import { bucketCounts, latencyCounts, previewSpirals, readsRaw, ruleSpec } from "./evaluator";

/** How many windows' latency reads a preview runs at once. */
const LATENCY_READS_AT_ONCE = 4;

const MINUTE_MS = 60_000;
/** How often the preview evaluates: every hour for windows of an hour or more, every 5 minutes below. */
const stepFor = (windowMinutes: number) => (windowMinutes >= 60 ? HOUR_MS : 5 * MINUTE_MS);

export type RulePreview = Preview & { from: string; to: string; stepMinutes: number; days: number };

/**
 * A rule as drafted (not saved), evaluated over the last `days` with the evaluator's logic
 * (server/domain/alert-rules.ts previewRule): the same reads in buckets (minutes of raw calls
 * under an hour, hours of rollups from an hour), the same check and transitions, one step per
 * hour (every 5 minutes for windows under an hour) instead of every minute, and one at `now`.
 */
export async function previewRuleHistory(projectId: string, input: AlertRuleInput, days: number, now = new Date()): Promise<RulePreview> {
  const windowMinutes = input.windowMinutes;
  const stepMs = stepFor(windowMinutes);
  const to = now.getTime();
  const from = Math.floor(to / stepMs) * stepMs - days * 24 * HOUR_MS;
  const windowMs = windowMinutes * MINUTE_MS;
  const spec = ruleSpec({
    metric: input.metric,
    condition: input.condition,
    threshold: input.threshold ?? null,
    factor: input.factor ?? null,
    windowMinutes,
    minCalls: input.minCalls,
  });
  const scope = { tool: input.scope.tool || null, model: input.scope.model || null, version: input.scope.modelVersion || null };
  const category = input.metric === "category_rate" ? input.category : null;
  const raw = readsRaw(new Date(0), new Date(windowMs));
  const baselineMinutes = input.condition === "baseline_factor" ? (input.baselineMinutes ?? null) : null;
  const windowStart = new Date(from - windowMs);
  const [window, baseline] = await Promise.all([
    bucketCounts(projectId, windowStart, new Date(to), scope, category, raw),
    baselineMinutes
      ? bucketCounts(projectId, new Date(windowStart.getTime() - baselineMinutes * MINUTE_MS), new Date(to - windowMs), scope, category, false)
      : null,
  ]);
  const range = { from, to, stepMs };
  const preview = previewRule(
    spec,
    baselineMinutes,
    { window: { buckets: window, bucketMs: raw ? MINUTE_MS : HOUR_MS }, ...(baseline ? { baseline: { buckets: baseline, bucketMs: HOUR_MS } } : {}) },
    range,
    await apartReader(projectId, input, scope, range, windowMs),
  );
  return { ...preview, from: new Date(from).toISOString(), to: new Date(to).toISOString(), stepMinutes: stepMs / MINUTE_MS, days };
}

/**
 * What a preview's windows need besides the counts, as the evaluator reads it: the latency p95 of
 * each window (a percentile does not add up over buckets, so each window is read on its own, a
 * few at a time), or the spirals of the whole range once, each window counting those with enough
 * attempts inside it (the evaluator's read of that window alone finds the same).
 */
async function apartReader(
  projectId: string,
  input: AlertRuleInput,
  scope: { tool: string | null; model: string | null; version: string | null },
  range: { from: number; to: number; stepMs: number },
  windowMs: number,
): Promise<((from: number, to: number) => Partial<WindowCounts>) | undefined> {
  if (input.metric === "latency_p95") {
    const times = previewTimes(range);
    const byEnd = new Map<number, Partial<WindowCounts>>();
    for (let i = 0; i < times.length; i += LATENCY_READS_AT_ONCE) {
      const batch = times.slice(i, i + LATENCY_READS_AT_ONCE);
      const read = await Promise.all(batch.map((at) => latencyCounts(projectId, new Date(at - windowMs), new Date(at), scope)));
      batch.forEach((at, j) => byEnd.set(at, read[j]!));
    }
    return (_from, to) => byEnd.get(to) ?? {};
  }
  if (input.metric === "spirals") {
    const length = input.spiralLength ?? SPIRAL_LENGTH.default;
    const { spirals } = await previewSpirals(projectId, new Date(range.from - windowMs), new Date(range.to), scope, length);
    return (from, to) => ({ spirals: spiralsInWindow(spirals, from, to, length) });
  }
  return undefined;
}

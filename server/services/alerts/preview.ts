import type { AlertRuleInput } from "../../../contracts/alerts";
import { HOUR_MS } from "../../../contracts/metrics";
import { previewRule, type Preview } from "../../domain/alert-rules";
import { bucketCounts, readsRaw, ruleSpec } from "./evaluator";

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
  const preview = previewRule(
    spec,
    baselineMinutes,
    { window: { buckets: window, bucketMs: raw ? MINUTE_MS : HOUR_MS }, ...(baseline ? { baseline: { buckets: baseline, bucketMs: HOUR_MS } } : {}) },
    { from, to, stepMs },
  );
  return { ...preview, from: new Date(from).toISOString(), to: new Date(to).toISOString(), stepMinutes: stepMs / MINUTE_MS, days };
}

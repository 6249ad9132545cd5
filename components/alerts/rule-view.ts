// A rule as the rules page shows and edits it (plain, serialisable), and its description. Pure.

import { alertMetricSchema, readAlertMetric, SAMPLE_NOUNS, SEVERITIES, SPIRAL_LENGTH, type AlertRuleInput, type RuleState } from "../../contracts/alerts";
import type { Category } from "../../contracts/categories";
import { CATEGORY_LABELS } from "../../contracts/categories";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { formatMetricValue, formatWindow, metricLabel, scopeText } from "./format";
import { formatCount } from "../../contracts/format-number";

export type RuleView = {
  id: string;
  name: string;
  metric: string;
  category: string | null;
  /** spirals rules: the fewest failed attempts in a row that count */
  spiralLength: number | null;
  scope: { tool: string | null; model: string | null; modelVersion: string | null };
  condition: string;
  threshold: number | null;
  factor: number | null;
  baselineMinutes: number | null;
  windowMinutes: number;
  minCalls: number;
  severity: string;
  enabled: boolean;
  builtIn: boolean;
  webhookIds: string[];
  lastEvaluatedAt: string | null;
  /** what the evaluator found last (server/domain/alert-rules.ts ruleState), null before its first evaluation */
  lastState: string | null;
  lastValue: number | null;
  lastThreshold: number | null;
  lastCalls: number | null;
  clearSince: string | null;
};

type RuleRow = {
  id: string;
  name: string;
  metric: string;
  category: string | null;
  spiralLength?: number | null;
  scopeTool: string | null;
  scopeModel: string | null;
  scopeVersion: string | null;
  condition: string;
  threshold: number | null;
  factor: number | null;
  baselineMinutes: number | null;
  windowMinutes: number;
  minCalls: number;
  severity: string;
  enabled: boolean;
  builtIn: boolean;
  webhookIds: string[];
  lastEvaluatedAt: Date | string | null;
  lastState: string | null;
  lastValue: number | null;
  lastThreshold: number | null;
  lastCalls: number | null;
  clearSince: Date | string | null;
};

const iso = (t: Date | string | null) => (t ? new Date(t).toISOString() : null);

export function ruleView(r: RuleRow): RuleView {
  return {
    id: r.id,
    name: r.name,
    metric: r.metric,
    category: r.category,
    spiralLength: r.spiralLength ?? null,
    scope: { tool: r.scopeTool, model: r.scopeModel, modelVersion: r.scopeVersion },
    condition: r.condition,
    threshold: r.threshold,
    factor: r.factor,
    baselineMinutes: r.baselineMinutes,
    windowMinutes: r.windowMinutes,
    minCalls: r.minCalls,
    severity: r.severity,
    enabled: r.enabled,
    builtIn: r.builtIn,
    webhookIds: r.webhookIds,
    lastEvaluatedAt: iso(r.lastEvaluatedAt),
    lastState: r.lastState,
    lastValue: r.lastValue,
    lastThreshold: r.lastThreshold,
    lastCalls: r.lastCalls,
    clearSince: iso(r.clearSince),
  };
}

/** "Invalid rate above 10% over 1 h", "Call volume above 2× its previous 7 d over 15 min", "Retry spirals of 3+ failed attempts above 2 over 1 h". */
export function describeRule(
  rule: Pick<RuleView, "metric" | "category" | "condition" | "threshold" | "factor" | "baselineMinutes" | "windowMinutes"> & { spiralLength?: number | null },
): string {
  const what =
    rule.metric === "category_rate" && rule.category
      ? `Rate of ${CATEGORY_LABELS[rule.category as Category] ?? rule.category}`
      : rule.metric === "spirals"
        ? `${metricLabel(rule.metric)} of ${rule.spiralLength ?? SPIRAL_LENGTH.default}+ failed attempts`
        : metricLabel(rule.metric);
  const condition =
    rule.condition === "threshold"
      ? `above ${formatMetricValue(rule.metric, rule.threshold)}`
      : `above ${rule.factor ?? "?"}× its baseline (previous ${rule.baselineMinutes ? formatWindow(rule.baselineMinutes) : "?"})`;
  return `${what} ${condition} over ${formatWindow(rule.windowMinutes)}`;
}

export const ruleScopeText = (rule: Pick<RuleView, "scope">) => scopeText(rule.scope);

export const RULE_STATE_LABELS: Record<RuleState, string> = {
  ok: "OK",
  pending: "Pending",
  firing: "Firing",
  no_data: "No data",
  not_enough_calls: "Not enough calls",
};

export const ruleStateTone = (state: string | null) =>
  (state === "firing" ? "red" : state === "pending" || state === "not_enough_calls" ? "amber" : state === "ok" ? "green" : "slate") as
    "red" | "amber" | "green" | "slate";

/** What the rule's minimum counts: "checked calls", "calls", "results", "timed results" (contracts/alerts.ts SAMPLE_NOUNS). */
function sampleNoun(metric: string) {
  const known = alertMetricSchema.safeParse(metric);
  return known.success ? SAMPLE_NOUNS[known.data] : "calls";
}

/** "400 calls", "1 result". */
function counted(noun: string, n: number | null) {
  const count = Math.round(n ?? 0);
  return `${formatCount(count)} ${count === 1 ? noun.replace(/s$/, "") : noun}`;
}

/**
 * What the rule's last evaluation means, in a sentence: the value against its threshold, and
 * for the quiet states why (the call minimum, with how many calls there were, and in which window).
 */
export function ruleStateText(
  rule: Pick<
    RuleView,
    "metric" | "builtIn" | "windowMinutes" | "minCalls" | "lastState" | "lastValue" | "lastThreshold" | "lastCalls" | "clearSince" | "condition"
  >,
  /** the viewer's time zone (pageTimeZone) */
  zone: string,
): string {
  const value = formatMetricValue(rule.metric, rule.lastValue);
  const threshold = formatMetricValue(rule.metric, rule.lastThreshold);
  const noun = sampleNoun(rule.metric);
  const calls = (n: number | null) => counted(noun, n);
  const window = formatWindow(rule.windowMinutes);
  if (rule.builtIn) return rule.lastState === "firing" ? "A regression incident is open." : rule.lastState ? "No open regression." : "Not evaluated yet.";
  const baselineShort = rule.condition === "baseline_factor" && (rule.lastCalls ?? 0) >= rule.minCalls;
  switch (rule.lastState) {
    case "firing":
      return `${value} is above ${threshold} over the last ${window} (${calls(rule.lastCalls)}).`;
    case "pending":
      return `Clear again (${value} against ${threshold}); the incident resolves once it stays clear for a whole window (${window})${rule.clearSince ? `, clear since ${formatDateTimeZoned(rule.clearSince, zone)}` : ""}.`;
    case "no_data":
      return baselineShort
        ? `No calls in the baseline window before the last ${window}: nothing to compare with.`
        : noun.endsWith("calls")
          ? `No calls in scope over the last ${window}: the rule cannot fire. Check the tool and model names.`
          : `No ${noun} in scope over the last ${window}: the rule cannot fire until calls report them. Check the tool and model names.`;
    case "not_enough_calls":
      return baselineShort
        ? `The baseline window has fewer calls than the ${formatCount(rule.minCalls)}-call minimum: the rule stays silent.`
        : `${calls(rule.lastCalls)} over the last ${window}, under the minimum of ${counted(noun, rule.minCalls)}: the rule stays silent (${value} now).`;
    case "ok":
      return `${value} against ${threshold} over the last ${window} (${calls(rule.lastCalls)}).`;
    default:
      return "Not evaluated yet: rules are evaluated every minute.";
  }
}

/** A saved rule as the input it was made from: what alerts.preview takes. Not for the built-in guard. */
export function ruleInputOf(rule: RuleView): AlertRuleInput {
  const optional = (v: string | null) => v ?? undefined;
  return {
    name: rule.name,
    metric: readAlertMetric(rule.metric),
    category: optional(rule.category) as Category | undefined,
    ...(rule.metric === "spirals" ? { spiralLength: rule.spiralLength ?? SPIRAL_LENGTH.default } : {}),
    scope: { tool: optional(rule.scope.tool), model: optional(rule.scope.model), modelVersion: optional(rule.scope.modelVersion) },
    condition: rule.condition === "baseline_factor" ? "baseline_factor" : "threshold",
    threshold: rule.threshold ?? undefined,
    factor: rule.factor ?? undefined,
    baselineMinutes: rule.baselineMinutes ?? undefined,
    windowMinutes: rule.windowMinutes,
    minCalls: rule.minCalls,
    severity: SEVERITIES.find((s) => s === rule.severity) ?? "warning",
    webhookIds: rule.webhookIds,
  };
}

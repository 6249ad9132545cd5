// A rule as the rules page shows and edits it (plain, serialisable), and its description. Pure.

import { CATEGORY_LABELS, type Category } from "../../contracts/categories";
import { formatMetricValue, formatWindow, metricLabel, scopeText } from "./format";

export type RuleView = {
  id: string;
  name: string;
  metric: string;
  category: string | null;
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
};

type RuleRow = {
  id: string;
  name: string;
  metric: string;
  category: string | null;
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
};

export function ruleView(r: RuleRow): RuleView {
  return {
    id: r.id,
    name: r.name,
    metric: r.metric,
    category: r.category,
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
    lastEvaluatedAt: r.lastEvaluatedAt ? new Date(r.lastEvaluatedAt).toISOString() : null,
  };
}

/** "Invalid rate above 10% over 1 h", "Call volume above 2× its previous 7 d over 15 min". */
export function describeRule(rule: Pick<RuleView, "metric" | "category" | "condition" | "threshold" | "factor" | "baselineMinutes" | "windowMinutes">): string {
  const what =
    rule.metric === "category_rate" && rule.category ? `Rate of ${CATEGORY_LABELS[rule.category as Category] ?? rule.category}` : metricLabel(rule.metric);
  const condition =
    rule.condition === "threshold"
      ? `above ${formatMetricValue(rule.metric, rule.threshold)}`
      : `above ${rule.factor ?? "?"}× its baseline (previous ${rule.baselineMinutes ? formatWindow(rule.baselineMinutes) : "?"})`;
  return `${what} ${condition} over ${formatWindow(rule.windowMinutes)}`;
}

export const ruleScopeText = (rule: Pick<RuleView, "scope">) => scopeText(rule.scope);

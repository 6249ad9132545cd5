import type { Category } from "../../../contracts/categories";
import { checkedInvalidRate, observedAttemptsFromCounts, validCalls, type VerdictCounts } from "../../../isomorphic/stats";
import { errorMessages } from "./error-messages";
import { breakdown, toolTable, totals, type Range, type Scope } from "./call-figures";

type Counts = VerdictCounts & { corrected: number };
const figures = (t: Counts) => ({
  calls: t.calls,
  valid: validCalls(t),
  invalid: t.invalid,
  unchecked: t.unchecked,
  corrected: t.corrected,
  invalidRate: checkedInvalidRate(t),
  attemptsPerSuccess: observedAttemptsFromCounts(t),
});

/**
 * The overview's figures for automation (a CI gate, a harness): totals, categories, tools and
 * model versions with their invalid rate and attempts per success, and the most frequent messages.
 * Composed from the dashboards' own queries.
 */
export async function summary(projectId: string, range: Range, scope: Scope, limit = 10) {
  const [all, tools, models, categories, messages] = await Promise.all([
    totals(projectId, range, scope),
    toolTable(projectId, range, scope),
    breakdown(projectId, range, "model", scope),
    breakdown(projectId, range, "category", scope),
    errorMessages(projectId, range, scope.tool, scope.runIdPrefix),
  ]);
  return {
    range: { from: range.from.toISOString(), to: range.to.toISOString() },
    scope,
    totals: { ...figures(all), costUsd: all.costUsd },
    categories: categories.map((c) => ({ category: c.key as Category, invalid: c.invalid, share: all.invalid ? c.invalid / all.invalid : 0 })),
    tools: tools.map((t) => ({ tool: t.tool, ...figures(t), topCategory: t.topCategory as Category | null })),
    modelVersions: models.map((m) => ({ model: m.key, version: m.version, ...figures(m) })),
    messages: messages
      .slice(0, limit)
      .map((m) => ({ template: m.template, count: m.count, example: m.examples[0] ?? m.template, recoveryRate: m.recoveryRate })),
  };
}

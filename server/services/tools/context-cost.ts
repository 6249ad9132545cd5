import { contextCost, type ContextCost } from "../../domain/context-cost";
import { analytics } from "../analytics";
import { latestDefinitions, listTools } from "./registry";
import { carriedCalls, modelKey } from "./tool-sets";

type Range = { from: Date; to: Date };
const DAY_MS = 86_400_000;

/**
 * The context cost of the project's registered definitions (the newest version of each) over a
 * range (server/domain/context-cost.ts): the models' calls, usage and hourly usage (for the price
 * of an input token) and each tool's own calls, from the call rollups; and the calls of runs that
 * recorded the tool set they carried, per model and set (tool-sets.ts).
 */
export async function projectContextCost(projectId: string, range: Range): Promise<ContextCost> {
  const [versions, models, hours, uses, carried] = await Promise.all([
    listTools(projectId),
    analytics.breakdown(projectId, range, "model"),
    analytics.series(projectId, range, "hour", "modelVersion"),
    analytics.toolTotals(projectId, range),
    carriedCalls(projectId, range),
  ]);
  const keyOf = (m: { key: string; version: string }) => modelKey(m.key, m.version);
  const hourly = new Map<string, typeof hours>();
  for (const h of hours) {
    if (!hourly.has(h.key)) hourly.set(h.key, []);
    hourly.get(h.key)!.push(h);
  }
  return contextCost({
    definitions: latestDefinitions(versions),
    models: models.map((m) => ({
      model: keyOf(m),
      name: m.key,
      calls: m.calls,
      inputTokens: m.inputTokens,
      outputTokens: m.outputTokens,
      costUsd: m.costUsd,
      hours: hourly.get(keyOf(m)) ?? [],
      carried: carried.get(keyOf(m)) ?? [],
    })),
    uses: uses.map((u) => ({ tool: u.tool, calls: u.calls })),
    days: (range.to.getTime() - range.from.getTime()) / DAY_MS,
  });
}

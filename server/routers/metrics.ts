import { z } from "zod";
import { summaryOutput } from "../../contracts/api-answers";
import { rangeInput, scopeInput, seriesDimension, summaryInput } from "../../contracts/metrics";
import { previousPeriod, rangeOrLastDays } from "../../contracts/range";
import { filterText } from "../../contracts/text-limits";
import { chooseBucket } from "../../isomorphic/buckets";
import { compareVersions } from "../../isomorphic/version-comparison";
import { errorMessages } from "../services/metrics/error-messages";
import { breakdown, latencies, modelTable, series, toolTable, totals, versionCounts } from "../services/metrics/call-figures";
import { latencySummary } from "../../isomorphic/latency-histogram";
import { summary } from "../services/metrics/summary";
import { derivedAnswer } from "../services/derived/answers";
import { SPIRAL_LENGTH } from "../../contracts/alerts";
import { withProjectShare } from "../services/tenancy/shares";
import { apiKeyProcedure, projectProcedure, router } from "../trpc/init";

const ranged = z.object({ range: rangeInput, scope: scopeInput.optional() });
const toRange = (r: { from: string; to: string }) => ({ from: new Date(r.from), to: new Date(r.to) });
const versionRef = z.object({ model: filterText("model").min(1, "name the model"), version: filterText("modelVersion") });

export const metricsRouter = router({
  /** For automation with a `read` API key (CI gates): the overview's figures by tool, model version and category. */
  summary: apiKeyProcedure("read")
    .input(summaryInput)
    .output(summaryOutput)
    .query(({ ctx, input }) => {
      const { range, ...scope } = input;
      return withProjectShare(ctx.project, "metrics.summary", () => summary(ctx.project.id, rangeOrLastDays(range, 1), scope));
    }),
  /** Totals over the range and over the previous period of equal length, and the latency percentiles of the range's results. */
  totals: projectProcedure("viewer")
    .input(ranged)
    .query(async ({ ctx, input }) => {
      const range = toRange(input.range);
      const previous = previousPeriod(range);
      const [current, before, latency] = await Promise.all([
        totals(ctx.project.id, range, input.scope),
        totals(ctx.project.id, previous, input.scope),
        latencies(ctx.project.id, range, "none", input.scope),
      ]);
      return { current, previous: before, latency: latency.get("") ?? latencySummary([]) };
    }),
  series: projectProcedure("viewer")
    .input(ranged.extend({ dimension: seriesDimension }))
    .query(async ({ ctx, input }) => {
      const range = toRange(input.range);
      const bucket = chooseBucket(range.from, range.to);
      return { bucket, rows: await series(ctx.project.id, range, bucket, input.dimension, input.scope) };
    }),
  breakdown: projectProcedure("viewer")
    .input(ranged.extend({ dimension: z.enum(["tool", "modelVersion", "category", "model"]) }))
    .query(({ ctx, input }) => breakdown(ctx.project.id, toRange(input.range), input.dimension, input.scope)),
  tools: projectProcedure("viewer")
    .input(ranged)
    .query(({ ctx, input }) => toolTable(ctx.project.id, toRange(input.range), input.scope)),
  /** Per model version: the totals of `breakdown` by model and the latency percentiles of its results. */
  models: projectProcedure("viewer")
    .input(z.object({ range: rangeInput }))
    .query(({ ctx, input }) => modelTable(ctx.project.id, toRange(input.range))),
  /** Two model versions: per tool and per category, better/worse only where statistically clear. */
  compare: projectProcedure("viewer")
    .input(z.object({ range: rangeInput, a: versionRef, b: versionRef }))
    .query(async ({ ctx, input }) => {
      const range = toRange(input.range);
      const counts = (v: { model: string; version: string }, d: "tool" | "category") => versionCounts(ctx.project.id, range, v.model, v.version, d);
      const [aTool, bTool, aCat, bCat] = await Promise.all([
        counts(input.a, "tool"),
        counts(input.b, "tool"),
        counts(input.a, "category"),
        counts(input.b, "category"),
      ]);
      return { byTool: compareVersions(aTool, bTool), byCategory: compareVersions(aCat, bCat) };
    }),
  /**
   * Retry spirals of the range per tool and model version, the longest with their runs, and what they burned (a bounded read);
   * over a preset range a stored answer while fresh (`asOf`: when it was computed; null: computed now).
   */
  spirals: projectProcedure("viewer")
    .input(ranged.extend({ minLength: z.number().int().min(SPIRAL_LENGTH.min).max(SPIRAL_LENGTH.max).default(SPIRAL_LENGTH.default) }))
    .query(async ({ ctx, input }) => {
      const { answer, asOf } = await derivedAnswer(ctx.project.id, "spirals", toRange(input.range), { scope: input.scope ?? {}, minLength: input.minLength });
      return { ...answer, asOf };
    }),
  errors: projectProcedure("viewer")
    .input(z.object({ range: rangeInput, tool: filterText("tool").optional() }))
    .query(({ ctx, input }) => errorMessages(ctx.project.id, toRange(input.range), input.tool)),
});

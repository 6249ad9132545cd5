import { z } from "zod";
import { summaryOutput } from "../../contracts/api-answers";
import { rangeInput, scopeInput, seriesDimension, summaryInput } from "../../contracts/metrics";
import { previousPeriod, rangeOrLastDays } from "../../contracts/range";
import { chooseBucket } from "../../isomorphic/buckets";
import { compareVersions } from "../../isomorphic/version-comparison";
import { errorMessages } from "../services/metrics/error-messages";
import { breakdown, series, toolTable, totals, versionCounts } from "../services/metrics/call-figures";
import { summary } from "../services/metrics/summary";
import { withProjectShare } from "../services/tenancy/shares";
import { apiKeyProcedure, projectProcedure, router } from "../trpc/init";

const ranged = z.object({ range: rangeInput, scope: scopeInput.optional() });
const toRange = (r: { from: string; to: string }) => ({ from: new Date(r.from), to: new Date(r.to) });
const versionRef = z.object({ model: z.string().min(1).max(200), version: z.string().max(200) });

export const metricsRouter = router({
  /** For automation with a `read` API key (CI gates): the overview's figures by tool, model version and category. */
  summary: apiKeyProcedure("read")
    .input(summaryInput)
    .output(summaryOutput)
    .query(({ ctx, input }) => {
      const { range, ...scope } = input;
      return withProjectShare(ctx.project, "metrics.summary", () => summary(ctx.project.id, rangeOrLastDays(range, 1), scope));
    }),
  /** Totals over the range and over the previous period of equal length. */
  totals: projectProcedure("viewer")
    .input(ranged)
    .query(async ({ ctx, input }) => {
      const range = toRange(input.range);
      const previous = previousPeriod(range);
      const [current, before] = await Promise.all([totals(ctx.project.id, range, input.scope), totals(ctx.project.id, previous, input.scope)]);
      return { current, previous: before };
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
  errors: projectProcedure("viewer")
    .input(z.object({ range: rangeInput, tool: z.string().max(200).optional() }))
    .query(({ ctx, input }) => errorMessages(ctx.project.id, toRange(input.range), input.tool)),
});

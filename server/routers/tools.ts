import { z } from "zod";
import {
  confusableOutput,
  contextCostOutput,
  definitionsOutput,
  doctorOutput,
  dryRunOutput,
  registerToolsOutput,
  validateCallOutput,
} from "../../contracts/api-answers";
import { rangeInput } from "../../contracts/metrics";
import { rangeOrLastDays } from "../../contracts/range";
import { nameText } from "../../contracts/text-limits";
import {
  confusableInput,
  contextCostInput,
  doctorInput,
  dryRunInput,
  dryRunPageInput,
  recheckInput,
  registerPastedInput,
  registerToolsInput,
  validateCallInput,
} from "../../contracts/tools";
import { compareVersions } from "../../isomorphic/version-comparison";
import { impactWindows } from "../domain/schema-change";
import { breakdown, totals } from "../services/metrics/call-figures";
import { DRY_RUN_MAX_CALLS, dryRun, dryRunPage, dryRunTotal, prepareDryRun } from "../services/tools/dry-run";
import { confusableTools } from "../services/tools/confusable";
import { derivedAnswer } from "../services/derived/answers";
import { projectContextCost } from "../services/tools/context-cost";
import { emptyResultExamples } from "../services/tools/empty-results";
import { toolDoctor } from "../services/tools/patterns";
import { recheckCalls } from "../services/tools/recheck";
import { latestDefinitions, listTools, registerPasted, registerTools, unregisteredTools, validateCall } from "../services/tools/registry";
import { withProjectShare } from "../services/tenancy/shares";
import { apiKeyProcedure, projectProcedure, router } from "../trpc/init";

/**
 * The pages' confusable pairs: the project's whole answer, over a preset range the stored one while fresh (`asOf`: when it
 * was computed; null: computed now), filtered to the pairs with `tool` when given.
 */
async function storedConfusable(projectId: string, range: { from: string; to: string }, tool?: string) {
  const { answer, asOf } = await derivedAnswer(projectId, "confusable", { from: new Date(range.from), to: new Date(range.to) });
  return { ...answer, pairs: tool ? answer.pairs.filter((p) => p.tools.includes(tool)) : answer.pairs, asOf };
}

export const toolsRouter = router({
  /** Harnesses register their tools' JSON Schemas; a changed schema becomes a new version. */
  register: apiKeyProcedure("ingest")
    .input(registerToolsInput)
    .output(registerToolsOutput)
    .mutation(async ({ ctx, input }) => ({
      tools: await withProjectShare(ctx.project, "tools.register", () => registerTools(ctx.project.id, input.tools)),
    })),
  /** The verdict ingestion would store for this request. */
  validate: apiKeyProcedure("ingest")
    .input(validateCallInput)
    .output(validateCallOutput)
    .mutation(({ ctx, input }) => withProjectShare(ctx.project, "tools.validate", () => validateCall(ctx.project.id, input))),
  /** The browser's paste or upload of definitions (OpenAI, Anthropic, MCP or a plain JSON Schema), registered as tools.register does. */
  registerPasted: projectProcedure("admin")
    .input(registerPastedInput)
    .mutation(async ({ ctx, input }) => ({
      tools: await withProjectShare(ctx.project, "tools.register", () => registerPasted(ctx.project.id, input.definitions, input.name)),
    })),
  /**
   * After a schema arrives: the tool's calls of the range (default: the last 30 days) that were
   * stored without a verdict against a schema of theirs, checked against it and their verdicts,
   * links and rollups updated. Bounded like a dry run (at most 100,000 calls or 30 s per request).
   */
  recheck: projectProcedure("admin")
    .input(recheckInput)
    .mutation(({ ctx, input }) =>
      withProjectShare(ctx.project, "tools.recheck", () =>
        recheckCalls(ctx.project.id, input.tool, rangeOrLastDays(input.range, 30), { limit: input.limit ?? DRY_RUN_MAX_CALLS }),
      ),
    ),
  list: projectProcedure("viewer").query(({ ctx }) => listTools(ctx.project.id)),
  /** The newest definition of each registered tool, for `toolgate lint` with a read key (it lints them with the same rules). */
  definitions: apiKeyProcedure("read")
    .output(definitionsOutput)
    .query(async ({ ctx }) => ({ project: ctx.project.slug, tools: latestDefinitions(await listTools(ctx.project.id)) })),
  /** Tools the project's calls name that have no schema, with how many of their calls were not checked against one. */
  unregistered: projectProcedure("viewer").query(({ ctx }) => unregisteredTools(ctx.project.id)),
  /** A tool's invalid calls grouped by what went wrong where, with trend, recovery and example ids. */
  patterns: projectProcedure("viewer")
    .input(z.object({ tool: nameText("tool"), range: rangeInput }))
    .query(async ({ ctx, input }) => {
      const { answer, asOf } = await derivedAnswer(
        ctx.project.id,
        "doctor",
        { from: new Date(input.range.from), to: new Date(input.range.to) },
        { tool: input.tool },
      );
      return { ...answer, asOf };
    }),
  /** For read API keys (an agent, Toolgate's MCP server): the same schema doctor, over the last 7 days unless a range is given. */
  doctor: apiKeyProcedure("read")
    .input(doctorInput)
    .output(doctorOutput)
    .query(({ ctx, input }) =>
      withProjectShare(ctx.project, "tools.doctor", async () => ({
        tool: input.tool,
        ...(await toolDoctor(ctx.project.id, input.tool, rangeOrLastDays(input.range, 7))),
      })),
    ),
  /** For read API keys: the pairs of tools models mix up (server/domain/confusable-tools.ts), ranked, over the last 30 days unless a range is given. */
  confusable: apiKeyProcedure("read")
    .input(confusableInput)
    .output(confusableOutput)
    .query(({ ctx, input }) =>
      withProjectShare(ctx.project, "tools.confusable", () => confusableTools(ctx.project.id, rangeOrLastDays(input.range, 30), input.tool)),
    ),
  /** For read keys: the registered definitions' tokens in every model call, a day and in USD, costliest for the least use first (last 7 days unless a range is given). */
  contextCost: apiKeyProcedure("read")
    .input(contextCostInput)
    .output(contextCostOutput)
    .query(({ ctx, input }) => withProjectShare(ctx.project, "tools.contextCost", () => projectContextCost(ctx.project.id, rangeOrLastDays(input.range, 7)))),
  /** The definitions page's context cost over its range. */
  projectContextCost: projectProcedure("viewer")
    .input(z.object({ range: rangeInput }))
    .query(({ ctx, input }) => projectContextCost(ctx.project.id, { from: new Date(input.range.from), to: new Date(input.range.to) })),
  /** The definitions page's confusable pairs: every pair of the project over its range (stored while fresh over a preset range, as `confusablePairs`). */
  projectConfusable: projectProcedure("viewer")
    .input(z.object({ range: rangeInput }))
    .query(({ ctx, input }) => storedConfusable(ctx.project.id, input.range)),
  /** The tool page's empty results: the newest ones of the range, each with the run's next call. */
  emptyResults: projectProcedure("viewer")
    .input(z.object({ tool: nameText("tool"), range: rangeInput }))
    .query(({ ctx, input }) => emptyResultExamples(ctx.project.id, input.tool, { from: new Date(input.range.from), to: new Date(input.range.to) })),
  /** The tool page's "Confused with": the pairs with this tool over the page's range. */
  confusablePairs: projectProcedure("viewer")
    .input(z.object({ tool: nameText("tool"), range: rangeInput }))
    .query(({ ctx, input }) => storedConfusable(ctx.project.id, input.range, input.tool)),
  /**
   * Did the schema change help? The tool's invalid rate and each category's rate in equal windows
   * before and after a version was first seen, with the model comparison's two-proportion test:
   * the newest change inside `range` (both windows inside it), else the newest change (`inRange: false`).
   */
  versionImpact: projectProcedure("viewer")
    .input(z.object({ tool: nameText("tool"), range: rangeInput.optional() }))
    .query(async ({ ctx, input }) => {
      const versions = (await listTools(ctx.project.id)).filter((v) => v.name === input.tool);
      const within = input.range && { from: new Date(input.range.from), to: new Date(input.range.to) };
      const windows = impactWindows(versions, new Date(), within);
      if (!windows) return null;
      const scope = { tool: input.tool };
      const counts = async (range: { from: Date; to: Date }) => {
        const [all, categories] = await Promise.all([totals(ctx.project.id, range, scope), breakdown(ctx.project.id, range, "category", scope)]);
        return {
          all: [{ key: "all calls", invalid: all.invalid, total: all.calls }],
          categories: categories.map((c) => ({ key: c.key, invalid: c.invalid, total: all.calls })),
        };
      };
      const [before, after] = await Promise.all([counts(windows.before), counts(windows.after)]);
      const [overall] = compareVersions(before.all, after.all);
      return {
        version: windows.newer.version,
        previousVersion: windows.older.version,
        inRange: windows.inRange,
        marker: windows.marker.toISOString(),
        before: { from: windows.before.from.toISOString(), to: windows.before.to.toISOString() },
        after: { from: windows.after.from.toISOString(), to: windows.after.to.toISOString() },
        overall: overall!,
        byCategory: compareVersions(before.categories, after.categories),
      };
    }),
  /**
   * CI: would this schema change refuse calls models already make? Replays the newest calls of the
   * range (default: the last 30 days, at most 100,000) against it: fixed, broken, by category, with example ids.
   */
  dryRun: apiKeyProcedure("read")
    .input(dryRunInput)
    .output(dryRunOutput)
    .mutation(({ ctx, input }) =>
      withProjectShare(ctx.project, "tools.dryRun", () =>
        dryRun(ctx.project.id, input.tool, input, rangeOrLastDays(input.range, 30), { limit: input.limit ?? DRY_RUN_MAX_CALLS }),
      ),
    ),
  /** The tool page's dry run, one page at a time (admins): the page shows progress between pages. */
  dryRunPage: projectProcedure("admin")
    .input(dryRunPageInput)
    .mutation(async ({ ctx, input }) => {
      const range = { from: new Date(input.range.from), to: new Date(input.range.to) };
      return withProjectShare(ctx.project, "tools.dryRunPage", async () => {
        const prepared = await prepareDryRun(ctx.project.id, input.tool, input);
        const [page, total] = await Promise.all([
          dryRunPage(ctx.project.id, input.tool, prepared, range, input.cursor ?? null, input.pageSize),
          input.cursor ? null : dryRunTotal(ctx.project.id, input.tool, range),
        ]);
        return { ...page, total, limit: DRY_RUN_MAX_CALLS };
      });
    }),
});

import { z } from "zod";
import { apiKeyScopeSchema } from "./accounts";
import { categorySchema } from "./categories";

// What each procedure an API key can call answers: the `.output()` of those procedures (so the
// server checks every answer against it, and drops what is not in it), and the source of the
// answer columns in README.md and docs/api.md (api-answers.test.ts keeps them in step).

const count = z.number().int().nonnegative();
const rate = z.number().nullable();

const rejectedEvent = z.object({ index: count, id: z.string().optional(), path: z.string(), message: z.string() });
export const ingestBatchOutput = z.object({ accepted: count, duplicates: count, rejected: z.array(rejectedEvent) });

export const registerToolsOutput = z.object({ tools: z.array(z.object({ name: z.string(), version: z.string(), created: z.boolean() })) });

const violation = z.object({ category: categorySchema, path: z.string(), message: z.string(), keyword: z.string() });
export const validateCallOutput = z.object({
  valid: z.boolean().nullable(),
  category: categorySchema.optional(),
  message: z.string().optional(),
  path: z.string().optional(),
  violations: z.array(violation),
  version: z.string().nullable(),
});

// valid + invalid + unchecked = calls; invalidRate = invalid / (valid + invalid), null when no call was checked
const figures = { calls: count, valid: count, invalid: count, unchecked: count, corrected: count, invalidRate: rate, attemptsPerSuccess: rate };
export const summaryOutput = z.object({
  range: z.object({ from: z.string(), to: z.string() }),
  scope: z.object({ tool: z.string().optional(), model: z.string().optional(), modelVersion: z.string().optional(), runIdPrefix: z.string().optional() }),
  totals: z.object({ ...figures, costUsd: z.number() }),
  categories: z.array(z.object({ category: categorySchema, invalid: count, share: z.number() })),
  tools: z.array(z.object({ tool: z.string(), ...figures, topCategory: categorySchema.nullable() })),
  modelVersions: z.array(z.object({ model: z.string(), version: z.string(), ...figures })),
  messages: z.array(z.object({ template: z.string(), count, example: z.string(), recoveryRate: rate })),
});

const examples = z.object({ fixed: z.array(z.string()), broken: z.array(z.string()) });
export const dryRunOutput = z.object({
  tool: z.string(),
  proposedVersion: z.string(),
  scanned: count,
  skipped: count,
  fixed: count,
  broken: count,
  stillInvalid: count,
  stillValid: count,
  recategorised: count,
  examples,
  byCategory: z.array(z.object({ category: z.string(), fixed: count, broken: count, stillInvalid: count, examples })),
  complete: z.boolean(),
  stoppedBy: z.enum(["limit", "time"]).nullable(),
  elapsedMs: count,
  summary: z.string(),
});

const rangeRecovery = { failures: count, followed: count, recovered: count, recoveryRate: rate, share: z.number() };
const toolText = z.object({ description: z.string(), parameters: z.record(z.string(), z.unknown()) });
export const doctorOutput = z.object({
  tool: z.string(),
  version: z.string().nullable(),
  patterns: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      category: z.string(),
      path: z.string(),
      kind: z.string(),
      ...rangeRecovery,
      trend: z.array(count),
      examples: z.array(z.string()),
    }),
  ),
  suggestions: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      severity: z.enum(["error", "warning", "info"]),
      source: z.enum(["calls", "lint"]),
      /** a lint finding the recorded calls support: how many of the tool's calls read (isomorphic/definition-lint.ts) */
      calls: z.object({ supporting: count, of: count }).optional(),
      path: z.string(),
      title: z.string(),
      evidence: z.string(),
      change: z.string(),
      failures: count,
      examples: z.array(z.string()),
      before: toolText,
      after: toolText,
      unknown: z.string().optional(),
      changesVerdicts: z.boolean(),
    }),
  ),
});

/** A stored time, answered as an ISO 8601 string. */
const time = z.date().transform((d) => d.toISOString());
const callFields = {
  id: z.string(),
  runId: z.string(),
  step: z.number().int().nullable(),
  timestamp: time,
  modelName: z.string(),
  modelVersion: z.string().nullable(),
  tool: z.string(),
  arguments: z.unknown(),
  valid: z.boolean().nullable(),
  category: z.string().nullable(),
  message: z.string().nullable(),
  checkedPath: z.string().nullable(),
  checkedVersion: z.string().nullable(),
  resultStatus: z.string().nullable(),
  resultSummary: z.string().nullable(),
  latencyMs: z.number().int().nullable(),
  correctsId: z.string().nullable(),
  correctionId: z.string().nullable(),
};
export const callOutput = z.object({
  ...callFields,
  correction: z.object(callFields).nullable(),
  previousInRun: z.string().nullable(),
  nextInRun: z.string().nullable(),
  runLength: count,
  attemptsUntilSuccess: count.nullable(),
});
// attempts = successes (valid) + invalid + unchecked; attemptsPerSuccess = (successes + invalid) / successes, null when nothing succeeded
export const runOutput = z.object({
  runId: z.string(),
  attempts: count,
  successes: count,
  invalid: count,
  unchecked: count,
  attemptsPerSuccess: rate,
  calls: z.array(z.object(callFields)),
});

export const confusableOutput = z.object({
  pairs: z.array(
    z.object({
      tools: z.tuple([z.string(), z.string()]),
      switches: count,
      directions: z.array(
        z.object({
          from: z.string(),
          to: z.string(),
          switches: count,
          sharedArguments: z.array(z.string()),
          switchRate: z.number(),
          afterSuccessRate: z.number(),
        }),
      ),
      ambiguousNames: z.array(z.object({ name: z.string(), calls: count })),
      /** the two descriptions nearly repeat each other (the definition lint's description_duplicate): word overlap 0–1 and the words both use */
      descriptionOverlap: z.object({ score: z.number(), sharedWords: z.array(z.string()) }).nullable(),
      runs: z.array(z.object({ runId: z.string(), failedId: z.string(), switchedId: z.string(), from: z.string(), to: z.string() })),
      score: count,
      advice: z.string(),
    }),
  ),
  /** the range held more calls than one read takes: the pairs come from the newest `readLimit` calls of it */
  truncated: z.boolean(),
  readLimit: count,
});

const usd = z.number().nonnegative().nullable();
/** tools.contextCost: what the tool definitions the calls carried cost in every model call and a day (server/domain/context-cost.ts). */
export const contextCostOutput = z.object({
  days: z.number(),
  /** what the calls were counted with: the tool set their runs recorded (`carried`), the whole registered set (`registered`), or some of each (`mixed`) */
  basis: z.enum(["carried", "registered", "mixed"]),
  /** the calls of runs that recorded their tool set, of all calls; the distinct sets; carried tool names without a registered definition (not counted) */
  carried: z.object({ calls: count, of: count, sets: count, unregistered: z.array(z.string()) }),
  models: z.array(
    z.object({
      model: z.string(),
      tokenizer: z.object({ encoding: z.string(), family: z.string(), exact: z.boolean() }),
      setTokens: count,
      carriedCalls: count,
      callsPerDay: z.number(),
      inputShare: z.number().nullable(),
      price: z.object({ usd: z.number(), method: z.enum(["fit", "upper bound"]) }).nullable(),
      setUsdPerDay: usd,
    }),
  ),
  tools: z.array(z.object({ name: z.string(), tokens: count, tokensPerDay: z.number(), usdPerDay: usd, uses: count, usdPerUse: usd })),
  total: z.object({ tokens: count, tokensPerDay: z.number(), usdPerDay: usd }),
});

export const definitionsOutput = z.object({ project: z.string(), tools: z.array(z.object({ name: z.string(), ...toolText.shape })) });

export const whoamiOutput = z.object({ project: z.string(), scope: apiKeyScopeSchema });

/** The procedures an API key can call, each with the schema it answers by. */
export const API_KEY_ANSWERS = {
  "ingest.batch": ingestBatchOutput,
  "tools.register": registerToolsOutput,
  "tools.validate": validateCallOutput,
  "metrics.summary": summaryOutput,
  "tools.dryRun": dryRunOutput,
  "tools.doctor": doctorOutput,
  "tools.confusable": confusableOutput,
  "tools.contextCost": contextCostOutput,
  "calls.get": callOutput,
  "calls.getRun": runOutput,
  "tools.definitions": definitionsOutput,
  "system.whoami": whoamiOutput,
} as const;

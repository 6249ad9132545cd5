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

const figures = { calls: count, invalid: count, corrected: count, invalidRate: rate, attemptsPerSuccess: rate };
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

export const whoamiOutput = z.object({ project: z.string(), scope: apiKeyScopeSchema });

/** The procedures an API key can call, each with the schema it answers by. */
export const API_KEY_ANSWERS = {
  "ingest.batch": ingestBatchOutput,
  "tools.register": registerToolsOutput,
  "tools.validate": validateCallOutput,
  "metrics.summary": summaryOutput,
  "tools.dryRun": dryRunOutput,
  "system.whoami": whoamiOutput,
} as const;

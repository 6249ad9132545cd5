import { z } from "zod";
import { categorySchema } from "./categories";

/** A time range [from, to) for dashboards; at most 400 days. */
export const rangeInput = z
  .object({
    from: z.iso.datetime({ offset: true, error: "from: expected an ISO 8601 date with offset" }),
    to: z.iso.datetime({ offset: true, error: "to: expected an ISO 8601 date with offset" }),
  })
  .refine((r) => Date.parse(r.from) < Date.parse(r.to), "from must be before to")
  .refine((r) => Date.parse(r.to) - Date.parse(r.from) <= 400 * 86_400_000, "a range covers at most 400 days");

/** Narrows rollup-based metrics to one tool, model or model version (any combination). */
export const scopeInput = z.object({
  tool: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
  modelVersion: z.string().max(200).optional(),
});

/** `metrics.summary` (read API keys): a range (default the last 24 hours) and an optional scope and run id prefix. */
export const summaryInput = z.object({
  range: rangeInput.optional(),
  tool: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
  modelVersion: z.string().max(200).optional(),
  runIdPrefix: z.string().min(1, "runIdPrefix must not be empty").max(256).optional(),
});
export type SummaryInput = z.infer<typeof summaryInput>;

export const seriesDimension = z.enum(["tool", "modelVersion", "category", "none"]);
export type SeriesDimension = z.infer<typeof seriesDimension>;

export const callsFilterInput = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  tool: z.string().max(200).optional(),
  model: z.string().max(200).optional(),
  modelVersion: z.string().max(200).optional(),
  valid: z.enum(["valid", "invalid"]).optional(),
  category: categorySchema.optional(),
  runId: z.string().max(256).optional(),
  q: z.string().max(200).optional(),
  disagree: z.boolean().optional(),
});
export type CallsFilter = z.infer<typeof callsFilterInput>;

/** The range presets of the range picker; `to` is now. */
export const RANGE_PRESETS = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 } as const;
export type RangePreset = keyof typeof RANGE_PRESETS;

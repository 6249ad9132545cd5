import { z } from "zod";
import { categorySchema } from "./categories";
import { OUTCOME_FILTERS } from "./event";
import { filterText, SEARCH_TEXT_MAX, refuseUnstorable } from "./text-limits";

/** The longest range a dashboard, an export or a metric procedure covers. */
export const MAX_RANGE_DAYS = 400;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** A time range [from, to) for dashboards; at most MAX_RANGE_DAYS. */
export const rangeInput = z
  .object({
    from: z.iso.datetime({ offset: true, error: "from: expected an ISO 8601 date with offset" }),
    to: z.iso.datetime({ offset: true, error: "to: expected an ISO 8601 date with offset" }),
  })
  .refine((r) => Date.parse(r.from) < Date.parse(r.to), "from must be before to")
  .refine((r) => Date.parse(r.to) - Date.parse(r.from) <= MAX_RANGE_DAYS * DAY_MS, `a range covers at most ${MAX_RANGE_DAYS} days`);

/** Narrows rollup-based metrics to one tool, model or model version (any combination). */
export const scopeInput = z.object({
  tool: filterText("tool").optional(),
  model: filterText("model").optional(),
  modelVersion: filterText("modelVersion").optional(),
});

/** `metrics.summary` (read API keys): a range (default the last 24 hours) and an optional scope and run id prefix. */
export const summaryInput = z.object({
  range: rangeInput.optional(),
  tool: filterText("tool").optional(),
  model: filterText("model").optional(),
  modelVersion: filterText("modelVersion").optional(),
  runIdPrefix: filterText("runId").min(1, "runIdPrefix must not be empty").optional(),
});

export const seriesDimension = z.enum(["tool", "modelVersion", "category", "none"]);
export type SeriesDimension = z.infer<typeof seriesDimension>;

/**
 * A call's verdict: valid, invalid, or unchecked (stored with `valid` null: no schema to check it
 * against and no harness verdict), which is neither. isomorphic/stats.ts verdictOf decides it.
 */
export const CALL_VERDICTS = ["valid", "invalid", "unchecked"] as const;
export type CallVerdictName = (typeof CALL_VERDICTS)[number];

export const callsFilterInput = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  tool: filterText("tool").optional(),
  model: filterText("model").optional(),
  modelVersion: filterText("modelVersion").optional(),
  valid: z.enum(CALL_VERDICTS).optional(),
  category: categorySchema.optional(),
  runId: filterText("runId").optional(),
  q: z
    .string()
    .max(SEARCH_TEXT_MAX, {
      error: (issue) =>
        `the search text is at most ${SEARCH_TEXT_MAX} characters; you sent ${String(issue.input).length}: search for a shorter part of the message or arguments`,
    })
    .superRefine(refuseUnstorable("the search text"))
    .optional(),
  disagree: z.boolean().optional(),
  /** what happened when the call ran (isomorphic/outcome.ts); invalid calls have no outcome */
  outcome: z.enum(OUTCOME_FILTERS).optional(),
});
export type CallsFilter = z.infer<typeof callsFilterInput>;

/** The range presets of the range pickers (days); `to` is the end of the current hour. */
export const RANGE_PRESETS = { "24h": 1, "7d": 7, "30d": 30, "90d": 90 } as const;
export type RangePreset = keyof typeof RANGE_PRESETS;
export const RANGE_PRESET_LABELS: Record<RangePreset, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", "90d": "Last 90 days" };
export const isRangePreset = (value: string | undefined): value is RangePreset => !!value && Object.hasOwn(RANGE_PRESETS, value);

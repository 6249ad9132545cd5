import { z } from "zod";
import { categorySchema } from "./categories";

/** What an alert rule can watch: the one list (the database stores the name as text). */
export const ALERT_METRICS = ["invalid_rate", "category_rate", "attempts_per_success", "call_volume"] as const;
export type AlertMetricName = (typeof ALERT_METRICS)[number];
export const alertMetricSchema = z.enum(ALERT_METRICS);

export const ALERT_METRIC_LABELS: Record<AlertMetricName, string> = {
  invalid_rate: "Invalid rate",
  category_rate: "Rate of one category",
  attempts_per_success: "Observed attempts per successful call",
  call_volume: "Call volume",
};

/** A metric name read back from the database, checked rather than cast. */
export function readAlertMetric(stored: string): AlertMetricName {
  const parsed = alertMetricSchema.safeParse(stored);
  if (!parsed.success) throw new Error(`Unknown alert metric "${stored}" in the database: expected one of ${ALERT_METRICS.join(", ")}.`);
  return parsed.data;
}
/**
 * Header of a webhook's signature, as Stripe does it: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
 * Receivers recompute it with the endpoint's secret and reject old timestamps.
 */
export const SIGNATURE_HEADER = "X-Toolgate-Signature";

/** Header (and payload field `deliveryId`) that receivers dedupe on: the same on every attempt of one delivery. */
export const DELIVERY_ID_HEADER = "X-Toolgate-Delivery";

/** What a rule's last evaluation found (server/domain/alert-rules.ts ruleState decides). */
export type RuleState = "ok" | "pending" | "firing" | "no_data" | "not_enough_calls";

/** The events an incident sends to webhooks (header X-Toolgate-Event and payload field `event`). */
export type IncidentEvent = "incident.fired" | "incident.acknowledged" | "incident.resolved";

export const SEVERITIES = ["critical", "warning", "info"] as const;
export const INCIDENT_STATES = ["firing", "acknowledged", "resolved"] as const;

/**
 * Each metric's threshold range, said in the unit the form's field uses: rates in percent
 * (the API carries them as fractions, 0.2 = 20 %, and the message shows what was sent in
 * percent too), attempts and calls as numbers.
 */
const RANGES: Record<AlertMetricName, { min: number; max: number; range: string; unit: string; show: (v: number) => string }> = {
  invalid_rate: { min: 0, max: 1, range: "from 0% to 100%", unit: "a percentage from 0% to 100%", show: (v) => `${+(v * 100).toFixed(2)}%` },
  category_rate: { min: 0, max: 1, range: "from 0% to 100%", unit: "a percentage from 0% to 100%", show: (v) => `${+(v * 100).toFixed(2)}%` },
  attempts_per_success: { min: 1, max: 100, range: "from 1 to 100 attempts", unit: "attempts from 1 to 100", show: (v) => `${v}` },
  call_volume: { min: 0, max: 1e9, range: "a number of calls from 0 up", unit: "a number of calls from 0 up", show: (v) => `${v}` },
};

/** "140%" for rates, "3.5" for the rest: how the UI shows a metric's value. */
export const formatMetric = (metric: AlertMetricName, value: number) => RANGES[metric].show(value);

export const alertRuleInput = z
  .object({
    name: z.string().trim().min(1, "name the rule").max(120),
    metric: alertMetricSchema,
    category: categorySchema.optional(),
    scope: z.object({ tool: z.string().max(200).optional(), model: z.string().max(200).optional(), modelVersion: z.string().max(200).optional() }).default({}),
    condition: z.enum(["threshold", "baseline_factor"]),
    threshold: z.number().optional(),
    factor: z.number().gt(1, "the factor must be above 1 (e.g. 2 = twice the baseline)").max(100).optional(),
    baselineMinutes: z.number().int().min(60, "the baseline window is at least 60 minutes").max(43_200, "the baseline window is at most 30 days").optional(),
    windowMinutes: z
      .number()
      .int()
      .min(5, "the evaluation window is 5 minutes to 24 hours (5–1440)")
      .max(1440, "the evaluation window is 5 minutes to 24 hours (5–1440)"),
    minCalls: z.number().int().min(0).max(1_000_000).default(50),
    severity: z.enum(SEVERITIES).default("warning"),
    webhookIds: z.array(z.uuid()).max(20).default([]),
  })
  .superRefine((rule, ctx) => {
    if (rule.metric === "category_rate" && !rule.category) {
      ctx.addIssue({ code: "custom", path: ["category"], message: "choose the category whose rate the rule watches" });
    }
    if (rule.condition === "threshold") {
      const r = RANGES[rule.metric];
      if (rule.threshold === undefined) ctx.addIssue({ code: "custom", path: ["threshold"], message: `set a threshold: ${r.unit}` });
      else if (rule.threshold < r.min || rule.threshold > r.max) {
        ctx.addIssue({
          code: "custom",
          path: ["threshold"],
          message: `the threshold for ${ALERT_METRIC_LABELS[rule.metric].toLowerCase()} must be ${r.range}; you sent ${r.show(rule.threshold)}`,
        });
      }
    } else {
      if (rule.factor === undefined) ctx.addIssue({ code: "custom", path: ["factor"], message: "set the factor over the baseline, e.g. 2" });
      if (rule.baselineMinutes === undefined)
        ctx.addIssue({ code: "custom", path: ["baselineMinutes"], message: "set the baseline window in minutes, e.g. 10080 (7 days)" });
    }
  });
export type AlertRuleInput = z.infer<typeof alertRuleInput>;

export const webhookInput = z.object({
  name: z.string().trim().min(1, "name the endpoint").max(120),
  url: z.url({ protocol: /^https?$/, error: "expected an http(s) URL such as https://hooks.slack.com/services/…" }).max(2000),
});

/** How long a silence or a snooze lasts, in minutes: the form's choices (any whole number from 5 min to 30 days through the API). */
export const MUTE_DURATIONS = [
  { minutes: 30, label: "30 minutes" },
  { minutes: 60, label: "1 hour" },
  { minutes: 240, label: "4 hours" },
  { minutes: 1440, label: "1 day" },
  { minutes: 10080, label: "7 days" },
] as const;
const muteMinutes = z
  .number()
  .int("the duration is a whole number of minutes")
  .min(5, "the duration is 5 minutes to 30 days (5–43200 minutes)")
  .max(43_200, "the duration is 5 minutes to 30 days (5–43200 minutes)");

export const silenceInput = z
  .object({
    ruleId: z.uuid().optional(),
    tool: z.string().trim().max(200).optional(),
    model: z.string().trim().max(200).optional(),
    minutes: muteMinutes,
    reason: z.string().trim().min(1, "say why (shown on the silenced incidents), e.g. “planned migration of getloan”").max(500),
  })
  .refine((s) => s.ruleId || s.tool || s.model, { path: ["ruleId"], message: "choose a rule, or a tool and/or a model to silence" });
export type SilenceInput = z.infer<typeof silenceInput>;

export const snoozeInput = z.object({ minutes: muteMinutes, note: z.string().trim().max(1000).optional() });

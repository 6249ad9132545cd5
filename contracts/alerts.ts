import { z } from "zod";
import { filterText, limitedText, TEXT_LIMITS, tooLongMessage } from "./text-limits";
import { categorySchema } from "./categories";
import { formatCount, formatNumber, formatPercent } from "./format-number";

/** What an alert rule can watch: the one list (the database stores the name as text). */
export const ALERT_METRICS = [
  "invalid_rate",
  "category_rate",
  "attempts_per_success",
  "call_volume",
  "tool_error_rate",
  "empty_result_rate",
  "latency_p95",
  "spirals",
] as const;
export type AlertMetricName = (typeof ALERT_METRICS)[number];
export const alertMetricSchema = z.enum(ALERT_METRICS, {
  error: (issue) => `unknown rule kind ${JSON.stringify(issue.input)}: the metric is one of ${ALERT_METRICS.join(", ")} (docs/alerts.md describes each)`,
});

export const ALERT_METRIC_LABELS: Record<AlertMetricName, string> = {
  invalid_rate: "Invalid rate",
  category_rate: "Rate of one category",
  attempts_per_success: "Observed attempts per successful call",
  call_volume: "Call volume",
  tool_error_rate: "Tool error rate",
  empty_result_rate: "Empty result rate",
  latency_p95: "Latency p95",
  spirals: "Retry spirals",
};

/** What each metric measures, in a sentence: the rule form shows it under the metric. */
export const ALERT_METRIC_DESCRIPTIONS: Record<AlertMetricName, string> = {
  invalid_rate: "The share of calls the gate found invalid (wrong arguments, unknown tool, …).",
  category_rate: "The share of all calls in scope that failed with one category.",
  attempts_per_success: "How many attempts the model needed per call that succeeded, as observed in its runs.",
  call_volume: "How many calls arrived in the window.",
  tool_error_rate:
    "The share of the results that failed after the gate (tool error, not found, timeout, refused by policy), of the calls that reported a result.",
  empty_result_rate:
    "The share of the results that came back ok but said nothing (empty, null, [] or {}), of the calls that reported a result: a search that finds nothing, a lookup that silently misses.",
  latency_p95: "The 95th percentile of the results' latency, in milliseconds, from the hourly rollups (within 5 %; 20 timed results at least).",
  spirals: "How many retry spirals the window holds: runs where the model failed (invalid call or failed result) this many times or more in a row at one tool.",
};

/** What a rule's minimum and its "N calls" count (server/domain/alert-rules.ts sampleSize). */
export const SAMPLE_NOUNS: Record<AlertMetricName, string> = {
  invalid_rate: "checked calls",
  category_rate: "checked calls",
  attempts_per_success: "checked calls",
  call_volume: "calls",
  tool_error_rate: "results",
  empty_result_rate: "results",
  latency_p95: "timed results",
  spirals: "calls",
};

/** Rules that count something (volume, spirals) rather than a rate: the call minimum does not apply to them. */
export const COUNT_METRICS: readonly AlertMetricName[] = ["call_volume", "spirals"];
/** Rules that take a threshold only: no baseline factor (their preview reads each window on its own). */
export const THRESHOLD_ONLY_METRICS: readonly AlertMetricName[] = ["latency_p95", "spirals"];
/** The shortest spiral a spirals rule counts unless it says otherwise, and the range it may say. */
export const SPIRAL_LENGTH = { default: 3, min: 2, max: 50 } as const;

/**
 * The rates the regression guard compares between a model's (or a tool schema's) newest version and the one before:
 * the gate's invalid rate (over checked calls) and, after the gate, the tool error rate (over
 * results). Each regression is an incident of its own; its subject says which rate.
 */
export const REGRESSION_RATES = ["invalid_rate", "tool_error_rate"] as const satisfies readonly AlertMetricName[];
export type RegressionRate = (typeof REGRESSION_RATES)[number];

/**
 * The incident subject of a regression of a model version or a tool's schema version on one rate
 * (the invalid rate keeps the subject it always had: `model:<model>:<version>`, `schema:<tool>:<version>`).
 */
export const regressionSubject = (of: "model" | "schema", name: string, version: string, rate: RegressionRate) =>
  rate === "invalid_rate" ? `${of}:${name}:${version}` : `${of}:${name}:${version}:${rate}`;

/** Which rate a regression incident is about, read from its subject. */
export const regressionRate = (subject: string): RegressionRate => (subject.endsWith(":tool_error_rate") ? "tool_error_rate" : "invalid_rate");

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
 * percent too), latencies in milliseconds, attempts and calls as numbers. `kind` says how a value
 * is written (contracts/format-number.ts).
 */
type MetricKind = "rate" | "attempts" | "count" | "ms";
const PERCENT = { min: 0, max: 1, range: "from 0% to 100%", unit: "a percentage from 0% to 100%", kind: "rate" } as const;
const RANGES: Record<AlertMetricName, { min: number; max: number; range: string; unit: string; kind: MetricKind }> = {
  invalid_rate: PERCENT,
  category_rate: PERCENT,
  attempts_per_success: { min: 1, max: 100, range: "from 1 to 100 attempts", unit: "attempts from 1 to 100", kind: "attempts" },
  call_volume: { min: 0, max: 1e9, range: "a number of calls from 0 up", unit: "a number of calls from 0 up", kind: "count" },
  tool_error_rate: PERCENT,
  empty_result_rate: PERCENT,
  latency_p95: {
    min: 1,
    max: 3_600_000,
    range: "from 1 to 3,600,000 ms (1 hour)",
    unit: "milliseconds from 1 to 3,600,000, e.g. 2000 for 2 s",
    kind: "ms",
  },
  spirals: { min: 0, max: 1_000_000, range: "a number of spirals from 0 to 1,000,000", unit: "a number of spirals from 0 up, e.g. 5", kind: "count" },
};

/**
 * How the UI and the incidents show a metric's value or threshold: "14.29%", "1.06" attempts,
 * "1,200" calls, "2,040 ms". Finer than the dashboards (two decimals of a percent, latencies in
 * the field's milliseconds rather than "2.0 s") so that a value just above its threshold never
 * reads as equal to it.
 */
export function formatMetric(metric: AlertMetricName, value: number): string {
  const kind = RANGES[metric].kind;
  if (kind === "rate") return formatPercent(value, { digits: 2 });
  if (kind === "attempts") return formatNumber(value);
  return kind === "ms" ? `${formatCount(value)} ms` : formatCount(value);
}

/** A refused threshold as it was sent, in the unit of the form's field and unrounded: "140%", "0.5 ms", "-3". */
function sentThreshold(metric: AlertMetricName, value: number): string {
  const kind = RANGES[metric].kind;
  if (kind === "rate") return `${+(value * 100).toPrecision(12)}%`;
  return kind === "ms" ? `${value} ms` : `${value}`;
}

/** The longest rule name (docs/alerts.md): stored whole up to here, refused with a message beyond. */
export const RULE_NAME_MAX = 200;

export const alertRuleInput = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "name the rule")
      .max(RULE_NAME_MAX, {
        error: (issue) =>
          `a rule name is at most ${RULE_NAME_MAX} characters; this one has ${String(issue.input).trim().length}: shorten it (the whole name is kept, never cut)`,
      }),
    metric: alertMetricSchema,
    category: categorySchema.optional(),
    /** spirals: the fewest consecutive failed attempts at one tool that count as a spiral (SPIRAL_LENGTH.default when left out) */
    spiralLength: z
      .number({ error: (issue) => `the spiral length is a whole number of attempts, e.g. 3; you sent ${JSON.stringify(issue.input)}` })
      .int({ error: (issue) => `the spiral length is a whole number of attempts, e.g. 3; you sent ${String(issue.input)}` })
      .min(SPIRAL_LENGTH.min, {
        error: (issue) =>
          `a spiral is at least ${SPIRAL_LENGTH.min} failed attempts in a row; you sent ${String(issue.input)}: send ${SPIRAL_LENGTH.min} to ${SPIRAL_LENGTH.max}`,
      })
      .max(SPIRAL_LENGTH.max, {
        error: (issue) =>
          `the spiral length is at most ${SPIRAL_LENGTH.max} attempts; you sent ${String(issue.input)}: send ${SPIRAL_LENGTH.min} to ${SPIRAL_LENGTH.max}`,
      })
      .optional(),
    scope: z
      .object({ tool: filterText("tool").optional(), model: filterText("model").optional(), modelVersion: filterText("modelVersion").optional() })
      .default({}),
    condition: z.enum(["threshold", "baseline_factor"]),
    threshold: z.number().optional(),
    factor: z.number().gt(1, "the factor must be above 1 (e.g. 2 = twice the baseline)").max(100).optional(),
    baselineMinutes: z.number().int().min(60, "the baseline window is at least 60 minutes").max(43_200, "the baseline window is at most 30 days").optional(),
    windowMinutes: z
      .number()
      .int()
      .min(5, "the evaluation window is 5 minutes to 24 hours (5–1440)")
      .max(1440, "the evaluation window is 5 minutes to 24 hours (5–1440)"),
    minCalls: z
      .number()
      .int({ error: (issue) => `the minimum number of calls is a whole number, e.g. 50; you sent ${String(issue.input)}` })
      .min(0, { error: (issue) => `the minimum number of calls cannot be negative: 0 (no minimum) or more, e.g. 50; you sent ${String(issue.input)}` })
      .max(1_000_000, { error: (issue) => `the minimum number of calls is at most 1,000,000; you sent ${String(issue.input)}` })
      .default(50),
    severity: z.enum(SEVERITIES).default("warning"),
    webhookIds: z.array(z.uuid()).max(20).default([]),
  })
  .superRefine((rule, ctx) => {
    if (rule.metric === "category_rate" && !rule.category) {
      ctx.addIssue({ code: "custom", path: ["category"], message: "choose the category whose rate the rule watches" });
    }
    if (rule.spiralLength !== undefined && rule.metric !== "spirals") {
      ctx.addIssue({
        code: "custom",
        path: ["spiralLength"],
        message: `the spiral length is for spirals rules only; this rule's metric is ${rule.metric}: leave spiralLength out, or set metric to "spirals"`,
      });
    }
    if (rule.metric === "latency_p95" && rule.windowMinutes < 60) {
      ctx.addIssue({
        code: "custom",
        path: ["windowMinutes"],
        message: `a latency p95 rule reads the hourly rollups, so its window is 60 to 1440 minutes; you sent ${rule.windowMinutes}: use 60 or more`,
      });
    }
    if (rule.condition === "baseline_factor" && THRESHOLD_ONLY_METRICS.includes(rule.metric)) {
      ctx.addIssue({
        code: "custom",
        path: ["condition"],
        message: `a ${ALERT_METRIC_LABELS[rule.metric].toLowerCase()} rule takes a threshold; you sent condition "baseline_factor": send condition "threshold" with a threshold`,
      });
    } else if (rule.condition === "threshold") {
      const r = RANGES[rule.metric];
      if (rule.threshold === undefined) ctx.addIssue({ code: "custom", path: ["threshold"], message: `set a threshold: ${r.unit}` });
      else if (rule.threshold < r.min || rule.threshold > r.max) {
        ctx.addIssue({
          code: "custom",
          path: ["threshold"],
          message: `the threshold for ${ALERT_METRIC_LABELS[rule.metric].toLowerCase()} must be ${r.range}; you sent ${sentThreshold(rule.metric, rule.threshold)}`,
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
  name: limitedText("the endpoint name", TEXT_LIMITS.webhookName).min(1, "name the endpoint"),
  url: z
    .url({ protocol: /^https?$/, error: "expected an http(s) URL such as https://hooks.slack.com/services/…" })
    .max(TEXT_LIMITS.webhookUrl, { error: (issue) => tooLongMessage("the URL", TEXT_LIMITS.webhookUrl, String(issue.input).length) }),
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
    tool: limitedText("the tool", TEXT_LIMITS.scopeName).optional(),
    model: limitedText("the model", TEXT_LIMITS.scopeName).optional(),
    minutes: muteMinutes,
    reason: limitedText("the reason", TEXT_LIMITS.silenceReason).min(1, "say why (shown on the silenced incidents), e.g. “planned migration of getloan”"),
  })
  .refine((s) => s.ruleId || s.tool || s.model, { path: ["ruleId"], message: "choose a rule, or a tool and/or a model to silence" });
export type SilenceInput = z.infer<typeof silenceInput>;

/**
 * Who is on an incident and the responders' note. `assigneeId` is a member's user id, or null for
 * nobody; a note of only spaces clears it. A field left out stays as it is.
 */
export const incidentTriageInput = z.object({
  assigneeId: z.uuid("the assignee is a member's user id (members.list lists them), or null for nobody").nullable().optional(),
  note: limitedText("the note", TEXT_LIMITS.incidentNote).nullable().optional(),
});
export type IncidentTriageInput = z.infer<typeof incidentTriageInput>;

/** The note sent with Acknowledge, Resolve or Snooze, on the incident's timeline. */
export const actionNoteSchema = limitedText("the note", TEXT_LIMITS.actionNote);
export const snoozeInput = z.object({ minutes: muteMinutes, note: actionNoteSchema.optional() });

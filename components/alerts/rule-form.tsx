"use client";

import { keepPreviousData, skipToken, useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import {
  ALERT_METRIC_DESCRIPTIONS,
  ALERT_METRIC_LABELS,
  alertRuleInput,
  COUNT_METRICS,
  readAlertMetric,
  RULE_NAME_MAX,
  SAMPLE_NOUNS,
  SEVERITIES,
  SPIRAL_LENGTH,
  THRESHOLD_ONLY_METRICS,
  type AlertMetricName,
  type AlertRuleInput,
} from "../../contracts/alerts";
import { CATEGORIES, CATEGORY_LABELS } from "../../contracts/categories";
import { formErrors } from "../form-errors";
import { useTRPC } from "../trpc-provider";
import { Alert, Button, Field, Input, Select } from "../ui";
import { isRateMetric } from "./format";
import type { RuleView } from "./rule-view";
import { RulePreview } from "./rule-preview";

const FIELDS = [
  "rule.name",
  "rule.metric",
  "rule.category",
  "rule.spiralLength",
  "rule.scope.tool",
  "rule.scope.model",
  "rule.scope.modelVersion",
  "rule.condition",
  "rule.threshold",
  "rule.factor",
  "rule.baselineMinutes",
  "rule.windowMinutes",
  "rule.minCalls",
  "rule.severity",
  "rule.webhookIds",
] as const;

const BASELINES = [
  { value: 360, label: "6 hours" },
  { value: 1440, label: "24 hours" },
  { value: 4320, label: "3 days" },
  { value: 10080, label: "7 days" },
  { value: 43200, label: "30 days" },
];

const UNITS: Record<AlertMetricName, { label: string; hint: string }> = {
  invalid_rate: { label: "Threshold (%)", hint: "0–100: fires when the invalid rate is above it." },
  category_rate: { label: "Threshold (%)", hint: "0–100: the category's share of all calls in scope." },
  attempts_per_success: { label: "Threshold (attempts)", hint: "1–100: observed attempts per successful call, e.g. 1.2." },
  call_volume: { label: "Threshold (calls)", hint: "Fires when more calls than this arrive in the window." },
  tool_error_rate: { label: "Threshold (%)", hint: "0–100: failed results (error, not found, timeout, not allowed) over all results." },
  empty_result_rate: { label: "Threshold (%)", hint: "0–100: ok results that said nothing (empty, null, [] or {}) over all results." },
  latency_p95: { label: "Threshold (ms)", hint: "Milliseconds, 1–3,600,000: fires when the p95 latency is above it, e.g. 2000 for 2 s." },
  spirals: { label: "Threshold (spirals)", hint: "Fires when more spirals than this start or go on in the window; 0 fires on the first one." },
};

type Draft = {
  name: string;
  metric: AlertMetricName;
  category: string;
  spiralLength: string;
  tool: string;
  model: string;
  modelVersion: string;
  condition: "threshold" | "baseline_factor";
  threshold: string;
  factor: string;
  baselineMinutes: string;
  windowMinutes: string;
  minCalls: string;
  severity: string;
  webhookIds: string[];
};

const shown = (n: number) => String(+n.toPrecision(12));

function draftOf(rule: RuleView | null): Draft {
  if (!rule) {
    return {
      name: "",
      metric: "invalid_rate",
      category: "",
      spiralLength: String(SPIRAL_LENGTH.default),
      tool: "",
      model: "",
      modelVersion: "",
      condition: "threshold",
      threshold: "",
      factor: "2",
      baselineMinutes: "10080",
      windowMinutes: "60",
      minCalls: "50",
      severity: "warning",
      webhookIds: [],
    };
  }
  const metric = readAlertMetric(rule.metric);
  return {
    name: rule.name,
    metric,
    category: rule.category ?? "",
    spiralLength: String(rule.spiralLength ?? SPIRAL_LENGTH.default),
    tool: rule.scope.tool ?? "",
    model: rule.scope.model ?? "",
    modelVersion: rule.scope.modelVersion ?? "",
    condition: rule.condition === "baseline_factor" ? "baseline_factor" : "threshold",
    threshold: rule.threshold === null ? "" : shown(isRateMetric(metric) ? rule.threshold * 100 : rule.threshold),
    factor: rule.factor === null ? "2" : shown(rule.factor),
    baselineMinutes: String(rule.baselineMinutes ?? 10080),
    windowMinutes: String(rule.windowMinutes),
    minCalls: String(rule.minCalls),
    severity: rule.severity,
    webhookIds: rule.webhookIds,
  };
}

const numberOrUndefined = (s: string) => (s.trim() === "" ? undefined : Number(s));

/** The draft as alerts.createRule takes it: rates typed in percent are sent as fractions. */
function inputOf(d: Draft) {
  const threshold = numberOrUndefined(d.threshold);
  const rate = isRateMetric(d.metric);
  return {
    name: d.name,
    metric: d.metric,
    ...(d.metric === "category_rate" && d.category ? { category: d.category as (typeof CATEGORIES)[number] } : {}),
    ...(d.metric === "spirals" ? { spiralLength: numberOrUndefined(d.spiralLength) } : {}),
    scope: {
      ...(d.tool.trim() ? { tool: d.tool.trim() } : {}),
      ...(d.model.trim() ? { model: d.model.trim() } : {}),
      ...(d.modelVersion.trim() ? { modelVersion: d.modelVersion.trim() } : {}),
    },
    condition: d.condition,
    ...(d.condition === "threshold"
      ? { threshold: threshold === undefined ? undefined : rate ? threshold / 100 : threshold }
      : { factor: numberOrUndefined(d.factor), baselineMinutes: numberOrUndefined(d.baselineMinutes) }),
    windowMinutes: numberOrUndefined(d.windowMinutes) as number,
    minCalls: numberOrUndefined(d.minCalls) ?? 0,
    severity: d.severity as (typeof SEVERITIES)[number],
    webhookIds: d.webhookIds,
  };
}

/** "No calls of “get_loan” in the last 30 days…" when a typed scope matches nothing the project has seen. */
function unseen(kind: "tool" | "model", value: string, seen: readonly string[]) {
  const v = value.trim();
  if (!v || seen.includes(v)) return undefined;
  return `No calls of ${kind} “${v}” in the last 30 days: the rule will have no data until some arrive. Names match exactly; pick one from the list.`;
}

/** The draft's preview, asked for half a second after the last change, while the draft is a valid rule. */
function useRulePreview(slug: string, d: Draft) {
  const trpc = useTRPC();
  const parsed = alertRuleInput.safeParse({ ...inputOf(d), name: d.name.trim() || "preview" });
  const key = parsed.success ? JSON.stringify(parsed.data) : null;
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), 500);
    return () => clearTimeout(timer);
  }, [key]);
  const query = useQuery({
    ...trpc.alerts.preview.queryOptions(settled ? { project: slug, rule: JSON.parse(settled) as AlertRuleInput, days: 7 } : skipToken),
    placeholderData: keepPreviousData,
  });
  return { ...query, complete: !!key };
}

/** Creates a rule, or edits `rule`. Validation is the server's: its messages appear beside the fields. */
export function RuleForm({
  slug,
  rule,
  webhooks,
  tools,
  models,
  onDone,
  onCancel,
}: {
  slug: string;
  rule: RuleView | null;
  webhooks: { id: string; name: string }[];
  tools: string[];
  models: { model: string; version: string }[];
  onDone: () => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const [d, setD] = useState<Draft>(() => draftOf(rule));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setD((prev) => ({ ...prev, [key]: value }));
  const create = useMutation(trpc.alerts.createRule.mutationOptions({ onSuccess: onDone }));
  const update = useMutation(trpc.alerts.updateRule.mutationOptions({ onSuccess: onDone }));
  const mutation = rule ? update : create;
  const errors = formErrors(mutation.error, FIELDS);
  const err = (field: (typeof FIELDS)[number]) => {
    const message = errors.field[field];
    // zod's own words for a field that is no number at all (empty, "abc"); its other messages say what is wrong
    return message && /expected number, received/i.test(message) ? "Enter a number." : message;
  };
  const id = (name: string) => `rule-${name}`;
  const preview = useRulePreview(slug, d);
  const modelNames = [...new Set(models.map((m) => m.model))];
  const toolWarning = unseen("tool", d.tool, tools);
  const modelWarning = unseen("model", d.model, modelNames);
  // A scope no call has had in 30 days is most often a typo: saving asks first. A rule being
  // edited keeps the scope it was saved with without asking again.
  const [saved] = useState(() => draftOf(rule));
  const unseenScope = [
    toolWarning && d.tool.trim() !== saved.tool.trim() ? `tool “${d.tool.trim()}”` : null,
    modelWarning && d.model.trim() !== saved.model.trim() ? `model “${d.model.trim()}”` : null,
  ].filter((x) => x !== null);
  const [asking, setAsking] = useState(false);

  function save() {
    setAsking(false);
    const input = inputOf(d);
    if (rule) update.mutate({ project: slug, id: rule.id, rule: input });
    else create.mutate({ project: slug, rule: input });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (unseenScope.length > 0 && !asking) setAsking(true);
    else save();
  }

  /** "Change the scope": back to the first unseen field, nothing saved. */
  function changeScope() {
    setAsking(false);
    document.getElementById(id(toolWarning && d.tool.trim() !== saved.tool.trim() ? "tool" : "model"))?.focus();
  }

  const thresholdOnly = THRESHOLD_ONLY_METRICS.includes(d.metric);
  const chooseMetric = (metric: AlertMetricName) =>
    setD((prev) => ({ ...prev, metric, condition: THRESHOLD_ONLY_METRICS.includes(metric) ? "threshold" : prev.condition }));
  const versions = [...new Set(models.filter((m) => m.version && (!d.model || m.model === d.model)).map((m) => m.version))];
  const baselineOptions = BASELINES.some((b) => String(b.value) === d.baselineMinutes)
    ? BASELINES
    : [...BASELINES, { value: Number(d.baselineMinutes), label: `${d.baselineMinutes} minutes` }];

  return (
    <form onSubmit={submit} noValidate aria-label={rule ? "Edit rule" : "New rule"} className="space-y-5">
      {errors.form && <Alert tone="error">{errors.form}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" htmlFor={id("name")} error={err("rule.name")} hint={`Shown on incidents and in notifications; up to ${RULE_NAME_MAX} characters.`}>
          <Input id={id("name")} value={d.name} onChange={(e) => set("name", e.target.value)} invalid={!!err("rule.name")} autoComplete="off" />
        </Field>
        <Field label="Severity" htmlFor={id("severity")} error={err("rule.severity")}>
          <Select id={id("severity")} value={d.severity} onChange={(e) => set("severity", e.target.value)}>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          label="Metric"
          htmlFor={id("metric")}
          error={err("rule.metric")}
          hint={<span data-testid="metric-description">{ALERT_METRIC_DESCRIPTIONS[d.metric]}</span>}
        >
          <Select id={id("metric")} value={d.metric} onChange={(e) => chooseMetric(e.target.value as AlertMetricName)}>
            {Object.entries(ALERT_METRIC_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        {d.metric === "category_rate" ? (
          <Field label="Category" htmlFor={id("category")} error={err("rule.category")}>
            <Select id={id("category")} value={d.category} onChange={(e) => set("category", e.target.value)} invalid={!!err("rule.category")}>
              <option value="">Choose a category…</option>
              {CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {CATEGORY_LABELS[c]}
                </option>
              ))}
            </Select>
          </Field>
        ) : d.metric === "spirals" ? (
          <Field
            label="Spiral length (failed attempts in a row)"
            htmlFor={id("spiral-length")}
            error={err("rule.spiralLength")}
            hint={`${SPIRAL_LENGTH.min}–${SPIRAL_LENGTH.max}: a run counts as a spiral from this many consecutive failed attempts at one tool.`}
          >
            <Input
              id={id("spiral-length")}
              type="number"
              step={1}
              min={SPIRAL_LENGTH.min}
              max={SPIRAL_LENGTH.max}
              inputMode="numeric"
              value={d.spiralLength}
              onChange={(e) => set("spiralLength", e.target.value)}
              invalid={!!err("rule.spiralLength")}
            />
          </Field>
        ) : (
          <div />
        )}
      </div>

      <fieldset>
        <legend className="font-medium text-slate-800">Scope</legend>
        <p className="mb-2 text-xs text-slate-500">Leave empty to watch the whole project; fill any combination to narrow it.</p>
        <div className="grid gap-4 sm:grid-cols-3">
          <Field
            label="Tool"
            htmlFor={id("tool")}
            error={err("rule.scope.tool")}
            hint={
              toolWarning && (
                <span className="text-amber-800" data-testid="scope-warning">
                  {toolWarning}
                </span>
              )
            }
          >
            <Input id={id("tool")} list={id("tools")} value={d.tool} onChange={(e) => set("tool", e.target.value)} placeholder="any tool" autoComplete="off" />
          </Field>
          <Field
            label="Model"
            htmlFor={id("model")}
            error={err("rule.scope.model")}
            hint={
              modelWarning && (
                <span className="text-amber-800" data-testid="scope-warning">
                  {modelWarning}
                </span>
              )
            }
          >
            <Input
              id={id("model")}
              list={id("models")}
              value={d.model}
              onChange={(e) => set("model", e.target.value)}
              placeholder="any model"
              autoComplete="off"
            />
          </Field>
          <Field label="Model version" htmlFor={id("version")} error={err("rule.scope.modelVersion")}>
            <Input
              id={id("version")}
              list={id("versions")}
              value={d.modelVersion}
              onChange={(e) => set("modelVersion", e.target.value)}
              placeholder="any version"
              autoComplete="off"
            />
          </Field>
        </div>
        <datalist id={id("tools")}>
          {tools.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <datalist id={id("models")}>
          {modelNames.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <datalist id={id("versions")}>
          {versions.map((v) => (
            <option key={v} value={v} />
          ))}
        </datalist>
      </fieldset>

      <fieldset>
        <legend className="font-medium text-slate-800">Condition</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          <label className="inline-flex items-center gap-2 text-slate-700">
            <input
              type="radio"
              name={id("condition")}
              checked={d.condition === "threshold"}
              onChange={() => set("condition", "threshold")}
              className="accent-indigo-600"
            />
            Above a threshold
          </label>
          <label className={`inline-flex items-center gap-2 ${thresholdOnly ? "text-slate-500" : "text-slate-700"}`}>
            <input
              type="radio"
              name={id("condition")}
              checked={d.condition === "baseline_factor"}
              onChange={() => set("condition", "baseline_factor")}
              disabled={thresholdOnly}
              className="accent-indigo-600"
            />
            Above a baseline window by a factor
          </label>
        </div>
        {thresholdOnly && <p className="mt-1 text-xs text-slate-500">A {ALERT_METRIC_LABELS[d.metric].toLowerCase()} rule takes a threshold only.</p>}
        {err("rule.condition") && <p className="mt-1 text-red-700">{err("rule.condition")}</p>}
        <div className="mt-3 grid gap-4 sm:grid-cols-3">
          {d.condition === "threshold" ? (
            <Field label={UNITS[d.metric].label} htmlFor={id("threshold")} error={err("rule.threshold")} hint={UNITS[d.metric].hint}>
              <Input
                id={id("threshold")}
                type="number"
                step="any"
                inputMode="decimal"
                value={d.threshold}
                onChange={(e) => set("threshold", e.target.value)}
                invalid={!!err("rule.threshold")}
              />
            </Field>
          ) : (
            <>
              <Field label="Factor" htmlFor={id("factor")} error={err("rule.factor")} hint="Above 1: 2 fires at twice the baseline.">
                <Input
                  id={id("factor")}
                  type="number"
                  step="any"
                  inputMode="decimal"
                  value={d.factor}
                  onChange={(e) => set("factor", e.target.value)}
                  invalid={!!err("rule.factor")}
                />
              </Field>
              <Field label="Baseline window" htmlFor={id("baseline")} error={err("rule.baselineMinutes")} hint="The period just before the evaluation window.">
                <Select id={id("baseline")} value={d.baselineMinutes} onChange={(e) => set("baselineMinutes", e.target.value)}>
                  {baselineOptions.map((b) => (
                    <option key={b.value} value={b.value}>
                      {b.label}
                    </option>
                  ))}
                </Select>
              </Field>
            </>
          )}
          <Field
            label="Evaluation window (minutes)"
            htmlFor={id("window")}
            error={err("rule.windowMinutes")}
            hint={d.metric === "latency_p95" ? "60 to 1440 (24 h): latency is read from hourly rollups." : "5 to 1440 (24 h)."}
          >
            <Input
              id={id("window")}
              type="number"
              step={1}
              inputMode="numeric"
              value={d.windowMinutes}
              onChange={(e) => set("windowMinutes", e.target.value)}
              invalid={!!err("rule.windowMinutes")}
            />
          </Field>
          <Field
            label="Minimum calls"
            htmlFor={id("min-calls")}
            error={err("rule.minCalls")}
            hint={
              COUNT_METRICS.includes(d.metric)
                ? "Not used by counts: they have no minimum."
                : `The rule stays quiet below this many ${SAMPLE_NOUNS[d.metric]} in the window.`
            }
          >
            <Input
              id={id("min-calls")}
              type="number"
              step={1}
              min={0}
              inputMode="numeric"
              value={d.minCalls}
              onChange={(e) => set("minCalls", e.target.value)}
              invalid={!!err("rule.minCalls")}
            />
          </Field>
        </div>
      </fieldset>

      <fieldset>
        <legend className="font-medium text-slate-800">Notify</legend>
        {webhooks.length === 0 ? (
          <p className="mt-1 text-slate-500">No webhook endpoints yet: incidents show here only. Add endpoints under Settings → Webhooks.</p>
        ) : (
          <>
            <p className="mb-2 text-xs text-slate-500">None chosen: every enabled endpoint of the project is notified.</p>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {webhooks.map((w) => (
                <label key={w.id} className="inline-flex items-center gap-2 text-slate-700">
                  <input
                    type="checkbox"
                    className="accent-indigo-600"
                    checked={d.webhookIds.includes(w.id)}
                    onChange={(e) => set("webhookIds", e.target.checked ? [...d.webhookIds, w.id] : d.webhookIds.filter((x) => x !== w.id))}
                  />
                  {w.name}
                </label>
              ))}
            </div>
          </>
        )}
        {err("rule.webhookIds") && <p className="mt-1 text-red-700">{err("rule.webhookIds")}</p>}
      </fieldset>

      <section aria-label="Preview" aria-live="polite" className="rounded-md border border-slate-200 p-3">
        {!preview.complete ? (
          <p className="text-slate-600" data-testid="preview-incomplete">
            Complete the condition to see what this rule would have done over the last 7 days.
          </p>
        ) : preview.error ? (
          <Alert tone="error">The preview failed: {preview.error.message}</Alert>
        ) : preview.data ? (
          <RulePreview preview={preview.data} metric={d.metric} />
        ) : (
          <p className="text-slate-600">Computing the preview…</p>
        )}
      </section>

      {asking && unseenScope.length > 0 && (
        <div
          role="alertdialog"
          aria-labelledby={id("unseen-question")}
          className="rounded-md border border-amber-300 bg-amber-50 p-3"
          data-testid="unseen-scope"
        >
          <p id={id("unseen-question")} className="text-amber-900">
            No calls of {unseenScope.join(" or ")} in the last 30 days: the rule will have no data until some arrive. Keep this scope?
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button onClick={save} disabled={mutation.isPending}>
              Keep it and save
            </Button>
            <Button variant="secondary" onClick={changeScope}>
              Change the scope
            </Button>
          </div>
        </div>
      )}

      <div className="flex gap-2 border-t border-slate-100 pt-4">
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? "Saving…" : rule ? "Save rule" : "Create rule"}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

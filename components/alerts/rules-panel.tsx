"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useTRPC } from "../trpc-provider";
import { Alert, Badge, Button, Card, cx, Truncated } from "../ui";
import { ConfirmButton } from "../confirm-button";
import Link from "next/link";
import { RuleStateBadge, SeverityBadge } from "./badges";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { RuleForm } from "./rule-form";
import { describeRule, ruleScopeText, ruleStateText, type RuleView } from "./rule-view";
import { formatCount } from "../../contracts/format-number";

type Props = {
  slug: string;
  rules: RuleView[];
  regressionTest: string;
  canManage: boolean;
  webhooks: { id: string; name: string }[];
  tools: string[];
  models: { model: string; version: string }[];
  /** the viewer's time zone (pageTimeZone) */
  zone: string;
};

/** The project's alert rules: the regression guard, then the rules admins made; admins switch, edit, add and delete. */
export function RulesPanel({ slug, rules, regressionTest, canManage, webhooks, tools, models, zone }: Props) {
  const trpc = useTRPC();
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const refresh = () => startTransition(() => router.refresh());
  const [editing, setEditing] = useState<RuleView | "new" | null>(null);
  const toggle = useMutation(trpc.alerts.setRuleEnabled.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.alerts.deleteRule.mutationOptions({ onSettled: refresh }));
  const guard = rules.find((r) => r.builtIn);
  const custom = rules.filter((r) => !r.builtIn);
  const webhookName = new Map(webhooks.map((w) => [w.id, w.name]));
  const error = toggle.error ?? remove.error;

  const switchFor = (rule: RuleView) => (
    <RuleSwitch
      name={rule.name}
      enabled={rule.enabled}
      disabled={!canManage || toggle.isPending || refreshing}
      onChange={(enabled) => toggle.mutate({ project: slug, id: rule.id, enabled })}
    />
  );

  const form = editing && (
    <Card title={editing === "new" ? "New rule" : `Edit “${editing.name}”`} className="border-indigo-200">
      <RuleForm
        key={editing === "new" ? "new" : editing.id}
        slug={slug}
        rule={editing === "new" ? null : editing}
        webhooks={webhooks}
        tools={tools}
        models={models}
        onCancel={() => setEditing(null)}
        onDone={() => {
          setEditing(null);
          refresh();
        }}
      />
    </Card>
  );

  return (
    <div className="space-y-6">
      {error && <Alert tone="error">{error.message}</Alert>}
      {guard && (
        <Card>
          <div className="flex items-start gap-4" data-testid="regression-guard">
            <div className="pt-0.5">{switchFor(guard)}</div>
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                <Link href={`/p/${slug}/alerts/rules/${guard.id}`} className="min-w-0 max-w-full hover:text-indigo-700 hover:underline">
                  <Truncated text={guard.name} max="max-w-full" />
                </Link>
                {guard.enabled && <RuleStateBadge state={guard.lastState} />}
                <Badge tone="indigo">built in</Badge>
                <SeverityBadge severity={guard.severity} />
                {!guard.enabled && <Badge>off</Badge>}
              </p>
              <p className="mt-1 text-slate-600">
                Compares each model&apos;s newest version with its previous version on two rates: the invalid rate over each version&apos;s checked calls, and
                the tool error rate over its results; and each tool&apos;s newest schema with the previous one on the same two rates. Each regression is an
                incident of its own. Test:{" "}
                <span className="font-medium text-slate-800" data-testid="regression-test">
                  {regressionTest}
                </span>
                .
              </p>
              <p className="mt-1 text-xs text-slate-500">
                On by default for every project; it can be switched off but not edited or deleted. One incident per regressed version, resolved by hand.
                {guard.lastEvaluatedAt && ` Last evaluated ${formatDateTimeZoned(guard.lastEvaluatedAt, zone)}.`}
              </p>
            </div>
          </div>
        </Card>
      )}

      <Card
        title="Rules"
        description="Each rule is evaluated every minute over its window; it fires once and resolves after its condition has been clear for a whole window."
        actions={
          canManage && editing !== "new" ? (
            <Button onClick={() => setEditing("new")} className="shrink-0">
              New rule
            </Button>
          ) : undefined
        }
      >
        {custom.length === 0 ? (
          <p className="text-slate-500" data-testid="no-rules">
            No rules yet
            {canManage
              ? ": add one to watch a rate (invalid calls, tool errors, empty results), the latency, retry spirals or the call volume."
              : "; admins add them."}
          </p>
        ) : (
          <ul className="-my-4 divide-y divide-slate-100" aria-label="Rules">
            {custom.map((rule) => (
              <li key={rule.id} data-testid="rule-row" className="flex flex-wrap items-start gap-x-4 gap-y-2 py-4">
                <div className="pt-0.5">{switchFor(rule)}</div>
                <div className="min-w-0 flex-1 basis-56 [overflow-wrap:anywhere]">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <Link href={`/p/${slug}/alerts/rules/${rule.id}`} className="min-w-0 max-w-full hover:text-indigo-700 hover:underline">
                      <Truncated text={rule.name} max="max-w-full" />
                    </Link>
                    {rule.enabled && <RuleStateBadge state={rule.lastState} />}
                    <SeverityBadge severity={rule.severity} />
                    {!rule.enabled && <Badge>off</Badge>}
                  </p>
                  <p className="mt-0.5 text-slate-600">{describeRule(rule)}</p>
                  {rule.enabled && (
                    <p className="mt-0.5 text-slate-800" data-testid="rule-state-text">
                      {ruleStateText(rule, zone)}
                      {rule.lastEvaluatedAt && <span className="text-xs text-slate-600"> · evaluated {formatDateTimeZoned(rule.lastEvaluatedAt, zone)}</span>}
                    </p>
                  )}
                  <p className="mt-0.5 text-xs text-slate-500">
                    Scope: {ruleScopeText(rule)} · at least {formatCount(rule.minCalls)} calls · notifies{" "}
                    {rule.webhookIds.length ? rule.webhookIds.map((id) => webhookName.get(id) ?? "a deleted endpoint").join(", ") : "every endpoint"}
                  </p>
                </div>
                {canManage && (
                  <div className="ml-14 flex shrink-0 items-center gap-2 sm:ml-0">
                    <ConfirmButton
                      label={`Delete ${rule.name}`}
                      question="Delete it and its incidents?"
                      pending={remove.isPending}
                      onConfirm={(close) => remove.mutate({ project: slug, id: rule.id }, { onSuccess: close })}
                      beside={
                        <Button variant="secondary" size="sm" aria-label={`Edit ${rule.name}`} onClick={() => setEditing(rule)}>
                          Edit
                        </Button>
                      }
                    >
                      Delete
                    </ConfirmButton>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {form}
    </div>
  );
}

function RuleSwitch({ name, enabled, disabled, onChange }: { name: string; enabled: boolean; disabled: boolean; onChange: (enabled: boolean) => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={enabled}
      aria-label={`${name}: ${enabled ? "on" : "off"}`}
      title={disabled ? undefined : enabled ? "Switch off" : "Switch on"}
      disabled={disabled}
      onClick={() => onChange(!enabled)}
      className={cx(
        "relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 disabled:cursor-not-allowed",
        enabled ? "bg-indigo-600" : "bg-slate-300",
        disabled && "opacity-60",
      )}
    >
      <span className={cx("inline-block h-4 w-4 rounded-full bg-white shadow transition-transform", enabled ? "translate-x-[1.125rem]" : "translate-x-0.5")} />
    </button>
  );
}

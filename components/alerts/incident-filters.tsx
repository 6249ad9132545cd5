"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { Select } from "../ui";

type Option = { value: string; label: string };

/**
 * Filters of the incident list, kept in the URL (?state=&ruleId=&tool=&model=). A GET form:
 * without JavaScript "Apply" submits it; with it, choosing applies at once.
 */
export function IncidentFilters({
  action,
  current,
  rules,
  tools,
  models,
}: {
  action: string;
  current: { state?: string; ruleId?: string; tool?: string; model?: string };
  rules: Option[];
  tools: string[];
  models: string[];
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const go = (form: HTMLFormElement) => {
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (typeof value === "string" && value) query.append(key, value);
    const qs = query.toString();
    startTransition(() => router.push(qs ? `${action}?${qs}` : action));
  };
  const withCurrent = (values: string[], value?: string) => (value && !values.includes(value) ? [...values, value] : values);
  const field = "min-w-40 flex-1";
  const label = "mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500";
  const active = Object.values(current).some(Boolean);

  return (
    <form
      method="get"
      action={action}
      aria-label="Incident filters"
      aria-busy={pending || undefined}
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        go(e.currentTarget);
      }}
      onChange={(e) => go(e.currentTarget)}
    >
      <div className={field}>
        <label htmlFor="f-state" className={label}>
          State
        </label>
        <Select id="f-state" name="state" defaultValue={current.state ?? ""}>
          <option value="">Any state</option>
          <option value="firing">Firing</option>
          <option value="acknowledged">Acknowledged</option>
          <option value="resolved">Resolved</option>
        </Select>
      </div>
      <div className={field}>
        <label htmlFor="f-rule" className={label}>
          Rule
        </label>
        <Select id="f-rule" name="ruleId" defaultValue={current.ruleId ?? ""}>
          <option value="">Any rule</option>
          {rules.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </Select>
      </div>
      <div className={field}>
        <label htmlFor="f-tool" className={label}>
          Tool
        </label>
        <Select id="f-tool" name="tool" defaultValue={current.tool ?? ""}>
          <option value="">Any tool</option>
          {withCurrent(tools, current.tool).map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </div>
      <div className={field}>
        <label htmlFor="f-model" className={label}>
          Model
        </label>
        <Select id="f-model" name="model" defaultValue={current.model ?? ""}>
          <option value="">Any model</option>
          {withCurrent(models, current.model).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </Select>
      </div>
      <noscript>
        <button type="submit" className="rounded-md bg-indigo-600 px-3 py-2 font-medium text-white">
          Apply
        </button>
      </noscript>
      {active && (
        <Link href={action} className="py-2 text-sm font-medium text-indigo-700 hover:underline">
          Clear filters
        </Link>
      )}
    </form>
  );
}

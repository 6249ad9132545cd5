// Silence, snooze and triage: plain HTML forms posting to app/api/forms (silence, end-silence, snooze, triage),
// which run the same tRPC procedures and come back to `back` — with or without JavaScript.

import { MUTE_DURATIONS } from "../../contracts/alerts";
import { formatDateTimeZoned } from "../../isomorphic/time-zone";
import { Alert, Button, Field, Input, Select, shortLabel, Textarea } from "../ui";
import { scopeText } from "./format";
import { CountedInput } from "../counted-input";
import { TEXT_LIMITS } from "../../contracts/text-limits";

function Hidden({ values }: { values: Record<string, string> }) {
  return Object.entries(values).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}

function DurationField({ id, label }: { id: string; label: string }) {
  return (
    <Field label={label} htmlFor={id}>
      <Select id={id} name="minutes" defaultValue="60">
        {MUTE_DURATIONS.map((d) => (
          <option key={d.minutes} value={d.minutes}>
            {d.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/**
 * Silences a rule (`ruleId`) or, without one, a scope typed or picked from what the project
 * has seen. Incidents under a silence are still recorded, marked silenced, and sent nowhere.
 */
export function SilenceForm({
  slug,
  back,
  ruleId,
  tools = [],
  models = [],
  error,
}: {
  slug: string;
  back: string;
  ruleId?: string;
  tools?: string[];
  models?: string[];
  error?: string;
}) {
  const id = (name: string) => `silence-${name}`;
  return (
    <form method="post" action="/api/forms/silence" aria-label={ruleId ? "Silence this rule" : "Silence a scope"} className="space-y-3">
      <Hidden values={{ project: slug, back, ...(ruleId ? { ruleId } : {}) }} />
      {error && <Alert tone="error">{error}</Alert>}
      {!ruleId && (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Tool" htmlFor={id("tool")} hint="Incidents scoped to this tool.">
            <Input id={id("tool")} name="tool" list={id("tools")} placeholder="any tool" autoComplete="off" />
          </Field>
          <Field label="Model" htmlFor={id("model")} hint="Incidents scoped to this model.">
            <Input id={id("model")} name="model" list={id("models")} placeholder="any model" autoComplete="off" />
          </Field>
          <datalist id={id("tools")}>
            {tools.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
          <datalist id={id("models")}>
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </div>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <DurationField id={id(ruleId ? "rule-minutes" : "minutes")} label="For" />
        <Field label="Why" htmlFor={id(ruleId ? "rule-reason" : "reason")} hint="Shown on every incident it silences, with your name.">
          <CountedInput
            max={TEXT_LIMITS.silenceReason}
            id={id(ruleId ? "rule-reason" : "reason")}
            name="reason"
            required
            placeholder="e.g. planned getloan migration"
          />
        </Field>
      </div>
      <Button type="submit" variant="secondary">
        {ruleId ? "Silence this rule" : "Silence"}
      </Button>
    </form>
  );
}

type Silence = {
  id: string;
  ruleId: string | null;
  scopeTool: string | null;
  scopeModel: string | null;
  reason: string;
  createdBy: string;
  endsAt: Date | string;
  rule: { name: string } | null;
};

/** The silences in force, each with who, why, until when, and a button that ends it. */
export function SilenceList({ slug, back, silences, canEnd, zone }: { slug: string; back: string; silences: Silence[]; canEnd: boolean; zone: string }) {
  if (!silences.length) return <p className="text-slate-500">No silences in force.</p>;
  return (
    <ul className="-my-3 divide-y divide-slate-100" aria-label="Silences">
      {silences.map((s) => (
        <li key={s.id} data-testid="silence-row" className="flex flex-wrap items-center gap-3 py-3">
          <div className="min-w-0 flex-1">
            <p className="font-medium text-slate-900">{s.rule ? `Rule “${s.rule.name}”` : scopeText({ tool: s.scopeTool, model: s.scopeModel })}</p>
            <p className="text-xs text-slate-600">
              until {formatDateTimeZoned(s.endsAt, zone)} · by {s.createdBy} · {s.reason}
            </p>
          </div>
          {canEnd && (
            <form method="post" action="/api/forms/end-silence">
              <Hidden values={{ project: slug, back, id: s.id }} />
              <Button type="submit" variant="secondary" size="sm">
                End silence
              </Button>
            </form>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Snoozes an open incident: it stays open but leaves the firing count until then. */
export function SnoozeForm({ slug, back, id, error }: { slug: string; back: string; id: string; error?: string }) {
  return (
    <form method="post" action="/api/forms/snooze" aria-label="Snooze" className="space-y-3">
      <Hidden values={{ project: slug, back, id }} />
      {error && <Alert tone="error">{error}</Alert>}
      <div className="grid gap-3 sm:grid-cols-2">
        <DurationField id="snooze-minutes" label="Snooze for" />
        <Field label="Reason (optional)" htmlFor="snooze-note">
          <CountedInput max={TEXT_LIMITS.actionNote} id="snooze-note" name="note" autoComplete="off" placeholder="e.g. after the deploy" />
        </Field>
      </div>
      <Button type="submit" variant="secondary">
        Snooze
      </Button>
    </form>
  );
}

/**
 * Who is on an incident (a member of the project, or nobody) and the responders' note, shown on
 * the incident list and sent in its webhooks. Members and above change them.
 */
export function TriageForm({
  slug,
  back,
  id,
  assigneeId,
  note,
  members,
}: {
  slug: string;
  back: string;
  id: string;
  assigneeId: string | null;
  note: string | null;
  members: { id: string; email: string; name: string }[];
}) {
  return (
    <form method="post" action="/api/forms/triage" aria-label="Assignee and note" className="space-y-3">
      <Hidden values={{ project: slug, back, id }} />
      <Field label="Assignee" htmlFor="triage-assignee">
        <Select id="triage-assignee" name="assigneeId" defaultValue={assigneeId ?? ""}>
          <option value="">Nobody</option>
          {members.map((m) => (
            <option key={m.id} value={m.id}>
              {shortLabel(m.name ? `${m.name} (${m.email})` : m.email)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Note" htmlFor="triage-note" hint="Shown on the incident list and sent in its webhooks, e.g. “rolled back to 2026-09, watching”.">
        <Textarea id="triage-note" name="note" defaultValue={note ?? ""} rows={2} />
      </Field>
      <Button type="submit" variant="secondary">
        Save assignee and note
      </Button>
    </form>
  );
}

import type { RuleState } from "../../contracts/alerts";
import { Badge } from "../ui";
import { severityTone, stateTone } from "./format";
import { RULE_STATE_LABELS, ruleStateTone } from "./rule-view";

export function StateBadge({ state }: { state: string }) {
  return (
    <span data-testid="incident-state" data-state={state}>
      <Badge tone={stateTone(state)}>{state}</Badge>
    </span>
  );
}

export function SeverityBadge({ severity }: { severity: string }) {
  return <Badge tone={severityTone(severity)}>{severity}</Badge>;
}

/** A rule's state from its last evaluation (rule-view.ts says what each means). */
export function RuleStateBadge({ state }: { state: string | null }) {
  return (
    <span data-testid="rule-state" data-state={state ?? "unevaluated"}>
      <Badge tone={ruleStateTone(state)}>{state && state in RULE_STATE_LABELS ? RULE_STATE_LABELS[state as RuleState] : "Not evaluated"}</Badge>
    </span>
  );
}

/** "silenced" and "snoozed until 14:05 UTC" beside an incident's state. */
export function MuteBadges({ silenced, snoozedUntil, now }: { silenced: boolean; snoozedUntil: Date | string | null; now: Date }) {
  const snoozed = snoozedUntil && new Date(snoozedUntil) > now;
  return (
    <>
      {silenced && (
        <span data-testid="incident-silenced">
          <Badge>silenced</Badge>
        </span>
      )}
      {snoozed && (
        <span data-testid="incident-snoozed">
          <Badge>snoozed until {new Date(snoozedUntil).toISOString().slice(11, 16)} UTC</Badge>
        </span>
      )}
    </>
  );
}

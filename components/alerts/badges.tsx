import { formatDateTimeZoned } from "../../isomorphic/time-zone";
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

/** "silenced" and "snoozed until 2026-11-30 14:05 UTC" (in the viewer's zone) beside an incident's state. */
export function MuteBadges({ silenced, snoozedUntil, now, zone }: { silenced: boolean; snoozedUntil: Date | string | null; now: Date; zone: string }) {
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
          <Badge>snoozed until {formatDateTimeZoned(snoozedUntil, zone)}</Badge>
        </span>
      )}
    </>
  );
}

import { Badge } from "../ui";
import { severityTone, stateTone } from "./format";

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

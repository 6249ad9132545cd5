import { Card } from "../../ui";
import { rawCallHref, VerdictBadge } from "../format";
import { ArgumentsView } from "../json-view";
import type { CallDetail } from "./types";

/** The call's arguments as the model wrote them, the failing value marked, with the verdict badge. */
export function ArgumentsCard({ call, slug, highlightPath, note }: { call: CallDetail; slug: string; highlightPath: string | null; note: string }) {
  return (
    <Card className="lg:col-span-2" title="Arguments" description={note} actions={<VerdictBadge valid={call.valid} category={call.category} />}>
      <ArgumentsView args={call.arguments} highlightPath={highlightPath} label="Arguments of this call" rawHref={rawCallHref(slug, call.id)} />
    </Card>
  );
}

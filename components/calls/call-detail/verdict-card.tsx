import { Badge, Card } from "../../ui";
import { categoryLabel, VerdictBadge } from "../format";
import { Message } from "./message";
import type { CallDetail } from "./types";
import { harnessMessageShownAbove, returnedMessageCaption, toolgateColumnTitle, verdictHeading, type Violation } from "./view";

/** Why a call was refused (the message the model got, every problem found) and, when they disagree, the harness's and Toolgate's verdicts side by side. */
export function VerdictCard({ call, violations }: { call: CallDetail; violations: Violation[] }) {
  const { title, category, description } = verdictHeading(call);
  return (
    <Card
      className="mt-4"
      title={title}
      description={description ?? undefined}
      actions={category ? <Badge tone="red">{categoryLabel(category)}</Badge> : undefined}
    >
      <div className="space-y-4">
        {call.valid === false && <Message text={call.message} testId="returned-message" caption={returnedMessageCaption(call.harnessValid)} />}
        {call.verdictsDiffer && (
          <div>
            <p className="mb-2 text-amber-800">The harness and Toolgate disagree about this call. Both verdicts, as stored:</p>
            <div className="grid gap-3 md:grid-cols-2" data-testid="verdicts-differ">
              <VerdictColumn
                title="Harness"
                valid={call.harnessValid}
                category={call.harnessCategory}
                message={call.harnessMessage}
                sameAsAbove={harnessMessageShownAbove(call)}
              />
              <VerdictColumn
                title={toolgateColumnTitle(call.checkedVersion)}
                valid={call.checkedValid}
                category={call.checkedCategory}
                message={call.checkedMessage}
                path={call.checkedPath}
              />
            </div>
          </div>
        )}
        {violations.length > 1 && (
          <div>
            <h3 className="mb-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">Every problem Toolgate found ({violations.length})</h3>
            <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
              {violations.map((v, i) => (
                <li key={i} className="flex gap-3 px-3 py-2">
                  <span className="w-32 shrink-0 break-all font-mono text-xs text-slate-700">{v.path || "(arguments)"}</span>
                  <span className="min-w-0 text-slate-700">
                    <span className="mr-1.5 text-xs text-slate-500">{categoryLabel(v.category)}</span>
                    {v.message}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </Card>
  );
}

/** One side's verdict: badge, the path it names, its message. */
function VerdictColumn({
  title,
  valid,
  category,
  message,
  path,
  sameAsAbove,
}: {
  title: string;
  valid: boolean | null;
  category: string | null;
  message: string | null;
  path?: string | null;
  sameAsAbove?: boolean;
}) {
  return (
    <div className="rounded-md border border-slate-200 p-3">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="font-medium text-slate-900">{title}</h3>
        <VerdictBadge valid={valid} category={category} />
      </div>
      {path ? (
        <p className="mb-1.5 text-xs text-slate-500">
          at <span className="font-mono text-slate-700">{path}</span>
        </p>
      ) : null}
      {sameAsAbove ? (
        <p className="text-slate-500">The message above.</p>
      ) : message ? (
        <p className="whitespace-pre-wrap break-words font-mono text-[13px] text-slate-800">{message}</p>
      ) : (
        <p className="text-slate-500">No message.</p>
      )}
    </div>
  );
}

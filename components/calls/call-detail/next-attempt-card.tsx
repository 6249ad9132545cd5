import Link from "next/link";
import { buttonClass, Card } from "../../ui";
import { ArgumentsDiff } from "../arguments-diff";
import { formatDateTimeZoned } from "../../../isomorphic/time-zone";
import { callHref, VerdictBadge } from "../format";
import { Message } from "./message";
import type { CallDetail } from "./types";
import { attemptPosition } from "./view";

/** For a refused call: how many attempts the run needed, and the model's next attempt as a diff against this one (or why there is none). */
export function NextAttemptCard({ call, slug, zone }: { call: CallDetail; slug: string; zone: string }) {
  const next = call.correction;
  const attempts = call.attemptsUntilSuccess;
  return (
    <Card
      className="mt-4"
      title="The model's next attempt"
      description={next ? "Its arguments against the failed ones above." : undefined}
      actions={
        next ? (
          <Link href={callHref(slug, next.id)} className={buttonClass("secondary", "sm")} data-testid="correction-link">
            Open corrected call →
          </Link>
        ) : undefined
      }
    >
      <div className="space-y-4">
        <p className="text-slate-800" data-testid="attempts">
          {attempts !== null ? (
            <>
              Attempts until this tool call succeeded: <strong className="tabular-nums">{attempts}</strong>
            </>
          ) : (
            <span className="text-red-700">This tool call never succeeded in this run.</span>
          )}
        </p>
        {next ? (
          <>
            <div className="flex flex-wrap items-center gap-2 text-slate-600">
              <VerdictBadge valid={next.valid} category={next.category} />
              <span>
                {attemptPosition(next)} · {formatDateTimeZoned(next.timestamp, zone, "second")} ·{" "}
                <span className="break-all font-mono text-slate-700">{next.tool}</span>
              </span>
            </div>
            <ArgumentsDiff before={call.arguments} after={next.arguments} beforeTool={call.tool} afterTool={next.tool} />
            {next.valid === false && next.message && <Message text={next.message} caption="It failed again, and the model was told" />}
          </>
        ) : call.correctionId ? (
          <p className="text-slate-600" data-testid="correction-expired">
            The model retried it (call <span className="font-mono">{call.correctionId}</span>), but that call is no longer stored: the project&apos;s retention
            deleted it.
          </p>
        ) : (
          <p className="text-slate-600">The model did not retry this tool call later in the run.</p>
        )}
      </div>
    </Card>
  );
}

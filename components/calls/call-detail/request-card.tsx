import Link from "next/link";
import type { ReactNode } from "react";
import { Badge, Card, cx } from "../../ui";
import { formatDateTimeZoned } from "../../../isomorphic/time-zone";
import { linkClass, modelLabel, runHref } from "../format";
import type { CallDetail } from "./types";
import { metadataEntries, resultTone, usageText } from "./view";
import { formatDuration } from "../../../contracts/format-number";

/** What the harness reported with the call: tool, model, time, run, result, usage and metadata. */
export function RequestCard({ call, slug, unknownTool, zone }: { call: CallDetail; slug: string; unknownTool: boolean; zone: string }) {
  const usage = usageText(call);
  const metadata = metadataEntries(call.metadata);
  return (
    <Card title="Request">
      <dl className="space-y-2.5">
        <Item label="Tool">
          <span className={cx("break-all font-mono", unknownTool ? "rounded bg-red-100 px-1 text-red-800" : "text-slate-900")}>{call.tool}</span>
          {unknownTool && <span className="ml-1.5 text-xs text-red-700">no tool of this name</span>}
          {call.toolVersion && <span className="block text-xs text-slate-500">schema version sent: {call.toolVersion}</span>}
        </Item>
        <Item label="Model">
          <span className="break-all">{modelLabel(call)}</span>
          {call.modelProvider && <span className="text-slate-500"> · {call.modelProvider}</span>}
        </Item>
        <Item label="Time">
          <span className="tabular-nums">{formatDateTimeZoned(call.timestamp, zone, "second")}</span>
        </Item>
        <Item label="Run">
          <Link href={runHref(slug, call.runId)} className={cx(linkClass, "break-all font-mono text-[13px]")}>
            {call.runId}
          </Link>
          <span className="block text-xs text-slate-500">
            {call.step !== null ? `step ${call.step} · ` : ""}
            {call.runLength} {call.runLength === 1 ? "call" : "calls"} in this run
          </span>
        </Item>
        {(call.resultStatus || call.latencyMs !== null) && (
          <Item label="Result">
            {call.resultStatus && <Badge tone={resultTone(call.resultStatus)}>{call.resultStatus}</Badge>}
            {call.latencyMs !== null && <span className="ml-1.5 tabular-nums text-slate-600">{formatDuration(call.latencyMs)}</span>}
            {call.resultSummary && <span className="mt-1 block text-slate-600">{call.resultSummary}</span>}
          </Item>
        )}
        {usage !== null && (
          <Item label="Usage">
            <span className="tabular-nums">{usage}</span>
          </Item>
        )}
        {metadata.length > 0 && (
          <Item label="Metadata">
            <span className="flex flex-wrap gap-1">
              {metadata.map(([k, v]) => (
                <Badge key={k}>
                  {k}: {v}
                </Badge>
              ))}
            </span>
          </Item>
        )}
      </dl>
    </Card>
  );
}

/** One labelled line of a description list. */
function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-slate-800">{children}</dd>
    </div>
  );
}

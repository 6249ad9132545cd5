import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { Fragment } from "react";
import { explorerUrl } from "@/components/calls/explorer-params";
import { DetailHeader } from "@/components/calls/detail-page";
import { ConversationSection } from "@/components/runs/conversation";
import { callHref, formatClock, formatOffset, linkClass, modelLabel, VerdictBadge } from "@/components/calls/format";
import { formatDuration, formatNumber } from "@/contracts/format-number";
import { decodeParam } from "@/isomorphic/route-id";
import { buttonClass, cx, Table, td, th } from "@/components/ui";
import { findByRouteId, pageCaller, pageTimeZone, requireProject } from "@/server/page-session";
import { formatDateTimeZoned, zoneName } from "@/isomorphic/time-zone";
import { ParallelHeaderRow } from "@/components/runs/parallel-header-row";
import { groupTurns } from "@/components/runs/turns";

export async function generateMetadata({ params }: { params: Promise<{ runId: string }> }): Promise<Metadata> {
  const { runId } = await params;
  return { title: `Run ${decodeParam(runId)}` };
}

export default async function RunPage({ params }: { params: Promise<{ slug: string; runId: string }> }) {
  const { slug, runId: rawRunId } = await params;
  const { project } = await requireProject(slug);
  const { zone } = await pageTimeZone();
  const caller = await pageCaller();
  const run = await findByRouteId(rawRunId, (runId) => caller.calls.run({ project: project.slug, runId }));
  if (!run) notFound();
  const conversation = await caller.calls.conversation({ project: project.slug, runId: run.runId });

  const calls = run.calls;
  const start = calls[0]!.timestamp.getTime();
  const end = calls[calls.length - 1]!.timestamp.getTime();
  const position = new Map(calls.map((c, i) => [c.id, { index: i, step: c.step }]));
  const retryOf = new Map(calls.filter((c) => c.correctionId).map((c) => [c.correctionId!, c]));
  const models = [...new Set(calls.map(modelLabel))];
  const where = (id: string) => {
    const at = position.get(id);
    if (!at) return `call ${id}`;
    return at.step !== null ? `step ${at.step}` : `call #${at.index + 1}`;
  };
  const perSuccess = run.attemptsPerSuccess;

  return (
    <>
      <DetailHeader
        kind="run"
        id={run.runId}
        description={`${models.join(", ")} · started ${formatDateTimeZoned(calls[0]!.timestamp, zone, "second")} · ${formatDuration(end - start)} from first to last call`}
        actions={
          <Link href={explorerUrl(project.slug, { range: "all", runId: run.runId })} className={buttonClass("secondary")}>
            Open in calls explorer
          </Link>
        }
      />

      <div className={cx("mb-4 grid grid-cols-2 gap-3", run.unchecked > 0 ? "md:grid-cols-5" : "md:grid-cols-4")} data-testid="run-totals">
        <Stat label="Attempts" value={run.attempts} testId="run-attempts" hint="every tool request in the run" />
        <Stat label="Successful calls" value={run.successes} testId="run-successes" hint="judged valid" />
        <Stat label="Invalid" value={run.invalid} testId="run-invalid" tone={run.invalid > 0 ? "red" : undefined} hint="refused, each a wasted model turn" />
        {run.unchecked > 0 && (
          <Stat label="Unchecked" value={run.unchecked} testId="run-unchecked" hint="no schema, no harness verdict: neither valid nor invalid" />
        )}
        <Stat
          label="Attempts per success"
          value={formatNumber(perSuccess)}
          hint={
            perSuccess === null
              ? run.successes + run.invalid === 0
                ? "no call was checked"
                : "nothing succeeded"
              : "over checked calls; 1.00 means no retries"
          }
        />
      </div>

      <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
        <header className="border-b border-slate-100 px-4 py-2.5">
          <h2 className="font-semibold text-slate-900">Timeline</h2>
          <p className="text-slate-500">
            {run.successes} successful {run.successes === 1 ? "call" : "calls"} took {run.successes + run.invalid}{" "}
            {run.successes + run.invalid === 1 ? "attempt" : "attempts"}
            {run.unchecked > 0 ? ` (and ${run.unchecked} unchecked ${run.unchecked === 1 ? "call" : "calls"}, neither valid nor invalid)` : ""}. Invalid calls
            are marked red; calls one model response requested together are grouped as one turn.
          </p>
        </header>
        <div className="px-4">
          <Table label="Calls of this run in order">
            <thead>
              <tr>
                <th className={cx(th, "first:pl-2.5")}>Step</th>
                <th className={th}>Time ({zoneName(zone, start)})</th>
                <th className={th}>Tool</th>
                <th className={th}>Verdict</th>
                <th className={th}>Message · correction</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {groupTurns(calls).map((group) => (
                <Fragment key={group.calls[0]!.call.id}>
                  {group.calls.length > 1 && <ParallelHeaderRow calls={group.calls.map((g) => g.call)} />}
                  {group.calls.map(({ call: c, index: i }) => {
                    const invalid = c.valid === false;
                    const parallel = group.calls.length > 1;
                    const correction = c.correctionId ? calls.find((x) => x.id === c.correctionId) : undefined;
                    const retries = retryOf.get(c.id);
                    return (
                      <tr
                        key={c.id}
                        data-testid="run-row"
                        data-valid={c.valid === null ? "unknown" : String(c.valid)}
                        data-turn={parallel ? c.turn! : undefined}
                        className={cx(invalid ? "bg-red-50/50" : parallel && "bg-indigo-50/40")}
                      >
                        <td
                          className={cx(
                            "stack-inline whitespace-nowrap border-l-2 py-2.5 pl-2 pr-3 align-middle tabular-nums",
                            invalid ? "border-red-500" : parallel ? "border-indigo-300" : "border-transparent",
                          )}
                        >
                          <Link href={callHref(project.slug, c.id)} className={linkClass} title={`Call ${c.id}`}>
                            {c.step !== null ? c.step : `#${i + 1}`}
                          </Link>
                        </td>
                        <td className={cx(td, "tabular-nums")}>
                          {formatClock(c.timestamp, zone)}{" "}
                          <span className="text-xs text-slate-500">{i > 0 ? formatOffset(c.timestamp.getTime() - start) : ""}</span>
                        </td>
                        <td className={td}>
                          <span className={cx("font-mono text-[13px] [overflow-wrap:anywhere]", invalid ? "text-red-900" : "text-slate-900")}>{c.tool}</span>
                          {retries && <span className="ml-1.5 text-xs text-slate-500">retry of {where(retries.id)}</span>}
                        </td>
                        <td className={td}>
                          <VerdictBadge valid={c.valid} category={c.category} />
                        </td>
                        <td className={cx(td, "stack-full max-w-[24rem] whitespace-normal")}>
                          {invalid && c.message && (
                            <span className="block truncate font-mono text-xs text-slate-600" title={c.message}>
                              {c.message}
                            </span>
                          )}
                          {invalid &&
                            (c.correctionId && !position.has(c.correctionId) ? (
                              <span className="text-xs text-slate-500">→ retried by call {c.correctionId}, no longer stored (retention)</span>
                            ) : c.correctionId ? (
                              <Link
                                href={callHref(project.slug, c.correctionId)}
                                className="text-xs font-medium text-indigo-700 hover:underline"
                                data-testid="run-correction"
                              >
                                → {correction?.valid === false ? `retried at ${where(c.correctionId)}, invalid again` : `corrected by ${where(c.correctionId)}`}
                              </Link>
                            ) : (
                              <span className="text-xs font-medium text-red-700">never corrected in this run</span>
                            ))}
                        </td>
                      </tr>
                    );
                  })}
                </Fragment>
              ))}
            </tbody>
          </Table>
        </div>
      </section>

      <ConversationSection slug={project.slug} data={conversation} calls={calls} zone={zone} />
    </>
  );
}

function Stat({ label, value, hint, tone, testId }: { label: string; value: number | string; hint?: string; tone?: "red"; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className={cx("mt-1 text-2xl font-semibold tabular-nums", tone === "red" ? "text-red-700" : "text-slate-900")} data-testid={testId}>
        {value}
      </p>
      {hint && <p className="mt-0.5 text-xs text-slate-500">{hint}</p>}
    </div>
  );
}

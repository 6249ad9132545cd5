import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ArgumentsCard } from "@/components/calls/call-detail/arguments-card";
import { NextAttemptCard } from "@/components/calls/call-detail/next-attempt-card";
import { RequestCard } from "@/components/calls/call-detail/request-card";
import { RunNav } from "@/components/calls/call-detail/run-nav";
import { SchemaCard } from "@/components/calls/call-detail/schema-card";
import { VerdictCard } from "@/components/calls/call-detail/verdict-card";
import { callView } from "@/components/calls/call-detail/view";
import { DetailHeader } from "@/components/calls/detail-page";
import { modelLabel } from "@/components/calls/format";
import { decodeParam } from "@/isomorphic/route-id";
import { listQuery } from "@/components/calls/explorer-params";
import { findByRouteId, pageCaller, pageTimeZone, requireProject } from "@/server/page-session";
import { formatDateTimeZoned } from "@/isomorphic/time-zone";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Call ${decodeParam(id)}` };
}

/** One call: its arguments, the request, why it was refused, the model's next attempt, the schema. */
export default async function CallPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug, id: rawId } = await params;
  const rawList = (await searchParams).list;
  const list = typeof rawList === "string" ? listQuery(rawList) : null;
  const { project } = await requireProject(slug);
  const { zone } = await pageTimeZone();
  const caller = await pageCaller();
  const call = await findByRouteId(rawId, (id) => caller.calls.byId({ project: project.slug, id }));
  if (!call) notFound();

  const view = callView(call);
  return (
    <>
      <DetailHeader
        kind="call"
        id={call.id}
        description={
          <>
            <span className="font-mono text-slate-700">{call.tool}</span> · {modelLabel(call)} · {formatDateTimeZoned(call.timestamp, zone, "second")}
          </>
        }
        actions={<RunNav slug={project.slug} previous={call.previousInRun} next={call.nextInRun} list={list} runId={call.runId} />}
      />

      <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-3">
        <ArgumentsCard call={call} slug={project.slug} highlightPath={view.highlightPath} note={view.argumentsNote} />
        <RequestCard call={call} slug={project.slug} unknownTool={view.unknownTool} zone={zone} />
      </div>

      {view.showVerdict && <VerdictCard call={call} violations={view.violations} />}

      {view.showNextAttempt && <NextAttemptCard call={call} slug={project.slug} zone={zone} />}

      <SchemaCard call={call} zone={zone} />
    </>
  );
}

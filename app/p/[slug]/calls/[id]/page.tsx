import { TRPCError } from "@trpc/server";
import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { CATEGORY_DESCRIPTIONS, type Category } from "@/contracts/categories";
import { ArgumentsDiff } from "@/components/calls/arguments-diff";
import { callHref, categoryLabel, decodeParam, formatTime, linkClass, modelLabel, rawCallHref, runHref, VerdictBadge } from "@/components/calls/format";
import { ArgumentsView, exceedsViewLimits, JsonView } from "@/components/calls/json-view";
import { Badge, buttonClass, Card, cx, PageHeader } from "@/components/ui";
import { pageCaller, requireProject } from "@/server/page-session";

type Caller = Awaited<ReturnType<typeof pageCaller>>;
type CallDetail = Awaited<ReturnType<Caller["calls"]["byId"]>>;
type Violation = { category: string; path: string; message: string; keyword: string };

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Call ${decodeParam(id)}` };
}

/** One call by the harness's id, which may hold any character: tried as given, then percent-decoded. */
async function findCall(caller: Caller, project: string, id: string): Promise<CallDetail | null> {
  for (const candidate of [...new Set([id, decodeParam(id)])]) {
    if (candidate.length < 1 || candidate.length > 128) continue;
    try {
      return await caller.calls.byId({ project, id: candidate });
    } catch (error) {
      if (!(error instanceof TRPCError) || (error.code !== "NOT_FOUND" && error.code !== "BAD_REQUEST")) throw error;
    }
  }
  return null;
}

export default async function CallPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id: rawId } = await params;
  const { project } = await requireProject(slug);
  const call = await findCall(await pageCaller(), project.slug, rawId);
  const explorer = `/p/${project.slug}/calls`;

  if (!call) {
    const id = decodeParam(rawId);
    return (
      <>
        <PageHeader title="Call not found" />
        <Card>
          <p className="text-slate-700">
            There is no call with the id <code className="rounded bg-slate-100 px-1 font-mono text-[13px]">{id}</code> in this project. Call ids are the
            harness&apos;s tool-call ids and must match exactly, including case.
          </p>
          <p className="mt-3">
            <Link href={explorer} className={linkClass}>
              Search the calls explorer
            </Link>
          </p>
        </Card>
      </>
    );
  }

  const violations = (Array.isArray(call.violations) ? call.violations : []) as Violation[];
  const category = call.category ?? call.checkedCategory;
  const unknownTool = category === "unknown_tool";
  const failingPath = call.valid === false || call.checkedValid === false ? (call.checkedPath ?? violations[0]?.path ?? null) : null;
  const highlightPath = unknownTool ? null : failingPath;

  return (
    <>
      <PageHeader
        title={
          <>
            Call <span className="font-mono text-lg">{call.id}</span>
          </>
        }
        description={
          <>
            <span className="font-mono text-slate-700">{call.tool}</span> · {modelLabel(call)} · {formatTime(call.timestamp)} UTC
          </>
        }
        actions={
          <nav aria-label="Calls of this run" className="flex shrink-0 items-center gap-2">
            <RunNavLink slug={project.slug} id={call.previousInRun} label="← Previous call" />
            <RunNavLink slug={project.slug} id={call.nextInRun} label="Next call →" />
          </nav>
        }
      />

      <div className="grid items-start gap-4 lg:grid-cols-3">
        <Card
          className="lg:col-span-2"
          title="Arguments"
          description={
            highlightPath !== null
              ? "As the model wrote them. The failing value is marked red."
              : unknownTool
                ? "As the model wrote them. The tool name is what failed."
                : "As the model wrote them."
          }
          actions={<VerdictBadge valid={call.valid} category={call.category} />}
        >
          <ArgumentsView args={call.arguments} highlightPath={highlightPath} label="Arguments of this call" rawHref={rawCallHref(project.slug, call.id)} />
        </Card>

        <Card title="Request">
          <dl className="space-y-2.5">
            <Item label="Tool">
              <span className={cx("font-mono", unknownTool ? "rounded bg-red-100 px-1 text-red-800" : "text-slate-900")}>{call.tool}</span>
              {unknownTool && <span className="ml-1.5 text-xs text-red-700">no tool of this name</span>}
              {call.toolVersion && <span className="block text-xs text-slate-500">schema version sent: {call.toolVersion}</span>}
            </Item>
            <Item label="Model">
              {modelLabel(call)}
              {call.modelProvider && <span className="text-slate-500"> · {call.modelProvider}</span>}
            </Item>
            <Item label="Time (UTC)">
              <span className="tabular-nums">{formatTime(call.timestamp)}</span>
            </Item>
            <Item label="Run">
              <Link href={runHref(project.slug, call.runId)} className={cx(linkClass, "break-all font-mono text-[13px]")}>
                {call.runId}
              </Link>
              <span className="block text-xs text-slate-500">
                {call.step !== null ? `step ${call.step} · ` : ""}
                {call.runLength} {call.runLength === 1 ? "call" : "calls"} in this run
              </span>
            </Item>
            {(call.resultStatus || call.latencyMs !== null) && (
              <Item label="Result">
                {call.resultStatus && (
                  <Badge tone={call.resultStatus === "ok" ? "green" : call.resultStatus === "error" ? "red" : "amber"}>{call.resultStatus}</Badge>
                )}
                {call.latencyMs !== null && <span className="ml-1.5 tabular-nums text-slate-600">{call.latencyMs} ms</span>}
                {call.resultSummary && <span className="mt-1 block text-slate-600">{call.resultSummary}</span>}
              </Item>
            )}
            {(call.inputTokens !== null || call.costUsd !== null) && (
              <Item label="Usage">
                <span className="tabular-nums">
                  {call.inputTokens !== null && `${call.inputTokens.toLocaleString("en-US")} in`}
                  {call.outputTokens !== null && ` · ${call.outputTokens.toLocaleString("en-US")} out`}
                  {call.costUsd !== null && ` · $${call.costUsd.toFixed(4)}`}
                </span>
              </Item>
            )}
            {metadataEntries(call.metadata).length > 0 && (
              <Item label="Metadata">
                <span className="flex flex-wrap gap-1">
                  {metadataEntries(call.metadata).map(([k, v]) => (
                    <Badge key={k}>
                      {k}: {v}
                    </Badge>
                  ))}
                </span>
              </Item>
            )}
          </dl>
        </Card>
      </div>

      {(call.valid === false || call.verdictsDiffer) && <VerdictCard call={call} violations={violations} />}

      {call.valid === false && <NextAttemptCard call={call} slug={project.slug} />}

      <SchemaCard call={call} />
    </>
  );
}

/** "The arguments are not a JSON object." → "the arguments are not a JSON object." */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function RunNavLink({ slug, id, label }: { slug: string; id: string | null; label: string }) {
  if (!id) {
    return (
      <span className={cx(buttonClass("secondary", "sm"), "pointer-events-none opacity-50")} aria-disabled="true">
        {label}
      </span>
    );
  }
  return (
    <Link href={callHref(slug, id)} className={buttonClass("secondary", "sm")} title={`Call ${id}`}>
      {label}
    </Link>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-slate-800">{children}</dd>
    </div>
  );
}

/** Metadata as short badges: the first 50 entries, each cut at 200 characters (the raw JSON download has them whole). */
function metadataEntries(metadata: unknown): [string, string][] {
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return [];
  const entries = Object.entries(metadata);
  const shown = entries.slice(0, 50).map(([k, v]): [string, string] => {
    const text = typeof v === "string" ? v : exceedsViewLimits(v) ? "(large value: see the raw JSON)" : JSON.stringify(v);
    return [k.length > 200 ? `${k.slice(0, 200)}…` : k, text.length > 200 ? `${text.slice(0, 200)}…` : text];
  });
  return entries.length > shown.length ? [...shown, ["…", `${entries.length - shown.length} more in the raw JSON`]] : shown;
}

function Message({ text, caption, testId }: { text: string | null; caption: string; testId?: string }) {
  return (
    <figure>
      <figcaption className="mb-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">{caption}</figcaption>
      {text ? (
        <blockquote
          data-testid={testId}
          className="whitespace-pre-wrap break-words rounded-md border-l-4 border-red-400 bg-red-50/60 px-3 py-2 font-mono text-[13px] text-slate-900"
        >
          {text}
        </blockquote>
      ) : (
        <p className="text-slate-500">No message text was reported.</p>
      )}
    </figure>
  );
}

function VerdictCard({ call, violations }: { call: CallDetail; violations: Violation[] }) {
  const category = call.category as Category | null;
  const fromHarness = call.harnessValid !== null;
  return (
    <Card
      className="mt-4"
      title={call.valid === false ? "Why it was refused" : "The verdicts differ"}
      description={category && call.valid === false ? `${categoryLabel(category)}: ${lowerFirst(CATEGORY_DESCRIPTIONS[category] ?? "")}` : undefined}
      actions={category && call.valid === false ? <Badge tone="red">{categoryLabel(category)}</Badge> : undefined}
    >
      <div className="space-y-4">
        {call.valid === false && (
          <Message
            text={call.message}
            testId="returned-message"
            caption={fromHarness ? "Message the harness returned to the model" : "Toolgate's message for the model (the harness sent no verdict of its own)"}
          />
        )}
        {call.verdictsDiffer && (
          <div>
            <p className="mb-2 text-amber-800">The harness and Toolgate disagree about this call. Both verdicts, as stored:</p>
            <div className="grid gap-3 md:grid-cols-2" data-testid="verdicts-differ">
              <VerdictColumn
                title="Harness"
                valid={call.harnessValid}
                category={call.harnessCategory}
                message={call.harnessMessage}
                sameAsAbove={call.valid === false && !!call.harnessMessage && call.harnessMessage === call.message}
              />
              <VerdictColumn
                title={`Toolgate${call.checkedVersion ? ` (schema ${call.checkedVersion.slice(0, 12)})` : ""}`}
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

function NextAttemptCard({ call, slug }: { call: CallDetail; slug: string }) {
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
                {next.step !== null ? `step ${next.step}` : "next call"} · {formatTime(next.timestamp)} UTC ·{" "}
                <span className="font-mono text-slate-700">{next.tool}</span>
              </span>
            </div>
            <ArgumentsDiff before={call.arguments} after={next.arguments} beforeTool={call.tool} afterTool={next.tool} />
            {next.valid === false && next.message && <Message text={next.message} caption="It failed again, and the model was told" />}
          </>
        ) : (
          <p className="text-slate-600">The model did not retry this tool call later in the run.</p>
        )}
      </div>
    </Card>
  );
}

function SchemaCard({ call }: { call: CallDetail }) {
  if (!call.schema) {
    return (
      <Card className="mt-4" title="Schema">
        <p className="text-slate-600">
          {call.category === "unknown_tool" || call.checkedCategory === "unknown_tool" ? (
            <>
              No tool named <span className="font-mono">{call.tool}</span> is registered, so there is no schema to show.
            </>
          ) : call.checkedVersion === null ? (
            "Toolgate did not check this call against a registered schema: the project has none for this tool (register it with tools.register)."
          ) : (
            "The schema version it was checked against is no longer stored."
          )}
        </p>
      </Card>
    );
  }
  return (
    <Card className="mt-4">
      <details className="group">
        <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500">
          <span>
            <span className="text-base font-semibold text-slate-900">Schema checked against</span>
            <span className="ml-2 font-mono text-xs text-slate-500">version {call.schema.version}</span>
            <span className="mt-0.5 block text-slate-500">
              <span className="font-mono">{call.tool}</span>, first seen {formatTime(call.schema.firstSeenAt)} UTC
            </span>
          </span>
          <span className="shrink-0 text-xs font-medium text-indigo-700">
            <span className="group-open:hidden">Show JSON Schema</span>
            <span className="hidden group-open:inline">Hide</span>
          </span>
        </summary>
        <JsonView className="mt-3" value={call.schema.parameters} label={`JSON Schema of ${call.tool}`} />
      </details>
    </Card>
  );
}

import type { PoolClient } from "pg";
import { assemble, type Assembled, type AssembledCall, type AssembledResult } from "../../adapters/otlp/assemble";
import { withinBounds } from "../../adapters/otlp/bounds";
import type { Definition } from "../../adapters/otlp/pieces";
import type { OtlpSpan, SpanProblem } from "../../adapters/otlp/wire";
import { registryResolver } from "../../domain/verdicts";
import type { Outcome, Part, Source } from "../ingest/pipeline";
import type { PreparedCall } from "../ingest/write-calls";
import { loadToolVersions, storeTools, versionedTool } from "../tools/registry";
import { joinConversations, mergeContinuedRuns, type Queryable } from "./conversations";
import { joinExecutions } from "./executions";
import { recordMessages } from "./messages";
import { recordResults } from "./results";
import { numberSteps } from "./steps";

/**
 * What OTLP spans give the pipeline, whether they came with their messages (POST /v1/traces) or
 * were completed by log records (either route): the mapped spans' events, and the side records
 * the traces and logs sources share (model calls and steps, messages, results, tool executions).
 * The pieces of one call may come in different requests, in any order, and more than once:
 * - the call itself (from the model-call span) has a stable id, so a re-sent span is a
 *   duplicate and the rollups count it once;
 * - what happened to it (tool-execution span, or the tool message of the next turn) is kept in
 *   `otlp_results` and copied onto the stored call by whichever of the two requests comes second;
 * - its step is the rank of its model-call span among those of its run seen so far
 *   (`otlp_model_calls`); a model call that arrives after later ones of its run renumbers the
 *   run's stored calls, and the run is paired again.
 * Requests that touch the same runs or traces take turns (the pipeline's lockKeys: spanKeys), so
 * the later one sees all of the earlier one: nothing is left for after the commit.
 */

/** A set of mapped spans ready for the pipeline: their events (one per call, in `assembled.calls`' order) and what else they gave. */
export type SpanPart = Part & { assembled: Assembled; definitionProblems: string[] };

/** What a part's side records gave: tool executions kept (new ones) and joined with their call. */
export type SpanSide = { executions: number; executionsJoined: number };

/**
 * Assembled spans → the pipeline's part: joined to the conversations they continue (read
 * through `db`: the transaction once the export has its turn), their definitions registered
 * through tools.register's rules, each call's event with its best result of the request.
 */
export async function spanPart(db: Queryable, projectId: string, spans: Assembled): Promise<SpanPart> {
  const assembled = await joinConversations(db, projectId, spans);
  const { registry, versions, problems: definitionProblems } = await registerDefinitions(projectId, assembled.definitions);
  // a result that came in this same request is written with its call (no second write of the row)
  const best = new Map<string, AssembledResult>();
  for (const r of assembled.results) if ((best.get(r.callId)?.priority ?? 0) < r.priority) best.set(r.callId, r);
  const events = assembled.calls.map((call) => eventOf(call, best.get(call.event.id), call.definition && versions.get(call.definition)));
  return { events, registry, assembled, definitionProblems };
}

/** The part of GenAI spans that waited for their content and have it now, from log records (log-content.ts). */
export const completedSpansPart = (db: Queryable, projectId: string, completed: OtlpSpan[]) => spanPart(db, projectId, withinBounds(assemble(completed)));

/** The spans that could not be used: the adapter's problems and the gate's rejections, named by their span. */
export const spanProblems = ({ part, rejected }: Outcome<SpanPart, SpanSide>): SpanProblem[] => [
  ...part.assembled.rejected,
  ...rejected.map((r) => ({ span: part.assembled.calls[r.index]!.span.name, reason: r.message.replace(/^events\[\d+\]\.?/, "tool call ") })),
];

/**
 * Before the calls are written: the runs that continue this request's conversations are merged
 * into its runs, the messages kept, and the model calls numbered; each checked call gets its
 * model call's rank in the run as its step, which is also its turn (the calls of one model call
 * were requested together). Answers the runs whose order changed, to be paired again.
 */
async function beforeWrite(client: PoolClient, projectId: string, { assembled }: SpanPart, calls: PreparedCall[]) {
  const merged = await mergeContinuedRuns(client, projectId, assembled);
  await recordMessages(client, projectId, assembled.modelCalls);
  const { steps, reordered } = await numberSteps(client, projectId, assembled.modelCalls, merged);
  const modelSpanOf = new Map(assembled.calls.map((c) => [c.event.id, c.modelSpan]));
  for (const { event } of calls) event.step = event.turn = steps.get(`${event.runId}\n${modelSpanOf.get(event.id)}`);
  return reordered;
}

/**
 * After the calls are written: this request's results are kept and copied onto the calls they
 * answer (a call just inserted carries its best result of the request already), and the
 * servers' and tool runtimes' executions without a tool call id are joined with their calls,
 * whichever came first.
 */
async function afterWrite(client: PoolClient, projectId: string, { part, calls, inserted }: Omit<Outcome<SpanPart>, "side">): Promise<SpanSide> {
  const { assembled } = part;
  const ids = calls.map((c) => c.event.id);
  await recordResults(client, projectId, assembled.results, ids, inserted);
  const stored = new Set(ids);
  const executions = await joinExecutions(
    client,
    projectId,
    assembled.executions,
    assembled.calls.filter((c) => stored.has(c.event.id)),
  );
  if (executions.results.length) {
    await recordResults(
      client,
      projectId,
      executions.results,
      executions.results.map((r) => r.callId),
      [],
    );
  }
  return { executions: executions.received, executionsJoined: executions.joined };
}

/** The hooks by which spans' side records go through the pipeline, for the traces and logs sources. */
export const spanHooks = (projectId: string): Pick<Source<SpanPart, unknown, SpanSide>, "beforeWrite" | "afterWrite"> => ({
  beforeWrite: (client, part, calls) => beforeWrite(client, projectId, part, calls),
  afterWrite: (client, written) => afterWrite(client, projectId, written),
});

const sum = (outcomes: Outcome<SpanPart, SpanSide>[], count: (o: Outcome<SpanPart, SpanSide>) => number) => outcomes.reduce((n, o) => n + count(o), 0);

/** The calls accepted and the duplicates of every part, and what their side records gave, added up. */
export const totalsOf = (outcomes: Outcome<SpanPart, SpanSide>[]) => ({
  accepted: sum(outcomes, (o) => o.accepted),
  duplicates: sum(outcomes, (o) => o.duplicates),
  executions: sum(outcomes, (o) => o.side.executions),
  executionsJoined: sum(outcomes, (o) => o.side.executionsJoined),
});

/**
 * The runs and traces whose writes depend on each other (steps, pairing, results, log content),
 * and the tool call ids by which a model call without a conversation id joins the conversation
 * it continues (written or repeated): two exports of one such conversation take turns too.
 */
export function spanKeys(assembled: Assembled): string[] {
  return [
    ...assembled.modelCalls.map((m) => `run/${m.runId}`),
    ...assembled.modelCalls.flatMap((m) => (m.implicitRun ? [...m.wrote, ...m.continues].map((id) => `call/${id}`) : [])),
    ...assembled.calls.map((c) => `trace/${c.span.traceId}`),
    ...assembled.results.map((r) => `trace/${r.traceId}`),
    ...assembled.executions.map((e) => `trace/${e.traceId}`),
  ];
}

/**
 * The event of an assembled call, with its best result of the request and its tool's version.
 * Every event has the same fields in the same order (those it lacks are undefined, as the
 * contract allows): the gate's compiled checks then meet one object shape, not one per
 * combination of optional fields (10.1 against 7.2 µs of CPU per call in one process,
 * docs/PERFORMANCE.md).
 */
function eventOf(call: AssembledCall, r: AssembledResult | undefined, toolVersion: string | null | undefined) {
  const { event } = call;
  return {
    id: event.id,
    runId: event.runId,
    timestamp: event.timestamp,
    model: event.model,
    tool: event.tool,
    arguments: event.arguments,
    result: r ? { status: r.status, summary: r.summary ?? undefined, latencyMs: r.latencyMs } : undefined,
    correctsId: event.correctsId,
    usage: event.usage,
    toolVersion: toolVersion ?? undefined,
    toolSet: event.toolSet,
    metadata: event.metadata,
  };
}

/**
 * The versions of the definitions the spans carried, registered through tools.register's rules
 * (same validation, same versioning by canonical hash) when the project does not have them yet,
 * each on its own so that one broken schema does not keep the others out; and the project's
 * registry to classify the calls with.
 */
async function registerDefinitions(projectId: string, definitions: { definition: Definition; span: AssembledCall["span"] }[]) {
  let known = await loadToolVersions(projectId);
  const have = new Set(known.map((t) => `${t.name}\n${t.version}`));
  // by definition: the spans of one export that repeat a definitions text share its objects (withinOneExport)
  const versions = new Map<Definition, string | null>();
  const problems: string[] = [];
  const done = new Map<string, string | null>();
  let registered = false;
  for (const { definition, span } of definitions) {
    if (versions.has(definition)) continue;
    const key = JSON.stringify(definition);
    if (!done.has(key)) {
      const versioned = versionedTool(definition, (name, version) => have.has(`${name}\n${version}`));
      if (!versioned.ok) {
        done.set(key, null);
        problems.push(`tool definition "${definition.name.slice(0, 60)}" on span "${span.name.slice(0, 60)}" was not registered: ${versioned.message}`);
      } else {
        if (!have.has(`${versioned.tool.name}\n${versioned.tool.version}`)) {
          await storeTools(projectId, [{ ...versioned.tool, source: "otlp" }]);
          have.add(`${versioned.tool.name}\n${versioned.tool.version}`);
          registered = true;
        }
        done.set(key, versioned.tool.version);
      }
    }
    versions.set(definition, done.get(key)!);
  }
  if (registered) known = await loadToolVersions(projectId);
  return { registry: registryResolver(known), versions, problems };
}

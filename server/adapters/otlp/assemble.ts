import { likelyTool } from "../../../isomorphic/tool-names";
import { MAX_TOOL_SET, type ResultStatus } from "../../../contracts/event";
import type { AssembledExecution } from "./executions";
import { mapGenAi } from "./gen-ai";
import { mapOpenInference } from "./openinference";
import { mapOpenLlmetry } from "./openllmetry";
import { eventId, isoFromNs, withinOneExport, type Definition, type Mapped, type ModelCallPiece, type ToolExecutionPiece } from "./pieces";
import { transcriptOf, type TranscriptMessage } from "./transcript";
import { mapVercelAi } from "./vercel-ai";
import type { OtlpSpan, SpanProblem } from "./wire";
import { unstorableText } from "../../../contracts/json-walk";
import { EVENT_NAME_LIMITS } from "../../../contracts/text-limits";

const storableId = (id: string) => unstorableText(id) === undefined;

/**
 * One OTLP request's spans → what to store. Pure: the service registers the definitions,
 * numbers the steps, writes the calls through ingest.batch's path and applies the results.
 *
 * The families are tried in this order because the AI SDK also sets `gen_ai.*` attributes
 * and OpenLLMetry's newer releases use the GenAI message attributes.
 */
const MAPPERS = [mapVercelAi, mapOpenInference, mapOpenLlmetry, mapGenAi];

export function mapSpan(span: OtlpSpan): Mapped {
  for (const map of MAPPERS) {
    const mapped = map(span);
    if (mapped !== "other") return mapped;
  }
  return "other";
}

/**
 * What the service needs of a span once it is mapped: its name (for rejections) and trace (for
 * the export's turn). Only this is kept, so that an export's decoded spans (their attributes
 * and message texts) are garbage as soon as they are mapped, not held while the export is written.
 */
type SpanRef = Pick<OtlpSpan, "name" | "traceId">;

/** A tool call ready for ingest.batch, but for its step and tool version (the service knows those). */
export type AssembledCall = {
  event: {
    id: string;
    runId: string;
    timestamp: string;
    model: ModelCallPiece["model"];
    tool: string;
    arguments: Record<string, unknown> | string;
    usage?: ModelCallPiece["usage"];
    /** the call of the previous turn this one retries under a corrected name (an unknown tool's typo) */
    correctsId?: string;
    /** the names of the definitions its model call was given, when the span recorded them (context cost counts the run with them) */
    toolSet?: string[];
    metadata: Record<string, string>;
  };
  /** trace id + span id of the model call that wrote it (its step is that span's rank in the run) */
  modelSpan: string;
  /** the definition of this tool that the model was given in the same span, if any */
  definition?: Definition;
  span: SpanRef;
};

/** What happened to a call; the highest priority wins: the tool-execution span (2) over the next turn's tool message (1). */
export type AssembledResult = {
  callId: string;
  priority: 1 | 2;
  status: ResultStatus;
  summary?: string;
  latencyMs?: number;
  /** a tool message's: whether it named its call's tool call id (pieces.ts, ToolMessage) */
  idKept?: boolean;
  /** the span it was read from: its trace (that of the call too) and its name (for a rejection) */
  traceId: string;
  spanName: string;
};

export type Assembled = {
  calls: AssembledCall[];
  modelCalls: {
    runId: string;
    spanKey: string;
    spanName: string;
    startedNs: bigint;
    /**
     * how many assistant turns its input repeats: orders the model calls of a run that started
     * in the same tick of the clock (JavaScript SDKs record start times to the millisecond)
     */
    turn: number;
    traceId: string;
    /** no conversation or session id: the run is the trace's, unless the call continues a conversation of another trace */
    implicitRun: boolean;
    /** the tool call ids of earlier turns its input repeats, and those of the calls it wrote */
    continues: string[];
    wrote: string[];
    /** its input and its answer: the run's conversation (transcript.ts) */
    messages: TranscriptMessage[];
  }[];
  results: AssembledResult[];
  /** tool executions recorded without the model's tool call id and whose call is not in this request: joined by the service (executions.ts) */
  executions: AssembledExecution[];
  /** each distinct definition of the export once, with the first span that gave it */
  definitions: { definition: Definition; span: SpanRef }[];
  /** spans that are not about generative AI */
  ignored: number;
  /** generative-AI spans that are neither model calls nor tool executions (agents, embeddings), or that repeat one (`covered`) */
  notModelCalls: number;
  /**
   * Message-less model-call spans nested in (or around) another model-call span of the export that
   * carries the messages: a client library's own span of the call an instrumentation recorded (the
   * Anthropic SDK's). Not a model call of their own (no step), and nothing is missing.
   */
  covered: Set<string>;
  rejected: SpanProblem[];
};

export const spanKey = (span: OtlpSpan) => `${span.traceId}/${span.spanId}`;

/** A model-call span that recorded no messages (content capture off, or the content comes as log records). */
const messageLess = (m: ModelCallPiece) => !m.calls.length && !m.toolMessages.length && !m.continues.length;

/**
 * The names of a model call's definitions as an event's toolSet: only names the contract takes (a
 * name it refuses would sink the call), at most its limit; none when the span recorded no definitions.
 */
function toolSetOf(definitions: readonly Definition[]): string[] | undefined {
  const names = [...new Set(definitions.map((d) => d.name))].filter((n) => n.length > 0 && n.length <= EVENT_NAME_LIMITS.tool && storableId(n));
  return names.length ? names.slice(0, MAX_TOOL_SET) : undefined;
}

export const assemble = (spans: OtlpSpan[]): Assembled => withinOneExport(() => assembleSpans(spans));

function assembleSpans(spans: OtlpSpan[]): Assembled {
  const out: Assembled = {
    calls: [],
    modelCalls: [],
    results: [],
    executions: [],
    definitions: [],
    ignored: 0,
    notModelCalls: 0,
    covered: new Set(),
    rejected: [],
  };
  let models: ModelCallPiece[] = [];
  const tools: ToolExecutionPiece[] = [];
  for (const span of spans) {
    const mapped = mapSpan(span);
    if (mapped === "other") out.ignored++;
    else if (mapped === "nothing") out.notModelCalls++;
    else if ("rejected" in mapped) out.rejected.push({ span: span.name, reason: mapped.rejected });
    else if (mapped.kind === "model") models.push(mapped);
    else tools.push(mapped);
  }

  const bare = models.filter(messageLess);
  if (bare.length) {
    const recorded = new Set(models.filter((m) => !messageLess(m)).map((m) => spanKey(m.span)));
    const parentOf = new Set(models.filter((m) => !messageLess(m)).map((m) => `${m.span.traceId}/${m.span.parentSpanId}`));
    for (const { span } of bare) {
      if (recorded.has(`${span.traceId}/${span.parentSpanId}`) || parentOf.has(spanKey(span))) out.covered.add(spanKey(span));
    }
    if (out.covered.size) {
      models = models.filter((m) => !out.covered.has(spanKey(m.span)));
      out.notModelCalls += out.covered.size;
    }
  }

  // the request's calls by trace, for tool spans that record no tool call id (OpenLLMetry)
  const byTrace = new Map<string, { call: AssembledCall; name: string; endNs: bigint; taken: boolean }[]>();
  const listed = new Set<Definition>();
  for (const piece of models) {
    const { span } = piece;
    if (span.startNs === 0n) {
      out.rejected.push({ span: span.name, reason: `model-call span "${span.name.slice(0, 60)}" has no start time` });
      continue;
    }
    const runId = piece.runId ?? span.traceId;
    const ref: SpanRef = { name: span.name, traceId: span.traceId };
    out.modelCalls.push({
      runId,
      spanKey: spanKey(span),
      spanName: span.name,
      startedNs: span.startNs,
      turn: piece.turn,
      traceId: span.traceId,
      implicitRun: !piece.runId,
      // ids PostgreSQL cannot store (NUL, lone surrogates) were never stored: nothing to join by
      continues: piece.continues.filter(storableId),
      wrote: piece.calls.flatMap((c) => (c.callId && storableId(c.callId) ? [c.callId] : [])),
      messages: transcriptOf(piece.input, { text: piece.outputText, calls: piece.calls }),
    });
    // the spans of an export share the definitions they repeat (withinOneExport): each is listed once, with the first span that gave it
    for (const definition of piece.definitions) {
      if (listed.has(definition)) continue;
      listed.add(definition);
      out.definitions.push({ definition, span: ref });
    }
    const written = piece.calls.map((c) => c.name);
    // a call of the previous turn under a name this turn no longer uses, close to one it does: the typo this call corrects
    const retried = piece.answered.filter((a) => !written.includes(a.name) && !piece.definitions.some((d) => d.name === a.name));
    const continues = piece.continues.filter(storableId).at(-1);
    const toolSet = toolSetOf(piece.definitions);
    piece.calls.forEach((call, position) => {
      const definition = piece.definitions.find((d) => d.name === call.name);
      const corrects = retried.find((a) => likelyTool(a.name, written) === call.name);
      const assembled: AssembledCall = {
        event: {
          id: eventId(span.traceId, call.callId, span.spanId, position),
          runId,
          timestamp: isoFromNs(span.startNs),
          model: piece.model,
          tool: call.name,
          arguments: call.arguments,
          // a model call's usage goes with its first tool call, so that it is counted once
          ...(position === 0 && piece.usage ? { usage: piece.usage } : {}),
          ...(corrects ? { correctsId: eventId(span.traceId, corrects.callId, span.spanId, 0) } : {}),
          ...(toolSet ? { toolSet } : {}),
          metadata: {
            "otel.trace_id": span.traceId,
            "otel.span_id": span.spanId,
            "otel.source": piece.family,
            ...(call.callId ? { "otel.tool_call_id": call.callId.slice(0, 1000) } : {}),
            // the last call of the conversation this model call was given: how a later trace finds the conversation it continues
            ...(continues && !piece.runId ? { "otel.continues": continues.slice(0, 1000) } : {}),
          },
        },
        modelSpan: spanKey(span),
        ...(definition ? { definition } : {}),
        span: ref,
      };
      out.calls.push(assembled);
      const list = byTrace.get(span.traceId) ?? [];
      list.push({ call: assembled, name: call.name, endNs: span.endNs, taken: false });
      byTrace.set(span.traceId, list);
    });
    for (const message of piece.toolMessages) {
      out.results.push({
        callId: eventId(span.traceId, message.callId, span.spanId, 0),
        traceId: span.traceId,
        spanName: span.name,
        priority: 1,
        status: message.error ? "error" : "ok",
        summary: message.content, // "" when the tool message said nothing: an empty result
        ...(message.idKept !== undefined ? { idKept: message.idKept } : {}),
      });
    }
  }

  for (const piece of tools) {
    const { span } = piece;
    let callId: string | undefined;
    if (piece.callId) callId = eventId(span.traceId, piece.callId, "", 0);
    else {
      // no tool call id: the latest call of that tool, written before this span started, in the same request
      const candidates = (byTrace.get(span.traceId) ?? []).filter((c) => !c.taken && c.name === piece.name && c.endNs <= span.startNs);
      const match = candidates.sort((a, b) => (a.endNs < b.endNs ? 1 : a.endNs > b.endNs ? -1 : 0))[0];
      if (match) {
        match.taken = true;
        callId = match.call.event.id;
      }
    }
    if (!callId) {
      // a server's or tool runtime's execution: joined with the call when both are stored, whichever comes first
      const { name, status, summary, latencyMs, server, protocolVersion, requestId } = piece;
      out.executions.push({
        traceId: span.traceId,
        spanId: span.spanId,
        spanName: span.name,
        tool: name,
        status,
        latencyMs,
        startedNs: span.startNs,
        ...(summary !== undefined ? { summary } : {}),
        ...(server ? { server } : {}),
        ...(protocolVersion ? { protocolVersion } : {}),
        ...(requestId ? { requestId } : {}),
        ...(piece.arguments !== undefined ? { arguments: piece.arguments } : {}),
      });
      continue;
    }
    out.results.push({
      callId,
      traceId: span.traceId,
      spanName: span.name,
      priority: 2,
      status: piece.status,
      ...(piece.summary !== undefined ? { summary: piece.summary } : {}),
      latencyMs: piece.latencyMs,
    });
  }
  return out;
}

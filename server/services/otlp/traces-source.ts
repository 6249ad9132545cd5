import { assemble, spanKey } from "../../adapters/otlp/assemble";
import { explainExport, type IgnoredGroup } from "../../adapters/otlp/explain";
import { withinBounds } from "../../adapters/otlp/bounds";
import type { DecodedRequest, OtlpSpan, SpanProblem } from "../../adapters/otlp/wire";
import { awaitsLogContent } from "../../adapters/otlp/logs";
import { pool } from "../../db/client";
import { ingest } from "../ingest/pipeline";
import { continuesConversations, type Queryable } from "./conversations";
import { hasLogRecords, joinWaitingSpans } from "./log-content";
import { totalsOf, spanHooks, completedSpansPart, spanKeys, spanPart, spanProblems, type SpanPart } from "./spans";
import { recordExport, recordStats } from "./stats";

export type TracesResult = {
  spans: number;
  ignored: number;
  accepted: number;
  duplicates: number;
  results: number;
  rejected: SpanProblem[];
  /** tool definitions that could not be registered (a warning: the calls are still stored) */
  definitionProblems: string[];
  /** why spans gave nothing, or only calls without a schema verdict, by group (explain.ts) */
  ignoredGroups: IgnoredGroup[];
  /** tool executions of servers and tool runtimes kept (new ones), and those joined with their call by this request */
  executions: number;
  executionsJoined: number;
};

/**
 * OTLP traces, a source of the ingestion pipeline (server/services/ingest/pipeline.ts): the
 * adapter has decoded the spans, and maps them (server/adapters/otlp); their calls, and those of
 * spans that waited for log records which have arrived, go through the pipeline with the spans'
 * side records (spans.ts); the answer counts what the export gave and why spans gave nothing,
 * and is kept for Settings → Connect (stats.ts).
 */
export function ingestTraces(projectId: string, decoded: DecodedRequest): Promise<TracesResult> {
  // not async, and no function below names `decoded`: nothing holds the decoded spans once they
  // are mapped (they would be garbage kept alive while the export is written)
  const assembled = withinBounds(assemble(decoded.spans));
  const spans = decoded.spans.length + decoded.problems.length;
  const unread = decoded.problems;
  // GenAI model-call spans without messages (but for those another span of the export recorded): their content may be in log records (POST /v1/logs)
  const waiting = decoded.spans.filter((s) => !assembled.covered.has(spanKey(s)) && awaitsLogContent(s));
  let stillWaiting = waiting;
  let waitProblems: SpanProblem[] = [];
  const lockKeys = [...spanKeys(assembled), ...waiting.map((s) => `trace/${s.traceId}`)];
  // the parts to write: the export's spans (unless `early` already made their part), then the waiting spans whose records have arrived
  const partsOf = async (db: Queryable, joined: OtlpSpan[], early?: SpanPart) => {
    const parts = [early ?? (await spanPart(db, projectId, assembled))];
    if (joined.length) parts.push(await completedSpansPart(db, projectId, joined));
    return parts;
  };
  return ingest(projectId, {
    lockKeys,
    // an export that may continue a conversation of another trace reads that trace's calls only
    // once it has its turn (an export writing them is then committed); others are checked before
    before: async () => (continuesConversations(assembled) ? undefined : (await partsOf(pool(), []))[0]),
    during: async (client, early) => {
      if (!waiting.length) return partsOf(client, [], early);
      const { joined, problems } = await joinWaitingSpans(client, projectId, waiting);
      waitProblems = problems;
      stillWaiting = waiting.filter((s) => !joined.some((j) => spanKey(j) === spanKey(s)));
      return partsOf(client, joined, early);
    },
    ...spanHooks(projectId),
    answer: async (client, outcomes) => {
      const [first, extra] = outcomes;
      const result: TracesResult = {
        spans,
        ignored: first!.part.assembled.ignored,
        results: outcomes.reduce((n, o) => n + o.part.assembled.results.length, 0),
        rejected: [...unread, ...spanProblems(first!), ...waitProblems, ...(extra ? spanProblems(extra) : [])],
        definitionProblems: outcomes.flatMap((o) => o.part.definitionProblems),
        ignoredGroups: explainExport({
          notGenAi: first!.part.assembled.ignored,
          notModelCalls: first!.part.assembled.notModelCalls,
          waiting: stillWaiting,
          logsSeen: stillWaiting.length > 0 && (await hasLogRecords(client, projectId)),
          uncheckedTools: outcomes.flatMap((o) => o.calls.filter((c) => !c.verdict.checked?.version).map((c) => c.event.tool)),
        }),
        ...totalsOf(outcomes),
      };
      await recordStats(client, projectId, result);
      await recordExport(client, projectId, result);
      return result;
    },
  });
}

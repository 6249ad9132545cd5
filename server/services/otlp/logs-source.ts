import type { DecodedLogs, SpanProblem } from "../../adapters/otlp/wire";
import { isGenAiEvent, recordSpanKey, unstorableJson, type LogContent } from "../../adapters/otlp/logs";
import { ingest } from "../ingest/pipeline";
import { keepRecords } from "./log-content";
import { completedSpansPart, spanHooks, spanProblems, totalsOf } from "./spans";
import { recordStats } from "./stats";

export type LogsResult = {
  records: number;
  /** records that are not GenAI events */
  ignored: number;
  /** calls stored from spans whose content these records completed */
  accepted: number;
  duplicates: number;
  rejected: SpanProblem[];
};

/**
 * OTLP logs, a source of the ingestion pipeline: the GenAI events of model-call spans (any
 * `gen_ai.*` event name: isGenAiEvent) are kept, and those whose span has arrived complete it,
 * whose calls then go through the pipeline like those of a span that carried its messages
 * itself (spans.ts), in the same one transaction.
 */
export async function ingestLogs(projectId: string, decoded: DecodedLogs): Promise<LogsResult> {
  const rejected: SpanProblem[] = [...decoded.problems];
  const kept: { spanKey: string; content: LogContent }[] = [];
  let ignored = 0;
  for (const record of decoded.records) {
    if (!isGenAiEvent(record.eventName)) {
      ignored++;
      continue;
    }
    const name = record.eventName;
    const key = recordSpanKey(record);
    const content = { event: name, timeNs: record.timeNs, body: record.body, attributes: record.attributes };
    const problem = key ? unstorableJson(content) : "carries no trace and span id, so it cannot be joined to its model call: emit it while the span is active";
    if (problem) rejected.push({ span: name, reason: `log record "${name}" ${key ? `was not stored: its content ${problem}` : problem}` });
    else kept.push({ spanKey: key, content });
  }
  return ingest(projectId, {
    lockKeys: kept.map((k) => `trace/${k.spanKey.split("/")[0]}`),
    during: async (client) => {
      const completed = await keepRecords(client, projectId, kept);
      return completed.length ? [await completedSpansPart(client, projectId, completed)] : [];
    },
    ...spanHooks(projectId),
    answer: async (client, outcomes) => {
      const { accepted, duplicates, executions, executionsJoined } = totalsOf(outcomes);
      const result: LogsResult = {
        records: decoded.records.length + decoded.problems.length,
        ignored,
        accepted,
        duplicates,
        rejected: [...rejected, ...outcomes.flatMap(spanProblems)],
      };
      await recordStats(client, projectId, {
        spans: 0,
        ignored: 0,
        rejected: result.rejected,
        definitionProblems: outcomes.flatMap((o) => o.part.definitionProblems),
        executions,
        executionsJoined,
      });
      return result;
    },
  });
}

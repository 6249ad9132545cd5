import type { OtlpSpan } from "./wire";

/**
 * Why spans of an export gave no tool calls (or only unchecked ones), in one sentence per group:
 * what Settings → Connect shows per export and what the OTLP answer's partial_success
 * error_message says. The one source of these sentences.
 */
type IgnoredReason = "not_gen_ai" | "not_model_calls" | "content_in_logs" | "no_messages" | "waiting_for_logs" | "no_tool_definitions";

export type IgnoredGroup = { reason: IgnoredReason; count: number; sentence: string };

/** Instrumentations (by scope name) that put a chat's messages only in log records, never on the span. */
const CONTENT_AS_LOGS = new Set(["@opentelemetry/instrumentation-openai"]);

/** Spans ignored for a reason the harness must fix: these go into the OTLP answer too (calls without a schema are stored, so they do not). */
const ACTIONABLE: ReadonlySet<IgnoredReason> = new Set(["content_in_logs", "no_messages"]);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const SENTENCES: Record<IgnoredReason, (n: number, detail: string) => string> = {
  not_gen_ai: (n) => `${plural(n, "span")} not about generative AI (HTTP, database, your own): nothing to read in them`,
  not_model_calls: (n) => `${plural(n, "generative-AI span")} that are not model calls or tool executions (agents, embeddings): nothing to read in them`,
  content_in_logs: (n) =>
    `${plural(n, "chat span")} carried no messages because the instrumentation sends the content as log records: also export logs to /v1/logs (an OTLP log exporter with the same endpoint and key), with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true; the spans wait for their records`,
  no_messages: (n) =>
    `${plural(n, "chat span")} carried no messages: enable content capture — for openai-v2 OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=span_only — or, if the instrumentation sends the content as log records, also export logs to /v1/logs (docs/otlp.md)`,
  waiting_for_logs: (n) =>
    `${plural(n, "chat span")} without messages wait for their log records (this project receives GenAI log records on /v1/logs): their calls are stored when the records arrive`,
  no_tool_definitions: (n, tools) =>
    `${plural(n, "tool call")} of ${tools} stored without a schema to check them against: the spans carry no tool definitions and the project has none registered; register the tools (Tools → Register tool definitions, tools.register or the SDK), then re-check the stored calls`,
};

export type ExportFacts = {
  /** spans the mappers found not about generative AI */
  notGenAi: number;
  /** generative-AI spans that are neither model calls nor tool executions */
  notModelCalls: number;
  /** chat spans without messages that no log record completed in this request */
  waiting: OtlpSpan[];
  /** whether the project has received GenAI log records (so that waiting spans are expected to be completed) */
  logsSeen: boolean;
  /** the tools of the calls stored without a schema verdict, one entry per call */
  uncheckedTools: string[];
};

/** The groups of an export's spans and calls that gave nothing (or nothing checked), largest first. */
export function explainExport(facts: ExportFacts): IgnoredGroup[] {
  const inLogs = facts.waiting.filter((s) => CONTENT_AS_LOGS.has(s.scope)).length;
  const tools = [...new Set(facts.uncheckedTools)];
  const named = tools.length > 3 ? `${tools.slice(0, 3).join(", ")} and ${tools.length - 3} more tools` : tools.join(", ");
  const counts: [IgnoredReason, number, string][] = [
    ["waiting_for_logs", facts.logsSeen ? facts.waiting.length : 0, ""],
    ["content_in_logs", facts.logsSeen ? 0 : inLogs, ""],
    ["no_messages", facts.logsSeen ? 0 : facts.waiting.length - inLogs, ""],
    ["no_tool_definitions", facts.uncheckedTools.length, named],
    ["not_model_calls", facts.notModelCalls, ""],
    ["not_gen_ai", facts.notGenAi, ""],
  ];
  return counts.filter(([, count]) => count > 0).map(([reason, count, detail]) => ({ reason, count, sentence: SENTENCES[reason](count, detail) }));
}

/** The sentences of the groups a harness should act on, for partial_success's error_message (undefined: none). */
export function actionableMessage(groups: IgnoredGroup[]): string | undefined {
  const lines = groups.filter((g) => ACTIONABLE.has(g.reason)).map((g) => g.sentence);
  return lines.length ? lines.join("; ") : undefined;
}

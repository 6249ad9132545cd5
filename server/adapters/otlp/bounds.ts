import { eventSchema } from "../../../contracts/event";
import { unstorableText } from "../../../contracts/json-walk";
import type { Assembled } from "./assemble";
import type { SpanProblem } from "./wire";

/**
 * What the OTLP path writes besides the calls (the model calls that number the steps, the
 * results applied to calls) held to the event contract's bounds, so that a span whose values
 * cannot be stored is rejected on its own. The calls themselves go through the contract in
 * ingest (checkEvents). A model call whose run id is unusable takes its calls with it: they
 * would be refused for the same reason, and it is said once.
 */
export function withinBounds(assembled: Assembled): Assembled {
  const rejected: SpanProblem[] = [];
  const badModelSpans = new Set<string>();
  const modelCalls = assembled.modelCalls.filter((m) => {
    const run = eventSchema.shape.runId.safeParse(m.runId);
    if (run.success) return true;
    badModelSpans.add(m.spanKey);
    rejected.push({
      span: m.spanName,
      reason: `model-call span "${m.spanName.slice(0, 60)}": its run id (the conversation id) ${run.error.issues[0]!.message}`,
    });
    return false;
  });
  const results = assembled.results.filter((r) => {
    const id = eventSchema.shape.id.safeParse(r.callId);
    const result = eventSchema.shape.result.safeParse({
      status: r.status,
      ...(r.summary !== undefined ? { summary: r.summary } : {}),
      ...(r.latencyMs !== undefined ? { latencyMs: r.latencyMs } : {}),
    });
    const problem = !id.success ? `its tool call id ${id.error.issues[0]!.message}` : !result.success ? result.error.issues[0]!.message : undefined;
    if (problem) rejected.push({ span: r.spanName, reason: `the tool result of span "${r.spanName.slice(0, 60)}" was not stored: ${problem}` });
    return !problem;
  });
  const executions = assembled.executions.filter((e) => {
    const tool = eventSchema.shape.tool.safeParse(e.tool);
    const args = e.arguments === undefined ? { success: true as const } : eventSchema.shape.arguments.safeParse(e.arguments);
    const result = eventSchema.shape.result.safeParse({ status: e.status, summary: e.summary, latencyMs: e.latencyMs });
    const text = [e.server, e.protocolVersion, e.requestId].map((t) => (t === undefined ? undefined : unstorableText(t))).find((p) => p !== undefined);
    const problem = !tool.success
      ? tool.error.issues[0]!.message
      : !args.success
        ? args.error.issues[0]!.message
        : !result.success
          ? result.error.issues[0]!.message
          : text && `its server, protocol version or request id ${text}`;
    if (problem) rejected.push({ span: e.spanName, reason: `the tool execution of span "${e.spanName.slice(0, 60)}" was not stored: ${problem}` });
    return !problem;
  });
  return {
    ...assembled,
    modelCalls,
    results,
    executions,
    calls: assembled.calls.filter((c) => !badModelSpans.has(c.modelSpan)),
    rejected: [...assembled.rejected, ...rejected],
  };
}

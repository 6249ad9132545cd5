import type { ResultStatus } from "../../../contracts/event";
import type { ToolArguments } from "./pieces";

/**
 * Tool executions recorded by the side that ran the tool (an MCP server's `tools/call` span, a
 * tool runtime's `execute_tool` span) without the model's tool call id. Each is kept on its own
 * (`otlp_tool_executions`) and joined with the call the model wrote, whichever arrives first:
 * the server's span is in the client's trace (MCP carries the trace context in `_meta`), so the
 * call is the latest one of that tool in the same trace that the model wrote before the
 * execution started and that no other execution took. Joined, its outcome, result and latency
 * become the call's result (as a tool-execution span's would).
 */
export type AssembledExecution = {
  traceId: string;
  spanId: string;
  spanName: string;
  tool: string;
  status: ResultStatus;
  summary?: string;
  latencyMs: number;
  startedNs: bigint;
  server?: string;
  protocolVersion?: string;
  requestId?: string;
  arguments?: ToolArguments;
};

/** An execution waiting for its call, or a call that may be one's: enough to pair them. */
type ExecutionRef = { key: string; traceId: string; tool: string; startedMs: number };
export type CallRef = { id: string; traceId: string; tool: string; timestampMs: number };

/**
 * Pairs executions with calls: in start order, each takes the latest call of its tool in its
 * trace written at or before it started that is not `taken` (by an earlier join or this one).
 * Pure, so both arrival orders give the same pairs once both sides are there.
 */
export function pairExecutions(executions: ExecutionRef[], calls: CallRef[], taken: Set<string>): Map<string, string> {
  const pairs = new Map<string, string>();
  const used = new Set(taken);
  const byStart = [...executions].sort((a, b) => a.startedMs - b.startedMs || (a.key < b.key ? -1 : 1));
  const latestFirst = [...calls].sort((a, b) => b.timestampMs - a.timestampMs || (a.id < b.id ? 1 : -1));
  for (const e of byStart) {
    const call = latestFirst.find((c) => !used.has(c.id) && c.traceId === e.traceId && c.tool === e.tool && c.timestampMs <= e.startedMs);
    if (!call) continue;
    used.add(call.id);
    pairs.set(e.key, call.id);
  }
  return pairs;
}

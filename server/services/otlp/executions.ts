import type { PoolClient } from "pg";
import type { AssembledCall, AssembledResult } from "../../adapters/otlp/assemble";
import { pairExecutions, type AssembledExecution, type CallRef } from "../../adapters/otlp/executions";
import { JOIN_WINDOW_MS } from "./conversations";

const msOf = (ns: bigint) => Number(ns / 1_000_000n);

/**
 * Keeps this request's tool executions (server/adapters/otlp/executions.ts; a re-sent one once)
 * and joins the waiting executions of the traces this request touches with their calls: the
 * calls of this request and those stored before (found by tool and time, within JOIN_WINDOW_MS
 * before the execution). Returns the results the joins give (the tool-execution priority), for
 * the caller to apply, and how many executions were new and how many were joined.
 */
export async function joinExecutions(client: PoolClient, projectId: string, executions: AssembledExecution[], calls: AssembledCall[]) {
  let received = 0;
  if (executions.length) {
    const { rowCount } = await client.query(
      `INSERT INTO otlp_tool_executions (project_id, trace_id, span_id, tool, status, summary, latency_ms, started_ns, server, protocol_version, request_id, arguments)
       SELECT $1::uuid, * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int4[], $8::int8[], $9::text[], $10::text[], $11::text[], $12::jsonb[])
       ON CONFLICT DO NOTHING`,
      [
        projectId,
        executions.map((e) => e.traceId),
        executions.map((e) => e.spanId),
        executions.map((e) => e.tool),
        executions.map((e) => e.status),
        executions.map((e) => e.summary ?? null),
        executions.map((e) => e.latencyMs),
        executions.map((e) => e.startedNs.toString()),
        executions.map((e) => e.server ?? null),
        executions.map((e) => e.protocolVersion ?? null),
        executions.map((e) => e.requestId ?? null),
        executions.map((e) => (e.arguments === undefined ? null : JSON.stringify(e.arguments))),
      ],
    );
    received = rowCount ?? 0;
  }
  const traces = [...new Set([...executions.map((e) => e.traceId), ...calls.map((c) => c.span.traceId)])];
  if (!traces.length) return { received, joined: 0, results: [] };
  const { rows } = await client.query<{
    trace_id: string;
    span_id: string;
    tool: string;
    status: "ok" | "error";
    summary: string | null;
    latency_ms: number;
    started_ns: string;
    call_id: string | null;
  }>(
    `SELECT trace_id, span_id, tool, status, summary, latency_ms, started_ns::text, call_id FROM otlp_tool_executions WHERE project_id = $1 AND trace_id = ANY($2::text[])`,
    [projectId, traces],
  );
  const waiting = rows.filter((r) => r.call_id === null);
  if (!waiting.length) return { received, joined: 0, results: [] };
  const taken = new Set(rows.flatMap((r) => (r.call_id === null ? [] : [r.call_id])));
  const candidates: CallRef[] = calls.map((c) => ({ id: c.event.id, traceId: c.span.traceId, tool: c.event.tool, timestampMs: Date.parse(c.event.timestamp) }));
  const starts = waiting.map((w) => msOf(BigInt(w.started_ns)));
  const { rows: stored } = await client.query<{ id: string; trace_id: string; tool: string; ms: string }>(
    `SELECT id, metadata->>'otel.trace_id' AS trace_id, tool, (extract(epoch FROM timestamp) * 1000)::int8::text AS ms
       FROM tool_calls
      WHERE project_id = $1 AND tool = ANY($2::text[]) AND timestamp >= $3 AND timestamp <= $4 AND metadata->>'otel.trace_id' = ANY($5::text[])`,
    [
      projectId,
      [...new Set(waiting.map((w) => w.tool))],
      new Date(Math.min(...starts) - JOIN_WINDOW_MS),
      new Date(Math.max(...starts)),
      [...new Set(waiting.map((w) => w.trace_id))],
    ],
  );
  for (const s of stored)
    if (!candidates.some((c) => c.id === s.id)) candidates.push({ id: s.id, traceId: s.trace_id, tool: s.tool, timestampMs: Number(s.ms) });
  const key = (r: { trace_id: string; span_id: string }) => `${r.trace_id}/${r.span_id}`;
  const pairs = pairExecutions(
    waiting.map((w, i) => ({ key: key(w), traceId: w.trace_id, tool: w.tool, startedMs: starts[i]! })),
    candidates,
    taken,
  );
  if (!pairs.size) return { received, joined: 0, results: [] };
  const joined = waiting.filter((w) => pairs.has(key(w)));
  await client.query(
    `UPDATE otlp_tool_executions e SET call_id = j.call_id FROM unnest($2::text[], $3::text[], $4::text[]) AS j(trace_id, span_id, call_id)
      WHERE e.project_id = $1 AND e.trace_id = j.trace_id AND e.span_id = j.span_id`,
    [projectId, joined.map((w) => w.trace_id), joined.map((w) => w.span_id), joined.map((w) => pairs.get(key(w))!)],
  );
  const results: AssembledResult[] = joined.map((w) => ({
    callId: pairs.get(key(w))!,
    priority: 2,
    status: w.status,
    ...(w.summary !== null ? { summary: w.summary } : {}),
    latencyMs: w.latency_ms,
    traceId: w.trace_id,
    spanName: `tools/call ${w.tool}`,
  }));
  return { received, joined: joined.length, results };
}

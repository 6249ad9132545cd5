import type { PoolClient } from "pg";
import type { Assembled } from "../../adapters/otlp/assemble";
import { eventId } from "../../adapters/otlp/pieces";
import { moveMessages } from "./messages";
import { markRunsStale } from "../metrics/spirals-kept";

/**
 * Runs without code (docs/otlp.md, "Conversations without a parent span"). A harness that
 * puts no span around a conversation makes each model call a trace of its own, but every
 * request repeats the conversation so far: the previous turns' tool calls and results, with
 * their ids. A model call with no conversation or session id joins the run of the earlier call
 * whose tool call id its input repeats, in the same project and within JOIN_WINDOW_MS:
 * - forward (the earlier turn is stored, or in the same request): joinConversations gives the
 *   model call that run, and points its results and corrections at the earlier trace's calls;
 * - backward (the later turn came first): mergeContinuedRuns moves the runs that continue a call
 *   of this request into this request's run, with the results and corrections they carried.
 * Either order ends in the same stored state.
 */
export const JOIN_WINDOW_MS = 60 * 60 * 1000;

type ModelCall = Assembled["modelCalls"][number];

const windowOf = (calls: ModelCall[]) => {
  const starts = calls.map((m) => Number(m.startedNs / 1_000_000n));
  return [new Date(Math.min(...starts) - JOIN_WINDOW_MS), new Date(Math.max(...starts) + JOIN_WINDOW_MS)];
};

const nsOf = (d: Date) => (BigInt(d.getTime()) * 1_000_000n).toString();

/** The pool or a transaction's client. */
export type Queryable = Pick<PoolClient, "query">;

const joiningCalls = (assembled: Assembled) => assembled.modelCalls.filter((m) => m.implicitRun && m.continues.length);

/** Whether some model call may continue a conversation of another trace (joinConversations then reads stored calls). */
export const continuesConversations = (assembled: Assembled) => joiningCalls(assembled).length > 0;

/**
 * Forward joins: the run of each model call that continues a conversation of another trace.
 * Read through `db` after the export took its turn (the pipeline's lockKeys, which hold the
 * tool call ids), so that a concurrent export of the earlier turn is seen once committed.
 */
export async function joinConversations(db: Queryable, projectId: string, assembled: Assembled): Promise<Assembled> {
  const joining = joiningCalls(assembled);
  if (!joining.length) return assembled;

  // where each repeated tool call id was written: this request's calls first, then the stored ones
  const writtenIn = new Map<string, { traceId: string; spanKey: string }>();
  for (const m of assembled.modelCalls) for (const id of m.wrote) writtenIn.set(id, { traceId: m.traceId, spanKey: m.spanKey });
  const storedRun = new Map<string, { runId: string; traceId: string }>();
  const wanted = [...new Set(joining.flatMap((m) => m.continues))].filter((id) => !writtenIn.has(id));
  if (wanted.length) {
    const [from, to] = windowOf(joining);
    const { rows } = await db.query<{ tool_call_id: string; run_id: string; trace_id: string }>(
      `SELECT DISTINCT ON (metadata->>'otel.tool_call_id') metadata->>'otel.tool_call_id' AS tool_call_id, run_id, metadata->>'otel.trace_id' AS trace_id
         FROM tool_calls
        WHERE project_id = $1 AND timestamp BETWEEN $2 AND $3 AND metadata->>'otel.tool_call_id' = ANY($4::text[])
        ORDER BY metadata->>'otel.tool_call_id', timestamp`,
      [projectId, from, to, wanted],
    );
    for (const r of rows) storedRun.set(r.tool_call_id, { runId: r.run_id, traceId: r.trace_id });
  }

  // resolve in start order, so that a chain of traces in one request ends in its first run
  const runOfSpan = new Map(assembled.modelCalls.map((m) => [m.spanKey, m.runId]));
  const moved = new Map<string, string>(); // event id in the continuing trace → the id of the call in the trace that wrote it
  const unresolved = new Map<string, string>(); // … → the waiting key of a call not seen yet (see mergeContinuedRuns)
  for (const m of [...joining].sort((a, b) => (a.startedNs < b.startedNs ? -1 : a.startedNs > b.startedNs ? 1 : 0))) {
    let run: string | undefined;
    for (const id of m.continues) {
      const here = writtenIn.get(id);
      const elsewhere = here ? { traceId: here.traceId, runId: runOfSpan.get(here.spanKey)! } : storedRun.get(id);
      if (!elsewhere) unresolved.set(eventId(m.traceId, id, "", 0), waitingKey(id));
      if (!elsewhere || elsewhere.traceId === m.traceId) continue;
      run ??= elsewhere.runId;
      moved.set(eventId(m.traceId, id, "", 0), eventId(elsewhere.traceId, id, "", 0));
    }
    if (run) runOfSpan.set(m.spanKey, run);
  }
  return {
    ...assembled,
    modelCalls: assembled.modelCalls.map((m) => ({ ...m, runId: runOfSpan.get(m.spanKey)! })),
    calls: assembled.calls.map((c) => ({
      ...c,
      event: {
        ...c.event,
        runId: runOfSpan.get(c.modelSpan)!,
        ...(c.event.correctsId ? { correctsId: moved.get(c.event.correctsId) ?? c.event.correctsId } : {}),
      },
    })),
    results: assembled.results.flatMap((r) => {
      if (moved.has(r.callId)) return [{ ...r, callId: moved.get(r.callId)! }];
      // a result for a call of a trace not seen yet is also kept under a key that trace will look for
      const waiting = unresolved.get(r.callId);
      return waiting ? [r, { ...r, callId: waiting }] : [r];
    }),
  };
}

/** Where a result waits for a call that a trace not seen yet wrote: by its tool call id alone. */
const waitingKey = (toolCallId: string) => `otel:~:${toolCallId}`.slice(0, 128);

/**
 * Backward joins: stored runs whose calls continue a call written in this request (their
 * `otel.continues`) become this request's run, with their model calls, and the results and
 * corrections they recorded for this request's calls. Returns the runs that grew, to be
 * renumbered and paired again.
 */
export async function mergeContinuedRuns(client: PoolClient, projectId: string, assembled: Assembled): Promise<string[]> {
  const writers = assembled.modelCalls.filter((m) => m.wrote.length);
  if (!writers.length) return [];
  const [from, to] = windowOf(writers);
  // through tool_calls_otel_continues_idx: only the window's calls that continue a conversation are read;
  // and through otlp_messages_call_id_idx the runs of a trace's own (no conversation id: the run is the
  // trace) that were given these calls' results, also those that wrote no call (a conversation's last answer)
  const { rows } = await client.query<{ run_id: string; trace_id: string; continues: string }>(
    `SELECT DISTINCT run_id, metadata->>'otel.trace_id' AS trace_id, metadata->>'otel.continues' AS continues
       FROM tool_calls
      WHERE project_id = $1 AND timestamp BETWEEN $2 AND $3 AND metadata ? 'otel.continues' AND metadata->>'otel.continues' = ANY($4::text[])
     UNION
     SELECT run_id, run_id, call_id FROM otlp_messages
      WHERE project_id = $1 AND call_id = ANY($4::text[]) AND run_id = split_part(span_key, '/', 1)
        AND started_ns BETWEEN $5 AND $6`,
    [projectId, from, to, writers.flatMap((m) => m.wrote), nsOf(from!), nsOf(to!)],
  );
  // results that arrived before the calls they answer (the next turn, a trace of its own, came first)
  const waiting = writers.flatMap((m) => m.wrote.map((id) => [waitingKey(id), eventId(m.traceId, id, "", 0)]));
  await client.query(
    `INSERT INTO otlp_results (project_id, call_id, priority, status, summary, latency_ms, id_kept)
     SELECT $1, ids.new_id, r.priority, r.status, r.summary, r.latency_ms, r.id_kept
       FROM unnest($2::text[], $3::text[]) AS ids(old_id, new_id) JOIN otlp_results r ON r.project_id = $1 AND r.call_id = ids.old_id
     ON CONFLICT DO NOTHING`,
    [projectId, waiting.map(([old]) => old), waiting.map(([, now]) => now)],
  );
  const writerOf = new Map(writers.flatMap((m) => m.wrote.map((id) => [id, m] as const)));
  const grown = new Set<string>();
  for (const r of rows) {
    const writer = writerOf.get(r.continues)!;
    if (r.run_id === writer.runId || r.trace_id === writer.traceId) continue;
    const ids = writer.wrote.map((id) => [eventId(r.trace_id, id, "", 0), eventId(writer.traceId, id, "", 0)]);
    await client.query(
      `WITH moved AS (UPDATE tool_calls SET run_id = $3 WHERE project_id = $1 AND run_id = $2 RETURNING 1)
       UPDATE otlp_model_calls SET run_id = $3 WHERE project_id = $1 AND run_id = $2`,
      [projectId, r.run_id, writer.runId],
    );
    await moveMessages(client, projectId, r.run_id, writer.runId);
    await markRunsStale(client, projectId, [r.run_id, writer.runId]); // the kept spirals of both runs
    await client.query(
      `WITH ids AS (SELECT * FROM unnest($2::text[], $3::text[]) AS i(old_id, new_id)),
       copied AS (
         INSERT INTO otlp_results (project_id, call_id, priority, status, summary, latency_ms, id_kept)
         SELECT $1, ids.new_id, r.priority, r.status, r.summary, r.latency_ms, r.id_kept FROM otlp_results r JOIN ids ON r.call_id = ids.old_id
          WHERE r.project_id = $1 ON CONFLICT DO NOTHING)
       UPDATE tool_calls t SET corrects_id = ids.new_id FROM ids WHERE t.project_id = $1 AND t.corrects_id = ids.old_id`,
      [projectId, ids.map(([old]) => old), ids.map(([, now]) => now)],
    );
    grown.add(writer.runId);
  }
  return [...grown];
}

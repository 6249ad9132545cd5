import { MAX_EVENTS_PER_BATCH } from "../../../contracts/event";
import { DomainError } from "../../domain/errors";
import { assemble, spanKey, type AssembledCall, type AssembledResult } from "../../adapters/otlp/assemble";
import type { Definition } from "../../adapters/otlp/pieces";
import type { DecodedRequest, SpanProblem } from "../../adapters/otlp/wire";
import { pool } from "../../db/client";
import { inTransaction } from "../../db/transaction";
import { ingestBatch } from "../ingest/ingest-batch";
import { pairRuns } from "../ingest/write-calls";
import { registerTools } from "../tools/registry";

export type TracesResult = {
  spans: number;
  ignored: number;
  accepted: number;
  duplicates: number;
  results: number;
  rejected: SpanProblem[];
  /** tool definitions that could not be registered (a warning: the calls are still stored) */
  definitionProblems: string[];
};

/**
 * OTLP traces → tool calls. The pieces of one call may come in different requests, in any
 * order, and more than once:
 * - the call itself (from the model-call span) is written through ingest.batch's path with a
 *   stable id, so a re-sent span is a duplicate and the rollups count it once;
 * - what happened to it (tool-execution span, or the tool message of the next turn) is kept in
 *   `otlp_results` and copied onto the stored call after the commit, by whichever of the two
 *   requests commits second (each copies after its own commit, so the later one sees both).
 *   Result columns feed no rollup, so this update needs no rollup change;
 * - steps are the rank of the model-call span among those of its run seen so far
 *   (`otlp_model_calls`); after the commit the run's steps are renumbered and its pairing
 *   recomputed (renumberAndPair), which corrects links and the rollups' correction counts.
 */
export async function ingestTraces(projectId: string, decoded: DecodedRequest): Promise<TracesResult> {
  const assembled = assemble(decoded.spans);
  const rejected: SpanProblem[] = [...decoded.problems, ...assembled.rejected];

  const { versions, problems: definitionProblems } = await registerDefinitions(projectId, assembled.definitions);

  const runIds = [...new Set(assembled.modelCalls.map((m) => m.runId))];
  if (assembled.modelCalls.length) {
    await pool().query(
      `INSERT INTO otlp_model_calls (project_id, run_id, span_key, started_ns)
       SELECT $1::uuid, * FROM unnest($2::text[], $3::text[], $4::int8[]) ON CONFLICT DO NOTHING`,
      [
        projectId,
        assembled.modelCalls.map((m) => m.runId),
        assembled.modelCalls.map((m) => m.spanKey),
        assembled.modelCalls.map((m) => m.startedNs.toString()),
      ],
    );
  }
  const steps = await stepsOf(projectId, runIds);

  // a result that came in this same request is written with its call (no second write of the row)
  const best = new Map<string, (typeof assembled.results)[number]>();
  for (const r of assembled.results) if ((best.get(r.callId)?.priority ?? 0) < r.priority) best.set(r.callId, r);

  let accepted = 0;
  let duplicates = 0;
  for (let start = 0; start < assembled.calls.length; start += MAX_EVENTS_PER_BATCH) {
    const chunk = assembled.calls.slice(start, start + MAX_EVENTS_PER_BATCH);
    const events = chunk.map((call) => ({
      ...call.event,
      step: steps.get(`${call.event.runId}\n${call.modelSpan}`),
      ...resultOf(best.get(call.event.id)),
      ...(call.definition ? { toolVersion: versions.get(definitionKey(call.span, call.definition)) } : {}),
    }));
    const result = await ingestBatch(projectId, events);
    accepted += result.accepted;
    duplicates += result.duplicates;
    for (const r of result.rejected) rejected.push({ span: chunk[r.index]!.span.name, reason: r.message.replace(/^events\[\d+\]\.?/, "tool call ") });
  }

  if (assembled.results.length) {
    const r = assembled.results;
    await pool().query(
      `INSERT INTO otlp_results (project_id, call_id, priority, status, summary, latency_ms)
       SELECT $1::uuid, * FROM unnest($2::text[], $3::int2[], $4::text[], $5::text[], $6::int4[]) ON CONFLICT DO NOTHING`,
      [projectId, r.map((x) => x.callId), r.map((x) => x.priority), r.map((x) => x.status), r.map((x) => x.summary ?? null), r.map((x) => x.latencyMs ?? null)],
    );
  }
  await applyResults(projectId, [...assembled.calls.map((c) => c.event.id), ...assembled.results.map((r) => r.callId)]);
  await renumberAndPair(projectId, runIds);

  const result = {
    spans: decoded.spans.length + decoded.problems.length,
    ignored: assembled.ignored,
    accepted,
    duplicates,
    results: assembled.results.length,
    rejected,
    definitionProblems,
  };
  await recordStats(projectId, result);
  return result;
}

const resultOf = (r: AssembledResult | undefined) =>
  r ? { result: { status: r.status, ...(r.summary ? { summary: r.summary } : {}), ...(r.latencyMs !== undefined ? { latencyMs: r.latencyMs } : {}) } } : {};

const definitionKey = (span: AssembledCall["span"], d: Definition) => `${spanKey(span)}\n${d.name}`;

/**
 * Each definition on its own through tools.register's function (same validation, same
 * versioning by canonical hash), so that one broken schema does not keep the others out.
 */
async function registerDefinitions(projectId: string, definitions: { definition: Definition; span: AssembledCall["span"] }[]) {
  const versions = new Map<string, string>();
  const problems: string[] = [];
  const done = new Map<string, string | null>();
  for (const { definition, span } of definitions) {
    const key = JSON.stringify(definition);
    if (!done.has(key)) {
      try {
        done.set(key, (await registerTools(projectId, [definition], "otlp"))[0]!.version);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        done.set(key, null);
        problems.push(
          `tool definition "${definition.name.slice(0, 60)}" on span "${span.name.slice(0, 60)}" was not registered: ${error.message.replace(/^tools\[0\]\s*/, "")}`,
        );
      }
    }
    const version = done.get(key);
    if (version) versions.set(definitionKey(span, definition), version);
  }
  return { versions, problems };
}

const RANKED = `
  SELECT run_id, span_key, (rank() OVER (PARTITION BY run_id ORDER BY started_ns, span_key))::int - 1 AS step
    FROM otlp_model_calls WHERE project_id = $1 AND run_id = ANY($2::text[])`;

/** Step of each model call of these runs: its rank by start time among the run's model calls seen so far (0-based). */
async function stepsOf(projectId: string, runIds: string[]) {
  if (!runIds.length) return new Map<string, number>();
  const { rows } = await pool().query<{ run_id: string; span_key: string; step: number }>(RANKED, [projectId, runIds]);
  return new Map(rows.map((r) => [`${r.run_id}\n${r.span_key}`, r.step]));
}

/** Copies the winning result of each of these calls onto the stored call (result columns only: no rollup reads them). */
async function applyResults(projectId: string, callIds: string[]) {
  if (!callIds.length) return;
  await pool().query(
    `UPDATE tool_calls t SET result_status = r.status, result_summary = r.summary, latency_ms = r.latency_ms
       FROM (SELECT DISTINCT ON (call_id) call_id, status, summary, latency_ms FROM otlp_results
              WHERE project_id = $1 AND call_id = ANY($2::text[]) ORDER BY call_id, priority DESC) r
      WHERE t.project_id = $1 AND t.id = r.call_id
        AND (t.result_status, t.result_summary, t.latency_ms) IS DISTINCT FROM (r.status, r.summary, r.latency_ms)`,
    [projectId, [...new Set(callIds)]],
  );
}

/**
 * After the commit, the touched runs' steps are renumbered (a model call may have arrived
 * after later ones of its run) and their pairing recomputed. Pieces of one run written by
 * concurrent requests do not see each other inside their own transactions; this pass, made
 * by every request after its commit and one request at a time per run (advisory lock), runs
 * last in the request that commits last and so sees all of them. Re-pairing moves the
 * rollups' correction counts by the change of each link, so repeating it is harmless.
 */
async function renumberAndPair(projectId: string, runIds: string[]) {
  if (!runIds.length) return;
  await inTransaction(async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text || '/' || r, 0)) FROM unnest($2::text[]) r ORDER BY r`, [
      projectId,
      [...runIds].sort(),
    ]);
    await client.query(
      `UPDATE tool_calls t SET step = s.step FROM (${RANKED}) s
        WHERE t.project_id = $1 AND t.run_id = ANY($2::text[]) AND t.run_id = s.run_id
          AND s.span_key = (t.metadata->>'otel.trace_id') || '/' || (t.metadata->>'otel.span_id')
          AND t.step IS DISTINCT FROM s.step`,
      [projectId, runIds],
    );
    await pairRuns(client, projectId, runIds);
  });
}

async function recordStats(projectId: string, r: TracesResult) {
  const reason = r.rejected[0]?.reason ?? r.definitionProblems[0] ?? null;
  await pool().query(
    `INSERT INTO otlp_stats AS s (project_id, last_span_at, spans, ignored, rejected, last_reason, last_reason_at)
     VALUES ($1, now(), $2, $3, $4, $5, CASE WHEN $5::text IS NULL THEN NULL ELSE now() END)
     ON CONFLICT (project_id) DO UPDATE SET last_span_at = now(), spans = s.spans + excluded.spans, ignored = s.ignored + excluded.ignored,
       rejected = s.rejected + excluded.rejected, last_reason = coalesce(excluded.last_reason, s.last_reason),
       last_reason_at = coalesce(excluded.last_reason_at, s.last_reason_at)`,
    [projectId, r.spans, r.ignored, r.rejected.length, reason],
  );
}

export async function otlpStats(projectId: string) {
  const { rows } = await pool().query<{
    lastSpanAt: Date | null;
    spans: string;
    ignored: string;
    rejected: string;
    lastReason: string | null;
    lastReasonAt: Date | null;
  }>(
    `SELECT last_span_at AS "lastSpanAt", spans, ignored, rejected, last_reason AS "lastReason", last_reason_at AS "lastReasonAt" FROM otlp_stats WHERE project_id = $1`,
    [projectId],
  );
  const row = rows[0];
  return row
    ? {
        lastSpanAt: row.lastSpanAt,
        spans: Number(row.spans),
        ignored: Number(row.ignored),
        rejected: Number(row.rejected),
        lastReason: row.lastReason,
        lastReasonAt: row.lastReasonAt,
      }
    : null;
}

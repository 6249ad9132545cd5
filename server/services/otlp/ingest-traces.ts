import type { PoolClient } from "pg";
import { storableText } from "../../../contracts/json-walk";
import { assemble, spanKey, type Assembled, type AssembledCall, type AssembledResult } from "../../adapters/otlp/assemble";
import { explainExport, type IgnoredGroup } from "../../adapters/otlp/explain";
import { withinBounds } from "../../adapters/otlp/bounds";
import type { Definition } from "../../adapters/otlp/pieces";
import type { DecodedLogs, DecodedRequest, SpanProblem } from "../../adapters/otlp/wire";
import { awaitsLogContent, isGenAiEvent, recordSpanKey, unstorableJson, type LogContent } from "../../adapters/otlp/logs";
import { joinWaitingSpans, keepRecords } from "./log-content";
import { pool } from "../../db/client";
import { inTransaction } from "../../db/transaction";
import { registryResolver } from "../../domain/verdicts";
import { checkEvents, ingestCalls } from "../ingest/ingest-batch";
import { lockRollups, rollupResultCtes } from "../rollups/write";
import { loadToolVersions, storeTools, versionedTool } from "../tools/registry";
import { continuesConversations, joinConversations, mergeContinuedRuns, type Queryable } from "./conversations";
import { joinExecutions } from "./executions";
import { recordMessages } from "./messages";

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
 * OTLP traces → tool calls, through the one ingestion pipeline: the adapter decodes and maps
 * the spans (server/adapters/otlp), the calls go through ingest.batch's gate and writer
 * (checkEvents, ingestCalls), and everything of one export request is written in ONE
 * transaction. The pieces of one call may come in different requests, in any order, and
 * more than once:
 * - the call itself (from the model-call span) has a stable id, so a re-sent span is a
 *   duplicate and the rollups count it once;
 * - what happened to it (tool-execution span, or the tool message of the next turn) is kept in
 *   `otlp_results` and copied onto the stored call by whichever of the two requests comes second;
 * - its step is the rank of its model-call span among those of its run seen so far
 *   (`otlp_model_calls`); a model call that arrives after later ones of its run renumbers the
 *   run's stored calls, and the run is paired again.
 * Requests that touch the same runs or traces take their turn (advisory locks held to the
 * commit), so the later one sees all of the earlier one: nothing is left for after the commit.
 */
export function ingestTraces(projectId: string, decoded: DecodedRequest): Promise<TracesResult> {
  // not async: nothing holds the decoded spans once they are mapped (garbage while the export is written)
  const assembled = withinBounds(assemble(decoded.spans));
  return ingestAssembled(projectId, {
    spans: decoded.spans.length + decoded.problems.length,
    problems: decoded.problems,
    assembled,
    // GenAI model-call spans without messages (but for those another span of the export recorded): their content may be in log records (POST /v1/logs)
    waiting: decoded.spans.filter((s) => !assembled.covered.has(spanKey(s)) && awaitsLogContent(s)),
  });
}

/** The export's mapped spans: how many came, those that could not be read, what they gave, those that wait for log records. */
type MappedExport = { spans: number; problems: SpanProblem[]; assembled: Assembled; waiting: DecodedRequest["spans"] };

async function ingestAssembled(projectId: string, mapped: MappedExport): Promise<TracesResult> {
  const { assembled, waiting } = mapped;
  // an export that may continue a conversation of another trace reads that trace's calls only
  // once it has its turn (an export writing them is then committed); others are checked before
  const early = continuesConversations(assembled) ? undefined : await prepare(pool(), projectId, assembled);
  return inTransaction(async (client) => {
    await takeTurn(client, projectId, [...turnKeys(assembled), ...waiting.map((s) => `trace/${s.traceId}`)]);
    const prepared = early ?? (await prepare(client, projectId, assembled));
    const { joined, problems } = waiting.length ? await joinWaitingSpans(client, projectId, waiting) : { joined: [], problems: [] };
    const extra = joined.length ? await prepare(client, projectId, withinBounds(assemble(joined))) : undefined;
    const stillWaiting = waiting.filter((s) => !joined.some((j) => spanKey(j) === spanKey(s)));
    const written = await write(client, projectId, prepared);
    const more = extra ? await write(client, projectId, extra) : { accepted: 0, duplicates: 0, executions: 0, executionsJoined: 0 };
    const result: TracesResult = {
      spans: mapped.spans,
      ignored: prepared.assembled.ignored,
      accepted: written.accepted + more.accepted,
      duplicates: written.duplicates + more.duplicates,
      results: prepared.assembled.results.length + (extra?.assembled.results.length ?? 0),
      rejected: [...mapped.problems, ...prepared.rejected, ...problems, ...(extra?.rejected ?? [])],
      definitionProblems: [...prepared.definitionProblems, ...(extra?.definitionProblems ?? [])],
      ignoredGroups: explainExport({
        notGenAi: prepared.assembled.ignored,
        notModelCalls: prepared.assembled.notModelCalls,
        waiting: stillWaiting,
        logsSeen: stillWaiting.length > 0 && (await hasLogRecords(client, projectId)),
        uncheckedTools: [...prepared.checked.calls, ...(extra?.checked.calls ?? [])].filter((c) => !c.verdict.checked?.version).map((c) => c.event.tool),
      }),
      executions: written.executions + more.executions,
      executionsJoined: written.executionsJoined + more.executionsJoined,
    };
    await recordStats(client, projectId, result);
    await recordExport(client, projectId, result);
    return result;
  });
}

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
 * OTLP logs: the GenAI events of model-call spans (any `gen_ai.*` event name: isGenAiEvent) are kept, and those
 * whose span has arrived complete it, which then goes through the same pipeline as a span
 * that carried its messages itself, in the same one transaction.
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
  return inTransaction(async (client) => {
    await takeTurn(
      client,
      projectId,
      kept.map((k) => `trace/${k.spanKey.split("/")[0]}`),
    );
    const completed = await keepRecords(client, projectId, kept);
    const prepared = completed.length ? await prepare(client, projectId, withinBounds(assemble(completed))) : undefined;
    const written = prepared ? await write(client, projectId, prepared) : { accepted: 0, duplicates: 0, executions: 0, executionsJoined: 0 };
    const result: LogsResult = {
      records: decoded.records.length + decoded.problems.length,
      ignored,
      accepted: written.accepted,
      duplicates: written.duplicates,
      rejected: [...rejected, ...(prepared?.rejected ?? [])],
    };
    await recordStats(client, projectId, {
      spans: 0,
      ignored: 0,
      rejected: result.rejected,
      definitionProblems: prepared?.definitionProblems ?? [],
      executions: written.executions,
      executionsJoined: written.executionsJoined,
    });
    return result;
  });
}

/** What a set of spans gives, checked and ready to write. */
type Prepared = Awaited<ReturnType<typeof prepare>>;

/**
 * Assembled spans → their calls and results: joined to the conversations they continue (read
 * through `db`: the transaction once the export has its turn), through tools.register's rules
 * and ingest's gate (checkEvents).
 */
async function prepare(db: Queryable, projectId: string, spans: Assembled) {
  const assembled = await joinConversations(db, projectId, spans);
  const { registry, versions, problems: definitionProblems } = await registerDefinitions(projectId, assembled.definitions);
  // a result that came in this same request is written with its call (no second write of the row)
  const best = new Map<string, AssembledResult>();
  for (const r of assembled.results) if ((best.get(r.callId)?.priority ?? 0) < r.priority) best.set(r.callId, r);
  const checked = await checkEvents(
    assembled.calls.map((call) => eventOf(call, best.get(call.event.id), call.definition && versions.get(call.definition))),
    registry,
  );
  const rejected: SpanProblem[] = [
    ...assembled.rejected,
    ...checked.rejected.map((r) => ({ span: assembled.calls[r.index]!.span.name, reason: r.message.replace(/^events\[\d+\]\.?/, "tool call ") })),
  ];
  return { assembled, checked, rejected, definitionProblems, modelSpanOf: new Map(assembled.calls.map((c) => [c.event.id, c.modelSpan])) };
}

/** Writes prepared spans in the caller's transaction: model calls and steps, their messages, the calls (ingestCalls), the results. */
async function write(client: PoolClient, projectId: string, prepared: Prepared) {
  const { assembled, checked, modelSpanOf } = prepared;
  const merged = await mergeContinuedRuns(client, projectId, assembled);
  await recordMessages(client, projectId, assembled.modelCalls);
  const { steps, reordered } = await numberSteps(client, projectId, assembled.modelCalls, merged);
  const written = await ingestCalls(client, projectId, checked, {
    stepOf: (event) => steps.get(`${event.runId}\n${modelSpanOf.get(event.id)}`),
    alsoPair: reordered,
  });
  // the calls just inserted carry their best result of this request already (prepare)
  await recordResults(
    client,
    projectId,
    assembled.results,
    checked.calls.map((c) => c.event.id),
    written.inserted,
  );
  // servers' and tool runtimes' executions without a tool call id, joined with their calls whichever came first
  const stored = new Set(checked.calls.map((c) => c.event.id));
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
  return { ...written, executions: executions.received, executionsJoined: executions.joined };
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

/**
 * Waits for the other requests (of traces or logs) that touch the same runs or traces of this
 * project (their steps, pairing, results and log content depend on each other), in a fixed
 * order so that two requests never wait for each other. Released at the commit.
 */
async function takeTurn(client: PoolClient, projectId: string, keys: string[]) {
  await lockRollups(client, projectId, "write"); // before the runs' locks (rollups/write.ts)
  if (!keys.length) return;
  await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1::text || '/' || k, 0)) FROM unnest($2::text[]) k ORDER BY k`, [
    projectId,
    [...new Set(keys)].sort(),
  ]);
}

/**
 * The runs and traces whose writes depend on each other (steps, pairing, results, log content),
 * and the tool call ids by which a model call without a conversation id joins the conversation
 * it continues (written or repeated): two exports of one such conversation take turns too.
 */
function turnKeys(assembled: Assembled): string[] {
  return [
    ...assembled.modelCalls.map((m) => `run/${m.runId}`),
    ...assembled.modelCalls.flatMap((m) => (m.implicitRun ? [...m.wrote, ...m.continues].map((id) => `call/${id}`) : [])),
    ...assembled.calls.map((c) => `trace/${c.span.traceId}`),
    ...assembled.results.map((r) => `trace/${r.traceId}`),
    ...assembled.executions.map((e) => `trace/${e.traceId}`),
  ];
}

/**
 * The model calls' order in their run: by start time; those that started in the same tick of the
 * clock (JavaScript SDKs record start times to the millisecond, and an agent's steps can follow
 * each other faster) by their place in the conversation, then by span id (stable, if arbitrary).
 */
const RANKED = `
  SELECT run_id, span_key, (rank() OVER (PARTITION BY run_id ORDER BY started_ns, turn, span_key))::int - 1 AS step
    FROM otlp_model_calls WHERE project_id = $1 AND run_id = ANY($2::text[])`;

/**
 * Records the model calls and gives each its step: its rank among its run's model calls seen so
 * far (RANKED, 0-based). Where a new model call ranks before one stored earlier, or a stored one's
 * place in its conversation became known (its input came later, in log records), the run's stored
 * calls are renumbered, and the run is returned in `reordered` to be paired again.
 */
async function numberSteps(client: PoolClient, projectId: string, modelCalls: Assembled["modelCalls"], merged: string[]) {
  const steps = new Map<string, number>();
  if (!modelCalls.length) return { steps, reordered: [] };
  const { rows: written } = await client.query<{ run_id: string; span_key: string; added: boolean }>(
    `WITH m AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::int8[], $5::int4[]) AS m(run_id, span_key, started_ns, turn)
     ), placed AS (
       UPDATE otlp_model_calls o SET turn = m.turn FROM m
        WHERE o.project_id = $1 AND o.run_id = m.run_id AND o.span_key = m.span_key AND o.turn < m.turn
        RETURNING o.run_id, o.span_key
     ), added AS (
       INSERT INTO otlp_model_calls (project_id, run_id, span_key, started_ns, turn) SELECT $1::uuid, * FROM m ON CONFLICT DO NOTHING RETURNING run_id, span_key
     )
     SELECT run_id, span_key, true AS added FROM added UNION ALL SELECT run_id, span_key, false FROM placed`,
    [projectId, modelCalls.map((m) => m.runId), modelCalls.map((m) => m.spanKey), modelCalls.map((m) => m.startedNs.toString()), modelCalls.map((m) => m.turn)],
  );
  const runIds = [...new Set(modelCalls.map((m) => m.runId))];
  const { rows } = await client.query<{ run_id: string; span_key: string; step: number }>(RANKED, [projectId, runIds]);
  const isNew = new Set(written.filter((r) => r.added).map((r) => `${r.run_id}\n${r.span_key}`));
  const firstNew = new Map<string, number>();
  for (const r of rows) {
    steps.set(`${r.run_id}\n${r.span_key}`, r.step);
    if (isNew.has(`${r.run_id}\n${r.span_key}`)) firstNew.set(r.run_id, Math.min(firstNew.get(r.run_id) ?? Infinity, r.step));
  }
  // an older model call at or after the first new one has moved (and a run where a stored model call got its
  // place in the conversation, or that took in the calls of a conversation's later traces: mergeContinuedRuns)
  const reordered = [
    ...new Set([
      ...merged,
      ...written.filter((r) => !r.added).map((r) => r.run_id),
      ...rows.filter((r) => !isNew.has(`${r.run_id}\n${r.span_key}`) && r.step >= (firstNew.get(r.run_id) ?? Infinity)).map((r) => r.run_id),
    ]),
  ];
  if (reordered.length) {
    await client.query(
      `UPDATE tool_calls t SET step = s.step, turn = s.step FROM (${RANKED}) s
        WHERE t.project_id = $1 AND t.run_id = ANY($2::text[]) AND t.run_id = s.run_id
          AND s.span_key = (t.metadata->>'otel.trace_id') || '/' || (t.metadata->>'otel.span_id')
          AND (t.step IS DISTINCT FROM s.step OR t.turn IS DISTINCT FROM s.step)`,
      [projectId, reordered],
    );
  }
  return { steps, reordered };
}

/**
 * Keeps this request's results (for calls that arrive later) and copies the winning result of
 * each touched call onto the stored call: the calls of this request (a result may have come
 * first) and the calls of this request's results (stored earlier). A call `inserted` by this
 * request was written with its best result of the request, so it is updated only when a stored
 * result outranks that one. Whether the next turn's tool message named the call's id is copied
 * too (result_id_kept), whichever result wins. The call rollups count results and their latencies, so the update moves
 * each changed call's old result out of them and its new one in, in the same statement.
 */
async function recordResults(client: PoolClient, projectId: string, results: AssembledResult[], callIds: string[], inserted: string[]) {
  const ids = [...new Set([...callIds, ...results.map((r) => r.callId)])];
  if (!ids.length) return;
  await client.query(
    `WITH new AS (
       SELECT * FROM unnest($2::text[], $3::int2[], $4::text[], $5::text[], $6::int4[], $9::bool[]) AS n(call_id, priority, status, summary, latency_ms, id_kept)
     ), kept AS (
       INSERT INTO otlp_results (project_id, call_id, priority, status, summary, latency_ms, id_kept) SELECT $1::uuid, * FROM new ON CONFLICT DO NOTHING
     ), best AS (
       SELECT DISTINCT ON (call_id) call_id, status, summary, latency_ms, stored
         FROM (SELECT call_id, priority, status, summary, latency_ms, true AS stored FROM otlp_results WHERE project_id = $1 AND call_id = ANY($7::text[])
               UNION ALL SELECT call_id, priority, status, summary, latency_ms, false FROM new) r
        ORDER BY call_id, priority DESC, stored DESC
     ), changes AS (
       SELECT * FROM best WHERE stored OR NOT call_id = ANY($8::text[])
     ), updated AS (
       UPDATE tool_calls t SET result_status = r.status, result_summary = r.summary, latency_ms = r.latency_ms
         FROM changes r
        WHERE t.project_id = $1 AND t.id = ANY(array(SELECT call_id FROM changes)) AND t.id = r.call_id
          AND (t.result_status, t.result_summary, t.latency_ms) IS DISTINCT FROM (r.status, r.summary, r.latency_ms)
        RETURNING t.id, t.timestamp, t.tool, t.model_name, t.model_version, t.category, t.valid, t.result_status, t.result_summary, t.latency_ms
     ), moved AS (
       -- the statement's snapshot still holds the calls' old results: out with those, in with the new
       SELECT t.timestamp, t.tool, t.model_name, t.model_version, t.category, t.valid, t.result_status, t.result_summary, t.latency_ms, -1 AS weight
         FROM tool_calls t WHERE t.project_id = $1 AND t.id IN (SELECT id FROM updated)
       UNION ALL SELECT timestamp, tool, model_name, model_version, category, valid, result_status, result_summary, latency_ms, 1 FROM updated
     ), ${rollupResultCtes}
     SELECT count(*) FROM updated`,
    [
      projectId,
      results.map((x) => x.callId),
      results.map((x) => x.priority),
      results.map((x) => x.status),
      results.map((x) => x.summary ?? null),
      results.map((x) => x.latencyMs ?? null),
      ids,
      inserted,
      results.map((x) => x.idKept ?? null),
    ],
  );
  // whether the tool message that answered each touched call named its id (a second statement: the
  // one above may already update the same rows, and a row is updated once per statement)
  await client.query(
    `UPDATE tool_calls t SET result_id_kept = r.id_kept
       FROM (SELECT call_id, id_kept FROM otlp_results WHERE project_id = $1 AND call_id = ANY($2::text[]) AND priority = 1) r
      WHERE t.project_id = $1 AND t.id = ANY(array(SELECT call_id FROM otlp_results WHERE project_id = $1 AND call_id = ANY($2::text[]) AND priority = 1))
        AND t.id = r.call_id AND t.result_id_kept IS DISTINCT FROM r.id_kept`,
    [projectId, ids],
  );
}

async function recordStats(
  client: PoolClient,
  projectId: string,
  r: Pick<TracesResult, "spans" | "ignored" | "rejected" | "definitionProblems" | "executions" | "executionsJoined">,
) {
  const reason = r.rejected[0]?.reason ?? r.definitionProblems[0] ?? null;
  await client.query(
    `INSERT INTO otlp_stats AS s (project_id, last_span_at, spans, ignored, rejected, last_reason, last_reason_at, executions, executions_joined)
     VALUES ($1, now(), $2, $3, $4, $5, CASE WHEN $5::text IS NULL THEN NULL ELSE now() END, $6, $7)
     ON CONFLICT (project_id) DO UPDATE SET last_span_at = now(), spans = s.spans + excluded.spans, ignored = s.ignored + excluded.ignored,
       rejected = s.rejected + excluded.rejected, last_reason = coalesce(excluded.last_reason, s.last_reason),
       last_reason_at = coalesce(excluded.last_reason_at, s.last_reason_at),
       executions = s.executions + excluded.executions, executions_joined = s.executions_joined + excluded.executions_joined`,
    [projectId, r.spans, r.ignored, r.rejected.length, reason === null ? null : storableText(reason), r.executions, r.executionsJoined],
  );
}

/** Whether GenAI log records have ever arrived for the project (kept in otlp_log_records). */
async function hasLogRecords(client: PoolClient, projectId: string) {
  const { rows } = await client.query<{ seen: boolean }>(`SELECT EXISTS (SELECT FROM otlp_log_records WHERE project_id = $1) AS seen`, [projectId]);
  return rows[0]!.seen;
}

/** The newest exports Settings → Connect shows, each with its groups of ignored spans. */
const EXPORTS_KEPT = 20;

/** Keeps what this export's spans gave, and why the others gave nothing; only the newest EXPORTS_KEPT of the project stay. */
async function recordExport(client: PoolClient, projectId: string, r: TracesResult) {
  await client.query(
    `WITH added AS (
       INSERT INTO otlp_exports (project_id, spans, accepted, rejected, ignored) VALUES ($1, $2, $3, $4, $5) RETURNING id
     )
     DELETE FROM otlp_exports WHERE project_id = $1 AND id <= (SELECT id FROM otlp_exports WHERE project_id = $1 ORDER BY id DESC OFFSET ${EXPORTS_KEPT - 1} LIMIT 1)`,
    [projectId, r.spans, r.accepted, r.rejected.length, JSON.stringify(r.ignoredGroups)],
  );
}

/** The project's newest exports, newest first: spans received, calls stored, rejected, and the ignored groups with their reasons. */
export async function recentExports(projectId: string) {
  const { rows } = await pool().query<{ receivedAt: Date; spans: number; accepted: number; rejected: number; ignored: IgnoredGroup[] }>(
    `SELECT received_at AS "receivedAt", spans, accepted, rejected, ignored FROM otlp_exports WHERE project_id = $1 ORDER BY id DESC LIMIT ${EXPORTS_KEPT}`,
    [projectId],
  );
  return rows;
}

export async function otlpStats(projectId: string) {
  const { rows } = await pool().query<{
    lastSpanAt: Date | null;
    spans: string;
    ignored: string;
    rejected: string;
    lastReason: string | null;
    lastReasonAt: Date | null;
    executions: string;
    executionsJoined: string;
  }>(
    `SELECT last_span_at AS "lastSpanAt", spans, ignored, rejected, last_reason AS "lastReason", last_reason_at AS "lastReasonAt",
            executions, executions_joined AS "executionsJoined" FROM otlp_stats WHERE project_id = $1`,
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
        executions: Number(row.executions),
        executionsJoined: Number(row.executionsJoined),
      }
    : null;
}

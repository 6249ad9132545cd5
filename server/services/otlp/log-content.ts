import type { PoolClient } from "pg";
import { pendingSpanFrom, pendingSpanJson, recordKey, spanWithLogs, unstorableJson, type LogContent } from "../../adapters/otlp/logs";
import { spanKey } from "../../adapters/otlp/assemble";
import type { OtlpSpan, SpanProblem } from "../../adapters/otlp/wire";

/**
 * Where GenAI spans without messages and the log records holding their content wait for each
 * other (otlp_pending_spans, otlp_log_records). Both are kept after the join: a span's records
 * may come in several log exports, and re-sent ones then join as duplicates.
 */

async function recordsOf(client: PoolClient, projectId: string, keys: string[]) {
  const { rows } = await client.query<{ span_key: string; event: string; time_ns: string; body: LogContent["body"]; attributes: LogContent["attributes"] }>(
    // in the order they were emitted: by time, records of equal times as they arrived (the conversation's order)
    `SELECT span_key, event, time_ns::text, body, attributes FROM otlp_log_records WHERE project_id = $1 AND span_key = ANY($2::text[]) ORDER BY time_ns, seq`,
    [projectId, keys],
  );
  const bySpan = new Map<string, LogContent[]>();
  for (const r of rows) {
    const list = bySpan.get(r.span_key) ?? [];
    list.push({ event: r.event, timeNs: BigInt(r.time_ns), body: r.body, attributes: r.attributes });
    bySpan.set(r.span_key, list);
  }
  return bySpan;
}

/**
 * Keeps the spans that wait for log content, and returns those whose records already arrived,
 * with that content. A span that cannot be kept (unstorable text in its GenAI attributes) is a problem.
 */
export async function joinWaitingSpans(client: PoolClient, projectId: string, waiting: OtlpSpan[]) {
  const problems: SpanProblem[] = [];
  const kept = waiting.flatMap((span) => {
    const json = pendingSpanJson(span);
    const problem = unstorableJson(json);
    if (!problem) return [{ key: spanKey(span), json }];
    problems.push({ span: span.name, reason: `span "${span.name.slice(0, 60)}" cannot wait for its log records: its attributes ${problem}` });
    return [];
  });
  if (kept.length) {
    await client.query(
      `INSERT INTO otlp_pending_spans (project_id, span_key, span) SELECT $1::uuid, * FROM unnest($2::text[], $3::jsonb[]) ON CONFLICT DO NOTHING`,
      [projectId, kept.map((k) => k.key), kept.map((k) => JSON.stringify(k.json))],
    );
  }
  const records = await recordsOf(
    client,
    projectId,
    kept.map((k) => k.key),
  );
  const joined = waiting.flatMap((span) => {
    const content = records.get(spanKey(span));
    return content ? [spanWithLogs(span, content)] : [];
  });
  return { joined, problems };
}

/** Keeps GenAI log records (a re-sent one once), and returns the waiting spans they belong to, with all their stored content. */
export async function keepRecords(client: PoolClient, projectId: string, records: { spanKey: string; content: LogContent }[]) {
  if (!records.length) return [];
  await client.query(
    `INSERT INTO otlp_log_records (project_id, span_key, record_key, event, time_ns, body, attributes)
     SELECT $1::uuid, * FROM unnest($2::text[], $3::text[], $4::text[], $5::int8[], $6::jsonb[], $7::jsonb[]) ON CONFLICT DO NOTHING`,
    [
      projectId,
      records.map((r) => r.spanKey),
      records.map((r) => recordKey(r.content)),
      records.map((r) => r.content.event),
      records.map((r) => r.content.timeNs.toString()),
      records.map((r) => JSON.stringify(r.content.body)),
      records.map((r) => JSON.stringify(r.content.attributes)),
    ],
  );
  const keys = [...new Set(records.map((r) => r.spanKey))];
  const { rows } = await client.query<{ span: Parameters<typeof pendingSpanFrom>[0] }>(
    `SELECT span FROM otlp_pending_spans WHERE project_id = $1 AND span_key = ANY($2::text[])`,
    [projectId, keys],
  );
  if (!rows.length) return [];
  const spans = rows.map((r) => pendingSpanFrom(r.span));
  const content = await recordsOf(client, projectId, spans.map(spanKey));
  return spans.map((span) => spanWithLogs(span, content.get(spanKey(span)) ?? []));
}

/** Whether GenAI log records have ever arrived for the project (kept in otlp_log_records). */
export async function hasLogRecords(client: PoolClient, projectId: string) {
  const { rows } = await client.query<{ seen: boolean }>(`SELECT EXISTS (SELECT FROM otlp_log_records WHERE project_id = $1) AS seen`, [projectId]);
  return rows[0]!.seen;
}

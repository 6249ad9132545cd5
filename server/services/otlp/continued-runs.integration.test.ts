import type { PoolClient } from "pg";
import { expect, it } from "vitest";
import type { Assembled } from "../../adapters/otlp/assemble";
import { eventId } from "../../adapters/otlp/pieces";
import { inTransaction } from "../../db/transaction";
import { makeProject } from "../../../test/fixtures";
import { rowsReadFromToolCalls } from "../../../test/plans";
import { mergeContinuedRuns } from "./conversations";

// Every export looks for stored calls that continue a call it writes (docs/otlp.md, "Conversations
// without a parent span"), in a time window around its model calls. That lookup must read the
// window's continuing calls only, not every call of the window: the assertion counts the rows its
// plan reads from tool_calls (EXPLAIN ANALYZE), not time.

const TRACE = "a".repeat(32);
const LATER_TRACE = "b".repeat(32);
const AT = Date.UTC(2026, 10, 30, 9);

it("finds the stored run that continues a call of the export, reading only the calls that continue one", async () => {
  const { project } = await makeProject();
  const at = (ms: number) => new Date(AT + ms).toISOString();
  // 3,000 calls of conversations with an id, in the window, and one later trace (no conversation
  // id) whose call continues tool call "call_1" written by the export below
  await inTransaction(async (client) => {
    await client.query(
      `INSERT INTO tool_calls (project_id, id, run_id, timestamp, model_name, tool, arguments, metadata)
       SELECT $1, 'otel:' || md5(i::text) || ':c', 'conversation-' || (i % 300), $2::timestamptz + i * interval '1 s', 'm', 'getloan', '{}',
              jsonb_build_object('otel.trace_id', md5(i::text), 'otel.span_id', left(md5(i::text), 16))
         FROM generate_series(1, 3000) i`,
      [project.id, at(-1_500_000)],
    );
    await client.query(
      `INSERT INTO tool_calls (project_id, id, run_id, timestamp, model_name, tool, arguments, metadata)
       VALUES ($1, $2, $3, $4, 'm', 'getloan', '{}', jsonb_build_object('otel.trace_id', $3::text, 'otel.span_id', '2222222222222222', 'otel.continues', 'call_1'))`,
      [project.id, eventId(LATER_TRACE, "call_2", "", 0), LATER_TRACE, at(60_000)],
    );
  });
  const assembled = {
    calls: [],
    modelCalls: [
      {
        runId: TRACE,
        spanKey: `${TRACE}/1111111111111111`,
        spanName: "chat m",
        startedNs: BigInt(AT) * 1_000_000n,
        turn: 0,
        traceId: TRACE,
        implicitRun: true,
        continues: [],
        wrote: ["call_1"],
        messages: [],
      },
    ],
    results: [],
    executions: [],
    definitions: [],
    ignored: 0,
    notModelCalls: 0,
    covered: new Set<string>(),
    rejected: [],
  } satisfies Assembled;

  const plans: Record<string, unknown>[] = [];
  const grown = await inTransaction(async (client) => {
    const explaining = {
      query: async (sql: string, params: unknown[]) => {
        if (sql.includes("AS continues")) {
          const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
          plans.push((rows[0]["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0]!.Plan);
        }
        return client.query(sql, params);
      },
    };
    return mergeContinuedRuns(explaining as unknown as PoolClient, project.id, assembled);
  });

  expect(grown).toEqual([TRACE]);
  expect(plans).toHaveLength(1);
  // a scan of the window reads the 3,001 calls
  expect(rowsReadFromToolCalls(plans[0]!)).toBeLessThan(10);
});

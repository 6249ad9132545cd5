// npm run bench:ingest -- --long-runs [--batches N] [--baseline-timeout S]
//
// Pairing cost against run length: batches of 1,000 calls (two thirds invalid) appended to
// two runs that already hold 10, 1,000 and 100,000 calls, written the way ingest.batch writes
// them (writeCalls in a transaction of its own). tool_calls is analysed while empty and
// autovacuum is off for it, so the planner's statistics predate every run, as on a busy
// deployment between autovacuum runs. Each length is measured with today's pairing statement
// and with the statement it replaced (a re-walk of the touched runs, kept below as the
// baseline), which is cancelled after --baseline-timeout seconds. docs/PERFORMANCE.md
// records the figures.
import os from "node:os";
import type { PoolClient } from "pg";
import { makeEvent } from "../test/events";
import { createFreshDatabase, startTestServer } from "../scripts/lib/test-database";
import { option, SMOKE } from "./options";

// --smoke: runs of 10 and 1,000 calls, one batch each, the old statement cancelled after 5 s
const LENGTHS = SMOKE ? [10, 1_000] : [10, 1_000, 100_000];
const RUNS = 2;
const BATCH = 1_000;
const BATCHES = option("batches", "BENCH_BATCHES", 5, 1);
const BASELINE_TIMEOUT_S = option("baseline-timeout", "BENCH_BASELINE_TIMEOUT", 60, 5);

/** The pairing statement before index-backed lookups: every invalid call of the touched runs, re-walked with a window. */
const OLD_PAIR_SQL = async () => {
  const { recoveredSql } = await import("../server/services/rollups/tables");
  const { rollupLinkCtes } = await import("../server/services/rollups/write");
  const order = (a = "") => `${a && `${a}.`}step NULLS LAST, ${a && `${a}.`}timestamp, ${a && `${a}.`}id`;
  return `
WITH runs AS (
  SELECT array(SELECT unnest($2::text[]) UNION SELECT run_id FROM tool_calls WHERE project_id = $1 AND id = ANY($3::text[])) AS ids
), ordered AS (
  SELECT c.id, c.valid, c.correction_id AS previous,
         lead(c.id) OVER (PARTITION BY c.run_id, c.tool ORDER BY ${order("c")}) AS next_id
    FROM tool_calls c WHERE c.project_id = $1 AND c.run_id = ANY((SELECT ids FROM runs)::text[])
), explicit AS (
  SELECT DISTINCT ON (corrects_id) corrects_id, id FROM tool_calls
   WHERE project_id = $1 AND corrects_id = ANY(array(SELECT id FROM ordered WHERE valid = false))
   ORDER BY corrects_id, ${order()}
), changed AS (
  UPDATE tool_calls t SET correction_id = coalesce(e.id, o.next_id)
    FROM ordered o LEFT JOIN explicit e ON e.corrects_id = o.id
   WHERE t.project_id = $1 AND t.id = ANY(array(SELECT id FROM ordered WHERE valid = false)) AND t.id = o.id AND o.valid = false
     AND t.correction_id IS DISTINCT FROM coalesce(e.id, o.next_id)
  RETURNING t.timestamp, t.tool, t.model_name, t.model_version, t.category, t.message,
            (o.previous IS NULL)::int - (t.correction_id IS NULL)::int AS followed,
            ${recoveredSql("t.correction_id")} - ${recoveredSql("o.previous")} AS recovered
), ${rollupLinkCtes}
SELECT`;
};

const fmt = (n: number, digits = 0) => n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const log = (message: string) => console.log(`[bench] ${message}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function longRuns() {
  log(`long runs: ${BATCHES} batches of ${fmt(BATCH)} calls into ${RUNS} runs of ${LENGTHS.map((l) => fmt(l)).join(", ")} calls`);
  const server = await startTestServer();
  const database = await createFreshDatabase(server, "toolgate_bench_long_runs");
  try {
    process.env.DATABASE_URL = database.url;
    const { prisma, pool } = await import("../server/db/client");
    const { inTransaction } = await import("../server/db/transaction");
    const { writeCalls, PAIR_SQL } = await import("../server/services/ingest/write-calls");
    const oldPairSql = await OLD_PAIR_SQL();
    await pool().query("ALTER TABLE tool_calls SET (autovacuum_enabled = false)");
    await pool().query("ANALYZE tool_calls");

    const invalid = { valid: false, category: "missing_argument" as const, message: "loannumber is required", checked: null, differ: false };
    const valid = { valid: true, category: null, message: null, checked: null, differ: false };
    const base = Date.UTC(2026, 10, 1);
    const prepared = (runId: string, step: number) => ({
      event: makeEvent({ id: `${runId}-${step}`, runId, step, timestamp: new Date(base + step * 1_000).toISOString() }) as never,
      verdict: step % 3 ? invalid : valid,
    });

    /** Runs `batches` batches at the end of the project's runs; the pairing statement is `pair`'s when given. Returns ms per batch. */
    const measure = async (projectId: string, runIds: string[], firstStep: number, pair?: string) => {
      const times: number[] = [];
      for (let b = 0; b < BATCHES; b++) {
        const from = firstStep + b * (BATCH / RUNS);
        const calls = runIds.flatMap((runId) => Array.from({ length: BATCH / RUNS }, (_, i) => prepared(runId, from + i)));
        const t = performance.now();
        await inTransaction(async (client) => {
          await client.query(`SET LOCAL statement_timeout = ${BASELINE_TIMEOUT_S * 1000}`);
          const swapped = pair
            ? ({
                query: (sql: string, params: unknown[]) => (sql === PAIR_SQL ? client.query(pair, [projectId, runIds, []]) : client.query(sql, params)),
              } as unknown as PoolClient)
            : client;
          await writeCalls(swapped, projectId, calls);
        }).catch((error: Error & { code?: string }) => {
          if (error.code !== "57014") throw error;
          times.push(Infinity);
        });
        if (times.length === b) times.push(performance.now() - t);
        if (times.at(-1) === Infinity) break; // the baseline was cancelled: the next batch would only take longer
      }
      return times;
    };

    const rows: string[][] = [];
    for (const length of LENGTHS) {
      for (const [label, pair] of [
        ["index lookups (today)", undefined],
        ["re-walk of the runs (before)", oldPairSql],
      ] as const) {
        const project = await prisma().project.create({ data: { slug: `long-${length}-${pair ? "old" : "new"}`, name: "bench" }, select: { id: true } });
        const runIds = Array.from({ length: RUNS }, (_, r) => `run-${r}`);
        // the runs' existing calls, written in bulk (their links do not matter to the cost of the
        // next batch), without the app's statement timeout, which 200,000 rows may exceed
        await inTransaction(async (client) => {
          await client.query("SET LOCAL statement_timeout = 0");
          await client.query(
            `INSERT INTO tool_calls (project_id, id, run_id, step, timestamp, model_name, tool, arguments, valid, category, message)
           SELECT $1, r || '-' || s, r, s, $3::timestamptz + s * interval '1 second', 'acme-large', 'getloan', '{}', s % 3 = 0,
                  CASE WHEN s % 3 <> 0 THEN 'missing_argument' END, CASE WHEN s % 3 <> 0 THEN 'loannumber is required' END
             FROM unnest($2::text[]) r, generate_series(0, $4::int - 1) s`,
            [project.id, runIds, new Date(base).toISOString(), length],
          );
        });
        const times = await measure(project.id, runIds, length, pair);
        const done = times.filter(Number.isFinite);
        rows.push([
          fmt(length),
          label,
          done.length ? `${fmt(median(done))} ms` : "—",
          done.length ? `${fmt(Math.max(...done))} ms` : "—",
          times.includes(Infinity) ? `batch ${times.length} cancelled after ${BASELINE_TIMEOUT_S} s` : `${times.length} batches`,
        ]);
        log(`runs of ${fmt(length)}, ${label}: ${times.map((t) => (Number.isFinite(t) ? fmt(t) : "cancelled")).join(", ")} ms`);
      }
    }
    const header = ["calls per run", "pairing statement", "median batch", "slowest batch", "batches"];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i]!)).join("  ")}`;
    console.log(`\n${[line(header), ...rows.map(line)].join("\n")}\n`);
    log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}`,
    );
    await prisma().$disconnect();
    await pool().end();
  } finally {
    await database.drop();
    await server.stop();
  }
}

import pg, { type PoolClient } from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { createFreshDatabase } from "../../../scripts/lib/test-database";
import { pool } from "../../db/client";
import { makeProject } from "../../../test/fixtures";
import { makeEvent } from "../../../test/events";
import { rowsReadFromToolCalls } from "../../../test/plans";
import { inTransaction } from "../../db/transaction";
import { PAIR_SQL, writeCalls, type PreparedCall } from "./write-calls";

// Pairing must cost in proportion to the batch, not to the runs it touches (docs/pairing.md,
// docs/PERFORMANCE.md). The statistics are made stale on purpose — tool_calls analysed while
// this project had no rows, autovacuum off — which is the state where the old statement's
// plan walked every call of every touched run once per invalid call. The assertion counts the
// rows the pairing statement's plan reads from tool_calls (EXPLAIN ANALYZE), not time.

const RUN_LENGTH = 2_000;
const RUNS = 2;
const TOOLS = ["getloan", "listopenloans"];

const invalid = { valid: false, category: "missing_argument" as const, message: "loannumber is required", checked: null, differ: false };
const valid = { valid: true, category: null, message: null, checked: null, differ: false };

type Call = { id: string; runId: string; step: number | null; turn?: number; timestamp: string; tool: string; valid: boolean; correctsId?: string };

const prepared = (c: Call): PreparedCall => ({
  event: makeEvent({
    id: c.id,
    runId: c.runId,
    step: c.step ?? undefined,
    turn: c.turn,
    timestamp: c.timestamp,
    tool: c.tool,
    correctsId: c.correctsId,
  }) as PreparedCall["event"],
  verdict: c.valid ? valid : invalid,
});

/** docs/pairing.md, written out plainly: the reference the stored links are compared with. */
function expectedLinks(calls: Call[]): Map<string, string | null> {
  const order = [...calls].sort(
    (a, b) => (a.step ?? Infinity) - (b.step ?? Infinity) || a.timestamp.localeCompare(b.timestamp) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const links = new Map<string, string | null>();
  for (const [i, c] of order.entries()) {
    if (c.valid) continue;
    const named = order.find((x) => x.correctsId === c.id);
    // not a call of the same turn: the model wrote it before it saw the error
    const next = order.slice(i + 1).find((x) => x.runId === c.runId && x.tool === c.tool && (x.turn === undefined || x.turn !== c.turn));
    links.set(c.id, (named ?? next)?.id ?? null);
  }
  return links;
}

/** writeCalls with its pairing statement run under EXPLAIN ANALYZE, in a transaction of `transact`; returns those plans. */
async function writeExplained(
  projectId: string,
  calls: PreparedCall[],
  transact: (work: (client: PoolClient) => Promise<void>) => Promise<void> = inTransaction,
) {
  const plans: Record<string, unknown>[] = [];
  await transact(async (client) => {
    const explaining = {
      query: async (sql: string, params: unknown[]) => {
        if (sql !== PAIR_SQL) return client.query(sql, params);
        const { rows } = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
        plans.push((rows[0]["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0]!.Plan);
        return { rows: [] };
      },
    };
    await writeCalls(explaining as unknown as PoolClient, projectId, calls);
  });
  return plans;
}

beforeAll(async () => {
  await pool().query("ALTER TABLE tool_calls SET (autovacuum_enabled = false)");
});
afterAll(async () => {
  await pool().query("ALTER TABLE tool_calls RESET (autovacuum_enabled)");
});

it(
  "pairs a batch into long runs reading rows in proportion to the batch, with statistics that predate the runs",
  async () => {
    const { project } = await makeProject();
    // a big deployment: another project's calls are what the statistics know about (written
    // without the app's statement timeout, which a loaded machine can exceed for 200,000 rows)
    const other = await makeProject();
    await inTransaction(async (client) => {
      await client.query("SET LOCAL statement_timeout = 0");
      await client.query(
        `INSERT INTO tool_calls (project_id, id, run_id, step, timestamp, model_name, tool, arguments, valid)
         SELECT $1, 'other-' || i, 'other-run-' || (i % 500), i / 500, now() - i * interval '1 s', 'm', 'getloan', '{}', i % 3 <> 0
           FROM generate_series(1, 200000) i`,
        [other.project.id],
      );
    });
    await pool().query("ANALYZE tool_calls");

    const base = Date.UTC(2026, 10, 30, 8);
    const at = (ms: number) => new Date(base + ms).toISOString();
    const all: Call[] = [];
    // the first run's stepped calls come three to a turn (parallel calls: one listopenloans, two
    // getloan), the second run's have no turn
    const call = (runId: string, i: number, step: number | null, extra: Partial<Call> = {}): Call => ({
      id: `${runId}-c${String(i).padStart(6, "0")}`,
      runId,
      step,
      ...(runId.startsWith("long-0-") && step !== null ? { turn: Math.floor(step / 3) } : {}),
      timestamp: at(i * 1_000),
      tool: TOOLS[i % 3 === 0 ? 1 : 0]!,
      valid: i % 4 !== 0 && i % 5 !== 0,
      ...extra,
    });
    for (let r = 0; r < RUNS; r++) {
      const runId = `long-${r}-${project.id.slice(0, 8)}`;
      const run = Array.from({ length: RUN_LENGTH }, (_, i) => call(runId, i, i % 7 === 6 ? null : i));
      all.push(...run);
      for (let from = 0; from < run.length; from += 1_000) await inTransaction((c) => writeCalls(c, project.id, run.slice(from, from + 1_000).map(prepared)));
    }

    // the batch: per run, calls that land in the middle (between existing steps), at the end,
    // unstepped ones, and one that names an old invalid call as its correction
    const batch: Call[] = [];
    for (let r = 0; r < RUNS; r++) {
      const runId = `long-${r}-${project.id.slice(0, 8)}`;
      batch.push(
        call(runId, 100_000 + r * 10 + 0, 500, { timestamp: at(500_500), valid: false }),
        call(runId, 100_000 + r * 10 + 1, 500, { timestamp: at(500_700), valid: true }),
        call(runId, 100_000 + r * 10 + 2, 1_200, { timestamp: at(1_200_500), tool: "listopenloans", valid: true }),
        call(runId, 100_000 + r * 10 + 3, RUN_LENGTH + 5, { valid: false }),
        call(runId, 100_000 + r * 10 + 4, null, { timestamp: at(40), valid: false }),
        call(runId, 100_000 + r * 10 + 5, 8, { valid: true, correctsId: `${runId}-c000004` }),
      );
    }
    all.push(...batch);
    const plans = await writeExplained(project.id, batch.map(prepared));

    expect(plans.length).toBeGreaterThan(0);
    const read = plans.reduce((sum, plan) => sum + rowsReadFromToolCalls(plan), 0);
    // a re-walk of the touched runs reads at least RUNS × RUN_LENGTH rows
    expect(read).toBeLessThan(50 * batch.length);
    expect(read).toBeLessThan(RUN_LENGTH / 4);

    // and the links are those of docs/pairing.md for every call of the runs
    const { rows } = await pool().query<{ id: string; correction_id: string | null }>(
      "SELECT id, correction_id FROM tool_calls WHERE project_id = $1 AND valid = false",
      [project.id],
    );
    const stored = new Map(rows.map((r) => [r.id, r.correction_id]));
    const expected = expectedLinks(all);
    const wrong = [...expected].filter(([id, link]) => stored.get(id) !== link);
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(stored.size).toBe(expected.size);
  },
  180_000, // the set-up writes 200,000 calls, slow on a loaded machine
);

it("pairs a batch of 1,000 into runs of 50,000 calls without reading the table, with statistics taken while it was empty", async () => {
  // A database of its own, analysed while tool_calls was empty (a new install: autovacuum had
  // not run yet when the first long runs came), as in `bench:ingest --long-runs`. With those
  // statistics, the lookup of the previous call's turn, written as a join, was planned as a
  // hash join over a sequential scan of the whole table (docs/PERFORMANCE.md, "Pairing into
  // long runs"), which the other test's fresh statistics never show.
  const database = await createFreshDatabase(
    { urlFor: (name) => Object.assign(new URL(inject("postgresAdminUrl")), { pathname: `/${name}` }).toString(), stop: async () => {} },
    "pairing_plan",
  );
  const own = new pg.Pool({ connectionString: database.url, max: 1 });
  try {
    const transact = async (work: (client: PoolClient) => Promise<void>) => {
      const client = await own.connect();
      try {
        await client.query("BEGIN");
        await work(client);
        await client.query("COMMIT");
      } finally {
        client.release();
      }
    };
    await own.query("ALTER TABLE tool_calls SET (autovacuum_enabled = false)");
    await own.query("ANALYZE tool_calls");
    const { rows } = await own.query<{ id: string }>("INSERT INTO projects (id, slug, name) VALUES (gen_random_uuid(), 'plan', 'plan') RETURNING id");
    const projectId = rows[0]!.id;
    const runIds = ["run-0", "run-1"];
    const length = 50_000;
    const base = Date.UTC(2026, 10, 1);
    await own.query(
      `INSERT INTO tool_calls (project_id, id, run_id, step, timestamp, model_name, tool, arguments, valid, category, message)
         SELECT $1, r || '-' || s, r, s, $3::timestamptz + s * interval '1 second', 'm', 'getloan', '{}', s % 3 = 0,
                CASE WHEN s % 3 <> 0 THEN 'missing_argument' END, CASE WHEN s % 3 <> 0 THEN 'loannumber is required' END
           FROM unnest($2::text[]) r, generate_series(0, $4::int - 1) s`,
      [projectId, runIds, new Date(base).toISOString(), length],
    );
    // the next 1,000 calls, two thirds invalid, appended to both runs as bench:ingest --long-runs does
    const batch = runIds.flatMap((runId) =>
      Array.from({ length: 500 }, (_, i): Call => {
        const step = length + i;
        return { id: `${runId}-${step}`, runId, step, timestamp: new Date(base + step * 1_000).toISOString(), tool: "getloan", valid: step % 3 === 0 };
      }),
    );
    const plans = await writeExplained(projectId, batch.map(prepared), transact);
    const read = plans.reduce((sum, plan) => sum + rowsReadFromToolCalls(plan), 0);
    // one index descent per new call and per neighbour: a few rows each; a scan reads 100,000
    expect(read).toBeLessThan(20 * batch.length);
  } finally {
    await own.end();
    await database.drop();
  }
}, 180_000);

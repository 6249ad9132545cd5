// npm run bench:retention [-- --calls N --seconds S --days D]   (or BENCH_CALLS, BENCH_SECONDS, BENCH_DAYS; defaults 2,000,000, 20 and 10)
//
// The retention sweep on a large table, and what it does to ingestion while it runs. On a
// database of its own (embedded, or a fresh database on TEST_DATABASE_URL's server):
// 1. loads N calls spread evenly over 30 days into one project (INSERT … SELECT in chunks, with
//    every index in place), and their rollups;
// 2. ingests batches of 1,000 events (ingestBatch, the service behind ingest.batch; two
//    clients) into the same project for S seconds: latency p50/p99 without the sweep;
// 3. sets the project's raw-call retention to 30 − D days and runs the sweep (D days' worth of
//    calls, D × N/30) while the same ingestion runs: the sweep's duration and rows/s, and ingest
//    p50/p99 during it; 4. S more seconds of ingestion without the sweep.
// docs/SCALING.md records the figures.
import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runAndExit } from "../scripts/lib/exit";
import { createFreshDatabase, startTestServer, type TestServer } from "../scripts/lib/test-database";
import { LOAN_TOOLS } from "../test/events";
import { generateEvents } from "./events";
import { option } from "./options";

// --smoke: 30,000 calls and 2-second phases
const CALLS = option("calls", "BENCH_CALLS", 2_000_000, 30_000);
const SECONDS = option("seconds", "BENCH_SECONDS", 20, 2);
/** days of calls the sweep deletes (the oldest ones): more days make a longer sweep to measure ingestion against */
const DAYS = option("days", "BENCH_DAYS", 10);
const DAY = 86_400_000;
const fmt = (n: number, digits = 0) => n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const log = (m: string) => console.log(`[bench] ${m}`);

let server: TestServer;
let tempDir: string | undefined;
if (process.env.TEST_DATABASE_URL) server = await startTestServer();
else {
  tempDir = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-retention-"));
  await chmod(tempDir, 0o755);
  const { startEmbeddedPostgres } = await import("../server/db/embedded");
  const pg = await startEmbeddedPostgres(tempDir, { persistent: false });
  server = { urlFor: pg.url, stop: pg.stop };
}
const database = await createFreshDatabase(server, "toolgate_bench_retention");
process.env.DATABASE_URL = database.url;
// the set-up (millions of rows in one INSERT, the rollup rebuild, VACUUM) runs longer than the
// app's statement timeout; the sweep's own statements are batches well under it
process.env.TOOLGATE_STATEMENT_TIMEOUT_MS ??= "0";
const { pool, prisma } = await import("../server/db/client");
const { ingestBatch } = await import("../server/services/ingest/ingest-batch");
const { registerTools } = await import("../server/services/tools/registry");
const { rebuildRollups } = await import("../server/services/rollups/rebuild");
const { sweepProject, setRetention } = await import("./../server/services/retention/sweep");

await runAndExit(
  async () => {
    const project = await prisma().project.create({ data: { slug: "bench-retention", name: "bench" }, select: { id: true } });
    await registerTools(project.id, LOAN_TOOLS);
    const now = Date.now();

    // 1. the table: N calls over the 30 days before now, with every index in place
    let t = performance.now();
    const chunk = 200_000;
    for (let from = 0; from < CALLS; from += chunk) {
      const n = Math.min(chunk, CALLS - from);
      await pool().query(
        `INSERT INTO tool_calls (project_id, id, run_id, step, timestamp, model_provider, model_name, model_version, tool, arguments, valid, category, message)
       SELECT $1, 'c' || g, 'r' || (g / 6), (g % 6)::int, to_timestamp($2::float8 / 1000) - (g::float8 / $3) * interval '30 days',
              'acme', 'acme-' || (g % 3), 'v' || (g % 2), CASE WHEN g % 2 = 0 THEN 'getloan' ELSE 'listopenloans' END,
              jsonb_build_object('loannumber', (g % 9000)::text), g % 17 <> 0,
              CASE WHEN g % 17 = 0 THEN 'type_error' END, CASE WHEN g % 17 = 0 THEN 'loannumber: expected a string' END
         FROM generate_series($4::bigint, $5::bigint) g`,
        [project.id, now, CALLS, from, from + n - 1],
      );
    }
    const client = await pool().connect();
    await rebuildRollups(client, project.id);
    await client.query("VACUUM ANALYZE tool_calls");
    client.release();
    const size = (await pool().query("SELECT pg_total_relation_size('tool_calls') AS b")).rows[0].b;
    log(`loaded ${fmt(CALLS)} calls over 30 days (+ rollups) in ${fmt((performance.now() - t) / 1000, 1)} s; tool_calls with indexes ${fmt(size / 1e9, 2)} GB`);

    // 2–4. ingestion with and without the sweep
    const template = generateEvents(1000, 7);
    let stop: boolean;
    let batches = 0;
    async function ingestFor(untilDone: () => boolean) {
      const latencies: number[] = [];
      const client = async () => {
        while (!untilDone()) {
          // fresh run ids for every batch: a run that kept growing would make pairing slower batch after batch
          const batch = batches++;
          const events = template.map((e) => ({
            ...e,
            id: randomUUID(),
            runId: `${e.runId}-${batch}`,
            timestamp: new Date(Date.now() - Math.random() * 3_600_000).toISOString(),
          }));
          const start = performance.now();
          const result = await ingestBatch(project.id, events);
          latencies.push(performance.now() - start);
          if (result.accepted !== events.length) throw new Error(`a batch accepted ${result.accepted} of ${events.length}`);
        }
      };
      await Promise.all([client(), client()]);
      return latencies;
    }
    const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
    const summary = (name: string, xs: number[]) =>
      `${name}: ${xs.length} batches, p50 ${fmt(pct(xs, 50))} ms, p99 ${fmt(pct(xs, 99))} ms, max ${fmt(Math.max(...xs))} ms`;
    const timed = (seconds: number) => {
      const end = Date.now() + seconds * 1000;
      return () => Date.now() > end;
    };

    const loadNow = () => `load average ${os.loadavg()[0]!.toFixed(1)}`;
    const before = await ingestFor(timed(SECONDS));
    log(`${summary("ingest without the sweep", before)}; ${loadNow()}`);

    await setRetention(project.id, { callsDays: 30 - DAYS, rollupsDays: 400 });
    const expired = (
      await pool().query("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1 AND timestamp < $2", [project.id, new Date(now - (30 - DAYS) * DAY)])
    ).rows[0].n;
    stop = false;
    t = performance.now();
    const sweep = sweepProject(project.id, new Date(now)).finally(() => (stop = true));
    const during = await ingestFor(() => stop);
    const report = await sweep;
    const sweepSeconds = (performance.now() - t) / 1000;
    log(
      `sweep of ${DAYS} day(s): ${fmt(report.calls)} calls (${fmt(expired)} expired) in ${report.batches} batches, ${fmt(sweepSeconds, 1)} s = ${fmt(report.calls / sweepSeconds)} rows/s`,
    );
    // a wrong answer fails the run (npm run bench:smoke): the sweep deleted exactly the expired calls
    if (report.calls !== expired) throw new Error(`the sweep deleted ${report.calls} calls, ${expired} had expired`);
    log(`${summary("ingest during the sweep", during)}; ${loadNow()}`);
    const after = await ingestFor(timed(SECONDS));
    log(`${summary("ingest after the sweep", after)}; ${loadNow()}`);
  },
  async () => {
    await prisma().$disconnect();
    await pool().end();
    await database.drop().catch(() => {});
    await server.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  },
);

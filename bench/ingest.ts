// npm run bench:ingest [-- --events N --batch B --clients K --cpu-prof --pg-waits --otlp]
// npm run bench:ingest -- --long-runs   pairing cost against run length (bench/long-runs.ts)
// npm run bench:ingest -- --trees DIR,DIR [--repeat R]   this benchmark in several checkouts, alternately (bench/ingest-trees.ts)
// (or BENCH_EVENTS, BENCH_BATCH, BENCH_CLIENTS; defaults 200,000, 1,000 and 4)
//
// Ingestion throughput through the real HTTP endpoint, against the ceiling of a raw COPY of
// the same rows into the same table, on a database of its own (embedded, or a fresh database
// on TEST_DATABASE_URL's server). Prints events/s for both, their ratio, the CPU time each
// side spent per event and the server's peak RSS. docs/PERFORMANCE.md records the figures.
import { existsSync, readdirSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { freePort } from "../server/db/embedded";
import { LOAN_TOOLS } from "../test/events";
import { eventStream, generateEvents } from "./events";
import { otlpBodies } from "./otlp-spans";
import { longRuns } from "./long-runs";
import { compareTrees } from "./ingest-trees";
import { option, textOption } from "./options";
import { cpuSeconds, descendants, postgresCpuSeconds, processTable, rssKb } from "./processes";
import { createFreshDatabase, startTestServer, type TestServer } from "../scripts/lib/test-database";
import { cleanupOnExit, startApp, stopProcess } from "../scripts/lib/running-app";

// ---------------------------------------------------------------------------------------------
// Options: flags win over environment variables, which win over the defaults.

// --smoke: 2,000 events, seconds (plus the build when stale); still fails on an event not stored or a rejected batch
const EVENTS = option("events", "BENCH_EVENTS", 200_000, 2_000);
const BATCH = option("batch", "BENCH_BATCH", 1_000);
const CLIENTS = option("clients", "BENCH_CLIENTS", 4);
/** The server writes a V8 CPU profile (under the temporary folder; open it in Chrome DevTools) when it stops. */
const CPU_PROFILE = process.argv.includes("--cpu-prof");
/** Samples pg_stat_activity during the HTTP run: what the database's backends were doing (on CPU, waiting for a lock, for WAL…). */
const PG_WAITS = process.argv.includes("--pg-waits");
/** Also sends the same calls as OpenTelemetry GenAI spans (protobuf) to POST /v1/traces, into a third project. */
const OTLP = process.argv.includes("--otlp");

if (BATCH > 1000) throw new Error("--batch: ingest.batch takes at most 1,000 events");

function startRssSampler(rootPid: number, everyMs = 200) {
  let peakServer = { kb: 0, name: "" };
  let peakTree = 0;
  const sample = () => {
    let total = 0;
    let server = { kb: 0, name: "" };
    for (const p of descendants(rootPid, processTable())) {
      const kb = rssKb(p.pid);
      total += kb;
      // Next.js names its server process "next-server (vX.Y.Z)"; otherwise take the largest.
      const isServer = p.name.startsWith("next-server");
      if (isServer ? !server.name.startsWith("next-server") || kb > server.kb : !server.name.startsWith("next-server") && kb > server.kb) {
        server = { kb, name: p.name };
      }
    }
    if (server.kb > peakServer.kb) peakServer = server;
    peakTree = Math.max(peakTree, total);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { serverMb: peakServer.kb / 1024, serverName: peakServer.name, treeMb: peakTree / 1024 };
    },
  };
}

/** What the app's database sessions are doing, sampled: "CPU" when active without a wait event. */
async function startWaitSampler(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const counts = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    while (running) {
      // a failed sample ends the sampling (the run itself reports its own errors)
      const { rows } = await client.query<{ what: string }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS what FROM pg_stat_activity
          WHERE state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
      );
      for (const { what } of rows) counts.set(what, (counts.get(what) ?? 0) + 1);
      await sleep(50);
    }
  })().catch(() => {});
  return {
    stop: async () => {
      running = false;
      await loop;
      await client.end();
      const total = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${Math.round((100 * n) / total)}%`)
        .join(", ");
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Clean-up on success, errors and Ctrl-C.

const { steps: cleanups, cleanup } = cleanupOnExit();

const fmt = (n: number, digits = 0) => n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const log = (message: string) => console.log(`[bench] ${message}`);

// ---------------------------------------------------------------------------------------------

async function main() {
  log(`${fmt(EVENTS)} events, batches of ${fmt(BATCH)}, ${CLIENTS} concurrent clients`);

  // 1. A database of its own.
  const server: TestServer = await startTestServer();
  cleanups.push(() => server.stop());
  const database = await createFreshDatabase(server, "toolgate_bench");
  cleanups.push(() => database.drop());
  process.env.DATABASE_URL = database.url;

  // 2. Projects, an API key and the loan-servicing tools, through the services (env read only now).
  const { prisma, pool } = await import("../server/db/client");
  const { createApiKey } = await import("../server/services/auth/api-keys");
  const { registerTools } = await import("../server/services/tools/registry");
  const makeProject = async (slug: string) => {
    const project = await prisma().project.create({ data: { slug, name: slug }, select: { id: true } });
    await registerTools(project.id, LOAN_TOOLS);
    return { id: project.id, key: (await createApiKey(project.id, "bench")).key };
  };
  const measured = await makeProject("bench-http");
  // OTLP: no registered tools; the definitions come with the spans, as from an instrumented harness
  const otlpProject = await prisma().project.create({ data: { slug: "bench-otlp", name: "bench-otlp" }, select: { id: true } });
  const otlpKey = (await createApiKey(otlpProject.id, "bench")).key;
  const warm = await makeProject("bench-warmup");
  const copyProject = await prisma().project.create({ data: { slug: "bench-copy", name: "bench-copy" }, select: { id: true } });
  await prisma().$disconnect();
  await pool().end();

  // 3. Events, serialised up front: the client's JSON cost is not measured.
  let t = performance.now();
  // Blobs: fetch() sends a Uint8Array body at about four times the CPU cost, which on a
  // small machine would be taken from the server being measured.
  const bodies: Blob[] = [];
  let batch: Record<string, unknown>[] = [];
  for (const event of eventStream(EVENTS)) {
    batch.push(event);
    if (batch.length === BATCH) {
      bodies.push(new Blob([JSON.stringify({ events: batch })]));
      batch = [];
    }
  }
  if (batch.length) bodies.push(new Blob([JSON.stringify({ events: batch })]));
  const sizes = bodies.map((b) => b.size);
  log(
    `generated ${fmt(EVENTS)} events in ${fmt(performance.now() - t)} ms: ${bodies.length} bodies, ` +
      `${fmt(sizes.reduce((a, b) => a + b, 0) / 1024 / 1024, 1)} MB (largest ${fmt(Math.max(...sizes) / 1024)} KB)`,
  );
  const warmBody = new Blob([JSON.stringify({ events: generateEvents(200, 7) })]);
  const otlp = OTLP ? otlpBodies(eventStream(EVENTS), BATCH) : undefined;
  if (otlp)
    log(`OTLP: ${fmt(otlp.spans)} spans in ${otlp.bodies.length} protobuf bodies, ${fmt(otlp.bodies.reduce((a, b) => a + b.size, 0) / 1024 / 1024, 1)} MB`);

  // 4. The app, as `npm start` runs it, on a free port.
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-"));
  await chmod(dataDir, 0o755);
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const profileDir = path.join(os.tmpdir(), `toolgate-bench-profile-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const appEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    TOOLGATE_DATA_DIR: dataDir, // start.ts keeps its pid file there: never clash with a running `npm start`
    TOOLGATE_API_RATE_PER_MINUTE: "100000000",
    TOOLGATE_PROJECT_RATE_PER_MINUTE: "100000000",
    // every client's batch at once, as before the per-project share existed (the benchmark measures cost, not fairness)
    TOOLGATE_PROJECT_HEAVY_CONCURRENCY: String(CLIENTS),
    // and no time limit on statements and lock waits: on a loaded machine a batch may wait for another's rollup rows past 5 s
    TOOLGATE_LOCK_TIMEOUT_MS: "0",
    TOOLGATE_STATEMENT_TIMEOUT_MS: "0",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  const app = await startApp(appEnv, CPU_PROFILE ? profileDir : undefined);
  cleanups.push(() => stopProcess(app));
  const base = `http://127.0.0.1:${port}`;
  let exited = false;
  app.once("exit", () => (exited = true));
  t = performance.now();
  for (;;) {
    if (exited) throw new Error("the app exited before answering /api/health (see its output above)");
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (performance.now() - t > 30 * 60_000) throw new Error("the app did not answer /api/health within 30 minutes");
    await sleep(250);
  }
  log(`app up on ${base} (pid ${app.pid}) after ${fmt((performance.now() - t) / 1000, 1)} s`);

  const post = async (body: Blob, key: string, expected: number) => {
    const response = await fetch(`${base}/api/trpc/ingest.batch`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`ingest.batch answered ${response.status}: ${text.slice(0, 500)}`);
    const data = (JSON.parse(text) as { result: { data: { accepted: number; duplicates: number; rejected: unknown[] } } }).result.data;
    if (data.accepted !== expected || data.rejected.length) {
      throw new Error(`ingest.batch accepted ${data.accepted} of ${expected} (${data.duplicates} duplicates): ${JSON.stringify(data.rejected).slice(0, 500)}`);
    }
  };

  // 5. Warm-up (another project, so that the measured rows are exactly the N events), then the run.
  const rss = startRssSampler(app.pid!);
  await post(warmBody, warm.key, 200);
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  cleanups.push(() => admin.end());
  await admin.query("CHECKPOINT");
  const waits = PG_WAITS ? await startWaitSampler(database.url) : undefined;
  let next = 0;
  const cpuBefore = { app: cpuSeconds(app.pid!), pg: postgresCpuSeconds(), bench: process.cpuUsage() };
  t = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(CLIENTS, bodies.length) }, async () => {
      for (let i = next++; i < bodies.length; i = next++) await post(bodies[i]!, measured.key, Math.min(BATCH, EVENTS - i * BATCH));
    }),
  );
  const httpSeconds = (performance.now() - t) / 1000;
  const bench = process.cpuUsage(cpuBefore.bench);
  const pgAfter = postgresCpuSeconds();
  const httpCpu = {
    app: cpuSeconds(app.pid!) - cpuBefore.app,
    pg: pgAfter !== undefined && cpuBefore.pg !== undefined ? pgAfter - cpuBefore.pg : undefined,
    bench: (bench.user + bench.system) / 1e6,
  };
  const peak = rss.stop();
  if (waits) log(`Postgres backends running ingest.batch, sampled every 50 ms: ${await waits.stop()}`);
  const {
    rows: [counts],
  } = await admin.query(
    "SELECT count(*)::int AS stored, (count(*) FILTER (WHERE NOT valid))::int AS invalid, count(DISTINCT run_id)::int AS runs FROM tool_calls WHERE project_id = $1",
    [measured.id],
  );
  if (counts.stored !== EVENTS) throw new Error(`${counts.stored} rows stored for ${EVENTS} events`);
  log(`HTTP: ${fmt(EVENTS)} events in ${fmt(httpSeconds, 2)} s (${fmt(counts.runs)} runs, ${fmt((100 * counts.invalid) / EVENTS, 1)}% invalid)`);

  const otlpRun = otlp ? await runOtlp(base, otlpKey, otlp.bodies, app.pid!, admin, otlpProject.id) : undefined;

  if (CPU_PROFILE) {
    await stopProcess(app);
    log(`CPU profiles in ${profileDir}: ${existsSync(profileDir) ? readdirSync(profileDir).join(", ") : "(none written)"}`);
  }

  // 6. Raw COPY of the same rows (as the server stored them) into the same table, under another project.
  const { rows: cols } = await admin.query<{ column_name: string }>(
    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'tool_calls' ORDER BY ordinal_position",
  );
  const names = cols.map((c) => `"${c.column_name}"`);
  const select = names.map((n) => (n === '"project_id"' ? `'${copyProject.id}'::uuid` : n)).join(", ");
  const chunks: Buffer[] = [];
  await pipeline(
    admin.query(copyTo(`COPY (SELECT ${select} FROM tool_calls WHERE project_id = '${measured.id}' ORDER BY received_at, id) TO STDOUT`)),
    async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    },
  );
  const copyBytes = chunks.reduce((a, c) => a + c.length, 0);
  // COPY TO yields one chunk per row: send it on in 1 MB pieces, as a COPY client would.
  const pieces: Buffer[] = [];
  for (let i = 0, size = 0, start = 0; i <= chunks.length; i++) {
    if (i === chunks.length || size >= 1 << 20) {
      pieces.push(Buffer.concat(chunks.slice(start, i)));
      start = i;
      size = 0;
    }
    size += chunks[i]?.length ?? 0;
  }
  // Start the COPY as clean as the HTTP run started: no maintenance left over from that run.
  await admin.query("VACUUM (ANALYZE) tool_calls");
  await admin.query("CHECKPOINT");
  const copyPgBefore = postgresCpuSeconds();
  t = performance.now();
  const sink = admin.query(copyFrom(`COPY tool_calls (${names.join(", ")}) FROM STDIN`));
  await pipeline(Readable.from(pieces), sink);
  const copySeconds = (performance.now() - t) / 1000;
  const copyPgAfter = postgresCpuSeconds();
  const copyPg = copyPgAfter !== undefined && copyPgBefore !== undefined ? copyPgAfter - copyPgBefore : undefined;
  if (sink.rowCount !== EVENTS) throw new Error(`COPY wrote ${sink.rowCount} rows, expected ${EVENTS}`);
  log(`COPY: ${fmt(EVENTS)} rows (${fmt(copyBytes / 1024 / 1024, 1)} MB of COPY text) in ${fmt(copySeconds, 2)} s`);

  // 7. The figures.
  const pgVersion = (await admin.query("SHOW server_version")).rows[0].server_version as string;
  const httpRate = EVENTS / httpSeconds;
  const copyRate = EVENTS / copySeconds;
  const cpu = os.cpus();
  const rowsOut: [string, string][] = [
    ["events", fmt(EVENTS)],
    ["batch size × clients", `${fmt(BATCH)} × ${CLIENTS}`],
    ["HTTP ingest.batch", `${fmt(httpRate)} events/s (${fmt(httpSeconds, 2)} s)`],
    ["raw COPY", `${fmt(copyRate)} rows/s (${fmt(copySeconds, 2)} s)`],
    ["ratio HTTP / COPY", fmt(httpRate / copyRate, 2)],
    [
      "CPU per event, HTTP",
      `app ${fmt((1e6 * httpCpu.app) / EVENTS)} µs, Postgres ${httpCpu.pg === undefined ? "? (external server)" : `${fmt((1e6 * httpCpu.pg) / EVENTS)} µs`}, this client ${fmt((1e6 * httpCpu.bench) / EVENTS)} µs`,
    ],
    ...(otlpRun
      ? ([
          ["OTLP /v1/traces (protobuf)", `${fmt(EVENTS / otlpRun.seconds)} events/s (${fmt(otlpRun.seconds, 2)} s, ${fmt(otlpRun.spans)} spans)`],
          ["ratio OTLP / ingest.batch", fmt(EVENTS / otlpRun.seconds / httpRate, 2)],
          [
            "CPU per event, OTLP",
            `app ${fmt((1e6 * otlpRun.app) / EVENTS)} µs, Postgres ${otlpRun.pg === undefined ? "? (external server)" : `${fmt((1e6 * otlpRun.pg) / EVENTS)} µs`}`,
          ],
        ] as [string, string][])
      : []),
    ["CPU per row, COPY", `Postgres ${copyPg === undefined ? "? (external server)" : `${fmt((1e6 * copyPg) / EVENTS)} µs`}`],
    [
      "load average",
      os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" "),
    ],
    ["peak server RSS", `${fmt(peak.serverMb)} MB (${peak.serverName.replace(/ \(v?\d*$/, "") || "?"}); whole app tree ${fmt(peak.treeMb)} MB`],
    ["Node.js", process.version],
    ["PostgreSQL", pgVersion],
    ["machine", `${cpu.length} × ${cpu[0]?.model ?? "?"}, ${fmt(os.totalmem() / 1024 ** 3, 1)} GB RAM, ${os.platform()} ${os.release()}`],
  ];
  const width = Math.max(...rowsOut.map(([k]) => k.length));
  console.log(`\n${rowsOut.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join("\n")}\n`);
}

async function runOtlp(base: string, key: string, bodies: Blob[], appPid: number, admin: pg.Client, projectId: string) {
  const { decodeResponse } = await import("../server/adapters/otlp/wire");
  const post = async (body: Blob) => {
    const response = await fetch(`${base}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/x-protobuf", authorization: `Bearer ${key}` },
      body,
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (!response.ok) throw new Error(`/v1/traces answered ${response.status}: ${Buffer.from(bytes).toString("utf8").slice(0, 300)}`);
    const partial = decodeResponse(bytes).partialSuccess;
    if (partial) throw new Error(`/v1/traces rejected ${partial.rejectedSpans} spans: ${partial.errorMessage.slice(0, 300)}`);
  };
  await admin.query("CHECKPOINT");
  let next = 0;
  const before = { app: cpuSeconds(appPid), pg: postgresCpuSeconds() };
  const t = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(CLIENTS, bodies.length) }, async () => {
      for (let i = next++; i < bodies.length; i = next++) await post(bodies[i]!);
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  const pgAfter = postgresCpuSeconds();
  const run = {
    seconds,
    spans: 2 * EVENTS,
    app: cpuSeconds(appPid) - before.app,
    pg: pgAfter !== undefined && before.pg !== undefined ? pgAfter - before.pg : undefined,
  };
  const { rows } = await admin.query("SELECT count(*)::int AS stored, count(result_status)::int AS results FROM tool_calls WHERE project_id = $1", [projectId]);
  if (rows[0].stored !== EVENTS || rows[0].results !== EVENTS)
    throw new Error(`OTLP: ${rows[0].stored} calls and ${rows[0].results} results stored for ${EVENTS} events`);
  log(`OTLP: ${fmt(EVENTS)} calls (${fmt(run.spans)} spans) in ${fmt(seconds, 2)} s`);
  return run;
}

const trees = textOption("trees", "BENCH_TREES");
(process.argv.includes("--long-runs") ? longRuns() : trees ? compareTrees(trees) : main())
  .then(() => cleanup())
  .then(
    () => process.exit(0),
    async (error: Error) => {
      console.error(`[bench] failed: ${error.stack ?? error.message}`);
      await cleanup();
      process.exit(1);
    },
  );

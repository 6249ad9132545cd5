// npm run bench:ingest-cpu [-- --events N --repeat R --trees DIR,DIR --smoke]   (or BENCH_EVENTS, BENCH_REPEAT, BENCH_TREES)
//
// What ingestion costs PostgreSQL per event, in process (no HTTP): ingestBatch, the service behind
// ingest.batch, sends N events of bench/events.ts (default 100,000) in batches of 1,000 from 4
// concurrent clients into a fresh database on an embedded PostgreSQL server of its own; the figure
// is the CPU time (user + system, /proc) of that server's processes over the run (backends, and
// the WAL writer and checkpointer they leave work to), divided by the events. Statistics are
// taken after a warm-up of 10,000 calls and autovacuum is off for the run, so that every run has
// the same plans. Two shapes of batch, each on its
// own fresh database:
// - "spread": the events as bench/events.ts makes them, runs started at random over 30 days, so a
//   batch's calls fall in ~1,000 different hours and ~30 days (the worst case for the rollups: a
//   batch touches about as many rows as it has calls in each table);
// - "recent": the same events in the same order, their timestamps moved to the last minutes (10 ms
//   apart, ending now), as a harness sends the calls of the last seconds: a batch is one hour and
//   one day of the rollups.
// --trees runs the same measurement with the code of other checkouts (each with its own
// node_modules and its own migrations: main's worktree, say), one after another and R times
// over, so that a change is compared with the code before it at the same load. Every run checks
// that each call was stored and that the rollups equal the ones computed from the raw calls
// (test/rollups.ts). In a checkout whose worker keeps the coarse daily rollups (rollups/coarse.ts),
// the run's refresh of them is timed too, once, after the batches (every day the run touched, as
// the worker's next minute would do): its PostgreSQL CPU per event of the run, apart.
// docs/PERFORMANCE.md records the figures.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type * as TestDatabase from "../scripts/lib/test-database";
import { runAndExit } from "../scripts/lib/exit";
import type * as Client from "../server/db/client";
import type * as IngestBatch from "../server/services/ingest/ingest-batch";
import type * as Coarse from "../server/services/rollups/coarse";
import type * as Registry from "../server/services/tools/registry";
import type * as TestEvents from "../test/events";
import type * as Rollups from "../test/rollups";
import type * as Events from "./events";
import { option, SMOKE, textOption } from "./options";
import { cpuSeconds, processTable } from "./processes";

const EVENTS = option("events", "BENCH_EVENTS", 100_000, 2_000);
const REPEAT = option("repeat", "BENCH_REPEAT", 1);
const BATCH = 1_000;
/** Calls stored (and analysed) before the measured ones. */
const WARM_UP = option("warm-up", "BENCH_WARM_UP", 10_000, 1_000);
const CLIENTS = 4;
const SHAPES = ["spread", "recent"] as const;
type Shape = (typeof SHAPES)[number];
const HERE = path.resolve(import.meta.dirname, "..");
const log = (m: string) => console.log(`[bench] ${m}`);

type Figures = {
  tree: string;
  shape: Shape;
  events: number;
  wallMs: number;
  pgUsPerEvent: number;
  nodeUsPerEvent: number;
  /** the refresh of the coarse rollups after the run, PostgreSQL CPU per event of the run (null: the checkout has none) */
  refreshPgUsPerEvent: number | null;
};

/** One measurement with the code of `tree`, in this process (the child of the driver below). */
async function measure(tree: string, shape: Shape): Promise<Figures> {
  // that tree's modules, typed as this tree's (the benchmark uses what both have)
  const code = <T>(file: string) => import(path.join(tree, file)) as Promise<T>;
  const { createFreshDatabase, startTestServer } = await code<typeof TestDatabase>("scripts/lib/test-database.ts");
  const server = await startTestServer();
  const database = await createFreshDatabase(server, "toolgate_bench_ingest_cpu");
  process.env.DATABASE_URL = database.url;
  const { prisma, pool } = await code<typeof Client>("server/db/client.ts");
  const { registerTools } = await code<typeof Registry>("server/services/tools/registry.ts");
  const { ingestBatch } = await code<typeof IngestBatch>("server/services/ingest/ingest-batch.ts");
  const { LOAN_TOOLS } = await code<typeof TestEvents>("test/events.ts");
  const { eventStream, generateEvents } = await code<typeof Events>("bench/events.ts");
  const { rollupsDifferFromRaw } = await code<typeof Rollups>("test/rollups.ts");
  try {
    const project = await prisma().project.create({ data: { slug: "bench-ingest-cpu", name: "bench" }, select: { id: true } });
    await registerTools(project.id, LOAN_TOOLS);
    const end = Date.now();
    const batches: Record<string, unknown>[][] = [];
    let n = 0;
    for (const event of eventStream(EVENTS)) {
      if (shape === "recent") event.timestamp = new Date(end - (EVENTS - n) * 10).toISOString();
      if (n++ % BATCH === 0) batches.push([]);
      batches.at(-1)!.push(event);
    }
    // warm-up (calls of other runs in the same 30 days), then statistics that stay put: the plans
    // of a fresh table's statements change whenever autovacuum analyses it, at another point of each run
    for (let i = 0; i < WARM_UP; i += BATCH) await ingestBatch(project.id, generateEvents(Math.min(BATCH, WARM_UP - i), 7 + i));
    await pool().query("ANALYZE");
    const { rows: tables } = await pool().query<{ name: string }>("SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'");
    for (const { name } of tables) await pool().query(`ALTER TABLE ${name} SET (autovacuum_enabled = false)`);
    // one batch per client, so that the pool's connections are open before the first reading
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => ingestBatch(project.id, generateEvents(50, 9 + i))));
    const { rows: backend } = await pool().query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    // the server's processes: the postmaster and what it runs (backends, WAL writer, checkpointer…),
    // those that ended too (a connection the pool closed during the run still counts)
    const postmaster = processTable().find((p) => p.pid === backend[0]!.pid)!.ppid;
    const before = cpuSeconds(postmaster) * 1000;
    const node = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < batches.length) await ingestBatch(project.id, batches[next++]!);
      }),
    );
    const wallMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 500)); // the postmaster reaps a backend that ended
    const after = cpuSeconds(postmaster) * 1000;
    const nodeCpu = process.cpuUsage(node);
    let refreshPgUsPerEvent: number | null = null;
    if (existsSync(path.join(tree, "server/services/rollups/coarse.ts"))) {
      const { refreshCoarseRollups } = await code<typeof Coarse>("server/services/rollups/coarse.ts");
      await refreshCoarseRollups({ projectId: project.id });
      await new Promise((resolve) => setTimeout(resolve, 500));
      refreshPgUsPerEvent = ((cpuSeconds(postmaster) * 1000 - after) * 1000) / EVENTS;
    }

    const { rows } = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM tool_calls WHERE project_id = $1 AND timestamp >= $2", [
      project.id,
      shape === "recent" ? new Date(end - EVENTS * 10) : new Date(0),
    ]);
    const expected = EVENTS + (shape === "recent" ? 0 : WARM_UP + 50 * CLIENTS);
    if (rows[0]!.n !== expected) throw new Error(`${tree} (${shape}): ${rows[0]!.n} calls stored, ${expected} sent`);
    const differences = await rollupsDifferFromRaw(pool(), project.id);
    if (Object.keys(differences).length) throw new Error(`${tree} (${shape}): rollups differ from the raw calls in ${Object.keys(differences).join(", ")}`);
    return {
      tree,
      shape,
      events: EVENTS,
      wallMs: Math.round(wallMs),
      pgUsPerEvent: ((after - before) * 1000) / EVENTS,
      nodeUsPerEvent: (nodeCpu.user + nodeCpu.system) / EVENTS,
      refreshPgUsPerEvent,
    };
  } finally {
    await prisma().$disconnect();
    await pool().end();
    await database.drop();
    await server.stop();
  }
}

/** Runs one measurement in a child process (each tree's modules load once, in a process of their own); answers its figures. */
function child(tree: string, shape: Shape, env: NodeJS.ProcessEnv): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ["--import", "tsx", path.join(HERE, "bench/ingest-cpu.ts"), "--child", tree, shape, "--events", String(EVENTS), "--warm-up", String(WARM_UP)],
      {
        cwd: tree,
        env,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let out = "";
    proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
    proc.on("error", reject);
    proc.on("exit", (status) => {
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (status === 0 && line) resolve(JSON.parse(line) as Figures);
      else reject(new Error(`${tree} (${shape}) exited with ${status}: ${out.trim()}`));
    });
  });
}

const args = process.argv.slice(2);
const childAt = args.indexOf("--child");
if (childAt >= 0) {
  await runAndExit(async () => {
    console.log(JSON.stringify(await measure(args[childAt + 1]!, args[childAt + 2] as Shape)));
  });
}

const trees = (textOption("trees", "BENCH_TREES") ?? HERE).split(",").map((t) => path.resolve(t));
let stop = async () => {};
await runAndExit(
  async () => {
    // a server of its own for every run: its CPU time is the figure, so nothing else may use it
    const dir = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-ingest-cpu-"));
    await chmod(dir, 0o755);
    const { startEmbeddedPostgres } = await import("../server/db/embedded");
    const pg = await startEmbeddedPostgres(dir, { persistent: false });
    const url = pg.url("postgres");
    stop = async () => {
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    };
    log(
      `${EVENTS.toLocaleString("en")} events a run, batches of ${BATCH}, ${CLIENTS} clients; ${trees.join(", ")}; ${REPEAT} round(s)${SMOKE ? " (smoke)" : ""}`,
    );
    const results: Figures[] = [];
    for (let round = 0; round < REPEAT; round++) {
      for (const shape of SHAPES) {
        for (const tree of trees) {
          const figures = await child(tree, shape, { ...process.env, TEST_DATABASE_URL: url });
          const refresh =
            figures.refreshPgUsPerEvent === null ? "" : `; the coarse rollups' refresh after it: PostgreSQL ${figures.refreshPgUsPerEvent.toFixed(1)} µs/event`;
          log(
            `${tree} ${shape}: PostgreSQL ${figures.pgUsPerEvent.toFixed(1)} µs/event, Node.js ${figures.nodeUsPerEvent.toFixed(1)} µs/event, ${figures.wallMs} ms${refresh}`,
          );
          results.push(figures);
        }
      }
    }
    console.log(
      `\n| tree | batches | PostgreSQL µs/event (each run) | mean | Node.js µs/event (mean) | coarse refresh, PostgreSQL µs/event (mean) |\n|:--|:--|--:|--:|--:|--:|`,
    );
    for (const shape of SHAPES) {
      for (const tree of trees) {
        const runs = results.filter((r) => r.tree === tree && r.shape === shape);
        const mean = (f: (r: Figures) => number) => runs.reduce((s, r) => s + f(r), 0) / runs.length;
        const refresh = runs.some((r) => r.refreshPgUsPerEvent === null) ? "-" : mean((r) => r.refreshPgUsPerEvent!).toFixed(1);
        console.log(
          `| ${tree} | ${shape} | ${runs.map((r) => r.pgUsPerEvent.toFixed(1)).join(", ")} | ${mean((r) => r.pgUsPerEvent).toFixed(1)} | ${mean((r) => r.nodeUsPerEvent).toFixed(1)} | ${refresh} |`,
        );
      }
    }
    console.log(
      `\n  load average  ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} after; ${new Date().toISOString()}`,
    );
  },
  () => stop(),
);

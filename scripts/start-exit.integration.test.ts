import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, inject, test } from "vitest";
import { freePort } from "../server/db/embedded";
import { startOwnPostgres } from "../test/own-postgres";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

/** Runs a script as npm does (tsx); `output` grows as it prints, `exited` resolves with its exit code. */
function runScript(args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _none, ...inherited } = process.env; // the test's database only when `env` names it
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const run = { child, output: "", exited: new Promise<number | null>((resolve) => child.once("exit", resolve)) };
  child.stdout!.on("data", (chunk) => (run.output += chunk));
  child.stderr!.on("data", (chunk) => (run.output += chunk));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return run;
}

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  run: { output: string; child: ChildProcess },
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (run.child.exitCode !== null || Date.now() > deadline) throw new Error(`gave up waiting for ${what}; output:\n${run.output}`);
    await sleep(100);
  }
}

async function tempDir() {
  const dir = await mkdtemp(path.join(os.tmpdir(), "toolgate-start-exit-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The processes a process started, from /proc (Linux). */
async function childrenOf(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "");
  return text.split(" ").filter(Boolean).map(Number);
}

// `npm start` and `npm run dev` share this supervision; `dev` is used because it needs no
// production build (minutes) before it spawns the Next.js server.
test("npm start exits non-zero when its Next.js server is SIGKILLed (as the OOM killer does)", async () => {
  const distDir = `.next-start-exit-${process.pid}`;
  cleanups.push(() => rm(path.resolve(distDir), { recursive: true, force: true }));
  const dir = await tempDir();
  const run = runScript(["scripts/start.ts", "dev"], {
    DATABASE_URL: inject("databaseUrl"),
    TOOLGATE_DATA_DIR: dir, // the one-app-per-folder lock file only: the database is DATABASE_URL
    TOOLGATE_DIST_DIR: distDir,
    PORT: String(await freePort()),
    TOOLGATE_WORKER: "off",
  });
  const next = await until(
    "the Next.js server process",
    async () => {
      if (!run.output.includes("Toolgate is starting")) return undefined;
      return (await childrenOf(run.child.pid!))[0];
    },
    run,
  );
  process.kill(next, "SIGKILL");
  expect(await run.exited).toBe(137);
  expect(run.output).toContain("The Next.js server ended without being asked to (killed by SIGKILL)");
}, 120_000);

test("npm start asked to stop (SIGTERM) exits 0", async () => {
  const distDir = `.next-start-exit-${process.pid}-b`;
  cleanups.push(() => rm(path.resolve(distDir), { recursive: true, force: true }));
  const dir = await tempDir();
  const run = runScript(["scripts/start.ts", "dev"], {
    DATABASE_URL: inject("databaseUrl"),
    TOOLGATE_DATA_DIR: dir,
    TOOLGATE_DIST_DIR: distDir,
    PORT: String(await freePort()),
    TOOLGATE_WORKER: "off",
  });
  await until("the Next.js server process", async () => (run.output.includes("Toolgate is starting") ? (await childrenOf(run.child.pid!))[0] : undefined), run);
  run.child.kill("SIGTERM");
  expect(await run.exited).toBe(0);
}, 120_000);

test("npm run worker exits 1 when the embedded PostgreSQL it started is killed", async () => {
  const { dir, server } = await startOwnPostgres("worker-exit");
  await server.stop(); // only the folder is wanted: the worker starts its own server in it
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const run = runScript(["scripts/worker.ts"], { TOOLGATE_DATA_DIR: dir, TOOLGATE_ALERT_EVALUATOR: "off" }); // no DATABASE_URL: embedded
  const postgres = await until(
    "the worker to start",
    async () => {
      if (!run.output.includes("Toolgate worker running")) return undefined;
      return Number((await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]);
    },
    run,
  );
  process.kill(postgres, "SIGKILL");
  expect(await run.exited).toBe(1);
  expect(run.output).toContain("The embedded PostgreSQL has stopped unexpectedly");
}, 120_000);

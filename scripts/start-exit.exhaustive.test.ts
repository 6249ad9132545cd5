import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, expect, inject, test } from "vitest";
import { freePort } from "../server/db/embedded";
import { startOwnPostgres } from "../test/own-postgres";
import { cleanups, runScript, tempDir, until } from "../test/script-process";

const undo = cleanups();
afterEach(undo.undo);

/** The processes a process started, from /proc (Linux). */
async function childrenOf(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "");
  return text.split(" ").filter(Boolean).map(Number);
}

// `npm start` and `npm run dev` share this supervision; `dev` is used because it needs no
// production build (minutes) before it spawns the Next.js server.
test("npm start exits non-zero when its Next.js server is SIGKILLed (as the OOM killer does)", async () => {
  const distDir = `.next-start-exit-${process.pid}`;
  undo.push(() => rm(path.resolve(distDir), { recursive: true, force: true }));
  const dir = await tempDir(undo, "toolgate-start-exit-");
  const run = runScript(
    ["scripts/start.ts", "dev"],
    {
      DATABASE_URL: inject("databaseUrl"),
      TOOLGATE_DATA_DIR: dir, // the one-app-per-folder lock file only: the database is DATABASE_URL
      TOOLGATE_DIST_DIR: distDir,
      PORT: String(await freePort()),
      TOOLGATE_WORKER: "off",
    },
    undo,
  );
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
  undo.push(() => rm(path.resolve(distDir), { recursive: true, force: true }));
  const dir = await tempDir(undo, "toolgate-start-exit-");
  const run = runScript(
    ["scripts/start.ts", "dev"],
    {
      DATABASE_URL: inject("databaseUrl"),
      TOOLGATE_DATA_DIR: dir,
      TOOLGATE_DIST_DIR: distDir,
      PORT: String(await freePort()),
      TOOLGATE_WORKER: "off",
    },
    undo,
  );
  await until("the Next.js server process", async () => (run.output.includes("Toolgate is starting") ? (await childrenOf(run.child.pid!))[0] : undefined), run);
  run.child.kill("SIGTERM");
  expect(await run.exited).toBe(0);
}, 120_000);

test("npm run worker exits 1 when the embedded PostgreSQL it started is killed", async () => {
  const { dir, server } = await startOwnPostgres("worker-exit");
  await server.stop(); // only the folder is wanted: the worker starts its own server in it
  undo.push(() => rm(dir, { recursive: true, force: true }));
  const run = runScript(["scripts/worker.ts"], { TOOLGATE_DATA_DIR: dir, TOOLGATE_ALERT_EVALUATOR: "off" }, undo); // no DATABASE_URL: embedded
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

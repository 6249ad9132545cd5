import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

// Scripts run as npm runs them (tsx), for the tests of whole processes: `npm start`, the worker.

/** What a test undoes after itself, last first (call `undo` in afterEach). */
export function cleanups() {
  const steps: (() => Promise<unknown>)[] = [];
  return {
    push: (step: () => Promise<unknown>) => void steps.push(step),
    undo: async () => {
      for (const step of steps.splice(0).reverse()) await step().catch(() => {});
    },
  };
}
export type Cleanups = ReturnType<typeof cleanups>;

export type ScriptRun = { child: ChildProcess; output: string; exited: Promise<number | null> };

/** Runs a script with tsx; `output` grows as it prints (both streams), `exited` resolves with its exit code. */
export function runScript(args: string[], env: Record<string, string>, undo: Cleanups): ScriptRun {
  const { DATABASE_URL: _none, ...inherited } = process.env; // the test's database only when `env` names it
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const run: ScriptRun = { child, output: "", exited: new Promise<number | null>((resolve) => child.once("exit", resolve)) };
  child.stdout!.on("data", (chunk) => (run.output += chunk));
  child.stderr!.on("data", (chunk) => (run.output += chunk));
  undo.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // asked to stop, a script stops what it started (`npm start` its Next.js server); a SIGKILL
    // leaves those running after the test (a Next.js server of every run was found still up)
    child.kill("SIGTERM");
    const stopped = await Promise.race([run.exited.then(() => true), sleep(15_000).then(() => false)]);
    if (!stopped) child.kill("SIGKILL");
  });
  return run;
}

/** Polls `probe` until it gives a value; fails with the script's output when the script ends or the time is up. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, run: ScriptRun, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (run.child.exitCode !== null || Date.now() > deadline) throw new Error(`gave up waiting for ${what}; output:\n${run.output}`);
    await sleep(100);
  }
}

/** A temporary folder, removed after the test. */
export async function tempDir(undo: Cleanups, prefix = "toolgate-script-") {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  undo.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

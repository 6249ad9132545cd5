// Talking to a running app over plain HTTP, for the scripts that start one (screenshots,
// the benchmarks): wait until it answers, call its tRPC procedures, stop it.
import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { buildIfStale, nextBin } from "./build";

/**
 * The app on `env.PORT` as `npm start` runs it (scripts/start.ts: migrations, the build when stale,
 * `next start`). With `cpuProfileDir` it runs `next start` itself under `node --cpu-prof` (refused
 * in NODE_OPTIONS), after building when stale: the database must be migrated already. The profile
 * is written into that folder when the app stops.
 */
export async function startApp(env: NodeJS.ProcessEnv, cpuProfileDir?: string): Promise<ChildProcess> {
  if (!cpuProfileDir) return spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { stdio: ["ignore", "inherit", "inherit"], env });
  await buildIfStale();
  return spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`, nextBin, "start", "-p", String(env.PORT)], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...env, NODE_ENV: "production" },
  });
}

/** Waits until GET /api/health answers 200; fails when `exited()` says the app stopped, or after `timeoutMs`. */
export async function waitForHealth(base: string, { timeoutMs = 30 * 60_000, exited = () => false }: { timeoutMs?: number; exited?: () => boolean } = {}) {
  const started = performance.now();
  for (;;) {
    if (exited()) throw new Error("the app exited before answering /api/health (see its output above)");
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (performance.now() - started > timeoutMs) throw new Error(`the app did not answer ${base}/api/health within ${Math.round(timeoutMs / 60_000)} minutes`);
    await sleep(500);
  }
}

/**
 * A tRPC procedure over plain HTTP: mutations POST their input, queries GET it as ?input=.
 * Answers the data and the session cookie (the one the answer set, else the one sent).
 */
export async function trpc<T>(base: string, kind: "query" | "mutation", path: string, input: unknown, cookie = ""): Promise<{ data: T; cookie: string }> {
  const url = `${base}/api/trpc/${path}${kind === "query" ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`;
  const response = await fetch(url, {
    method: kind === "query" ? "GET" : "POST",
    headers: { "content-type": "application/json", cookie },
    ...(kind === "mutation" ? { body: JSON.stringify(input) } : {}),
  });
  const body = (await response.json()) as { result?: { data: T }; error?: { message: string } };
  if (!body.result) throw new Error(`${path}: ${body.error?.message}`);
  return { data: body.result.data, cookie: response.headers.get("set-cookie")?.split(";")[0] ?? cookie };
}

/** SIGTERM, then SIGKILL after `timeoutMs`; resolves once the process has exited. */
export function stopProcess(child: ChildProcess, timeoutMs = 15_000) {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", () => (clearTimeout(timer), resolve()));
    child.kill("SIGTERM");
  });
}

/**
 * Clean-up steps (push them as things start), run once in reverse order by `cleanup()`: call it
 * on success and on error; SIGINT and SIGTERM run it too, then exit with 130.
 */
export function cleanupOnExit() {
  const steps: (() => Promise<unknown>)[] = [];
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const step of steps.reverse()) await step().catch((e: Error) => console.error(`clean-up: ${e.message}`));
    })());
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the app and the database…`);
      void cleanup().then(() => process.exit(130));
    });
  }
  return { steps, cleanup };
}

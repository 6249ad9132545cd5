// npm start: open the database (embedded unless DATABASE_URL), migrate, build when stale, serve.
// npm run dev: the same with `next dev` (hot reload) instead of a build.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "../server/env";
import { applyMigrations } from "../server/db/migrate";
import { openDatabase } from "../server/db/resolve";
import { buildIfStale, nextBin } from "./lib/build";
import { takeOverStopSignals, unexpectedExitStatus } from "./lib/exit";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const dev = process.argv[2] === "dev";
let env;
try {
  env = parseEnv(process.env);
} catch (error) {
  fail((error as Error).message);
}

// One app per data folder: a second `npm start` says so instead of sharing the database files.
const lockFile = path.resolve(env.TOOLGATE_DATA_DIR, "toolgate.pid");
mkdirSync(path.dirname(lockFile), { recursive: true });
try {
  const other = JSON.parse(readFileSync(lockFile, "utf8")) as { pid: number; port: number };
  process.kill(other.pid, 0);
  fail(
    `Toolgate is already running (pid ${other.pid}) at http://localhost:${other.port} on ${path.dirname(lockFile)}. Stop it first, or set TOOLGATE_DATA_DIR or DATABASE_URL for a second instance.`,
  );
} catch (error) {
  if ((error as NodeJS.ErrnoException).code === "EPERM") fail("Toolgate is already running under another user.");
}
writeFileSync(lockFile, JSON.stringify({ pid: process.pid, port: env.PORT }));

let db: Awaited<ReturnType<typeof openDatabase>>;
try {
  db = await openDatabase(env);
} catch (error) {
  rmSync(lockFile, { force: true });
  fail((error as Error).message);
}
let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  // this process's own connections (first-run admin) closed first: the embedded server stops only when nobody else (a worker) uses it
  await (await import("../server/db/client")).closeDatabase().catch(() => {});
  await db.stop().catch((e: Error) => console.error(`Could not stop the database cleanly: ${e.message}`));
  rmSync(lockFile, { force: true });
  process.exit(code);
}

try {
  console.log(`Database: ${db.description}`);
  const applied = await applyMigrations(db.url);
  console.log(applied.length ? `Migrations applied: ${applied.join(", ")}` : "Migrations: up to date.");
  process.env.DATABASE_URL = db.url;
  const { bootstrapAdminFromEnv } = await import("../server/services/auth/accounts");
  const created = await bootstrapAdminFromEnv(env);
  if (created) console.log(`First run: created the admin ${created.user.email} and the project "${created.project.slug}".`);
  if (!dev) await buildIfStale();
} catch (error) {
  console.error((error as Error).message);
  await shutdown(1);
}

// Idle keep-alive connections stay open 65 s (Node's default is 5 s): longer than the idle
// timeout of common load balancers and HTTP clients (60 s), so a client never reuses a
// connection at the instant the server closes it (the request then fails with ECONNRESET).
const KEEP_ALIVE_MS = 65_000;
// A larger young generation for the server (V8's default semi-space is 16 MB): an export or a
// batch of 1,000 calls allocates tens of megabytes that die within the request, and with the
// default much of it lived long enough to be copied and promoted (GC was a fifth of an OTLP
// export's CPU; docs/PERFORMANCE.md). NODE_OPTIONS may set another size.
const youngGeneration = /--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? "") ? [] : ["--max-semi-space-size=64"];
const server = spawn(
  process.execPath,
  [...youngGeneration, nextBin, ...(dev ? ["dev"] : ["start", "--keepAliveTimeout", String(KEEP_ALIVE_MS)]), "-p", String(env.PORT)],
  {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DATABASE_URL: db.url, NODE_ENV: dev ? "development" : "production" },
  },
);
console.log(`Toolgate is starting at http://localhost:${env.PORT}`);
// Asked to stop (Ctrl-C, systemd, docker stop): exit 0 once the server has stopped. Any other
// end of the server (a crash, a kill, the OOM killer's SIGKILL, even a clean exit nobody asked
// for) exits non-zero, so that a supervisor with Restart=on-failure starts Toolgate again.
let asked = false;
takeOverStopSignals((signal) => {
  asked = true;
  console.log(`\n${signal}: stopping Toolgate…`);
  server.kill("SIGTERM");
});
// The embedded PostgreSQL died (killed, out of memory): every request would answer 503 from
// now on, so stop and exit non-zero, and let the supervisor (systemd, Docker, pm2) restart
// Toolgate, which starts the database again. An external DATABASE_URL is not watched: it may
// come back on its own, and meanwhile the API answers 503 with Retry-After.
let databaseLost = false;
db.watch?.(() => {
  databaseLost = true;
  console.error("The embedded PostgreSQL has stopped unexpectedly: stopping Toolgate with exit code 1 so that a supervisor restarts it.");
  server.kill("SIGTERM");
});
server.on("exit", (code, signal) => {
  if (databaseLost || asked) return void shutdown(databaseLost ? 1 : 0);
  const status = unexpectedExitStatus(code, signal);
  console.error(
    `The Next.js server ended without being asked to (${signal ? `killed by ${signal}` : `exit code ${code}`}): stopping Toolgate with exit code ${status} so that a supervisor restarts it.`,
  );
  void shutdown(status);
});

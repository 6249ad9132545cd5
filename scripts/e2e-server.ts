// The app for Playwright: `npm start` on a database of its own (fresh every run).
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createFreshDatabase, startTestServer } from "./lib/test-database";

// No background alert evaluator: browser tests trigger evaluation with "Evaluate now", so
// nothing runs on a timer behind them. The alerts spec points a webhook at the app itself on
// localhost, which only TOOLGATE_WEBHOOK_ALLOW_PRIVATE permits.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: process.env.E2E_PORT ?? "3100",
  TOOLGATE_ALERT_EVALUATOR: "off",
  TOOLGATE_WEBHOOK_ALLOW_PRIVATE: "true",
  // the build (when stale) skips its type check: `npm run typecheck` does it (next.config.ts)
  TOOLGATE_BUILD_TYPECHECK: "off",
};
// The database on a throw-away server of its own (TEST_DATABASE_URL's, or an embedded one that skips
// flushing to disk: scripts/lib/test-database.ts), as the integration tests do.
const server = await startTestServer();
const database = await createFreshDatabase(server, "toolgate_e2e", false);
env.DATABASE_URL = database.url;
// the app's own folder (its one-app-per-folder lock), apart from the checkout's .data
const dataDir = await mkdtemp(path.join(os.tmpdir(), "toolgate-e2e-"));
env.TOOLGATE_DATA_DIR = dataDir;
const cleanup = async () => {
  await database.drop().catch(() => {});
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
};

const app = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => app.kill(signal));
app.on("exit", async (code) => {
  await cleanup().catch(() => {});
  process.exit(code ?? 0);
});

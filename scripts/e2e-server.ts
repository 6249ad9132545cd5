// The app for Playwright: `npm start` on a database of its own (fresh every run).
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
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
};
let cleanup = async () => {};
if (process.env.TEST_DATABASE_URL) {
  const database = await createFreshDatabase(await startTestServer(), "toolgate_e2e", false);
  env.DATABASE_URL = database.url;
  cleanup = database.drop;
} else {
  const dir = await mkdtemp(path.join(os.tmpdir(), "toolgate-e2e-"));
  await chmod(dir, 0o755);
  env.TOOLGATE_DATA_DIR = dir;
  delete env.DATABASE_URL;
  cleanup = () => rm(dir, { recursive: true, force: true });
}

const app = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => app.kill(signal));
app.on("exit", async (code) => {
  await cleanup().catch(() => {});
  process.exit(code ?? 0);
});

import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmbeddedPostgres } from "../server/db/embedded";
import { waitFor } from "../test/wait";
import { stopProcess } from "./lib/running-app";

// The ops CLI while another Toolgate process (here `npm run worker`, which holds connections to
// the embedded PostgreSQL as `npm start` does) runs on the same data folder: the CLI reuses that
// server and, on exit, says on standard error that it leaves it running. Standard output holds the
// answer alone, so that `KEY=$(npm run -s toolgate -- keys create …)` is the key.

let dataDir: string;
let worker: ChildProcess;
const env = () => {
  const e: NodeJS.ProcessEnv = { ...process.env, TOOLGATE_DATA_DIR: dataDir };
  delete e.DATABASE_URL; // the embedded server on the data folder, as `npm start` uses it
  return e;
};

function run(command: string, args: string[]) {
  const child = spawn(command, args, { env: env(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}
const cli = (...args: string[]) => run(process.execPath, ["--import", "tsx", "scripts/toolgate.ts", ...args]);

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "toolgate-cli-"));
  await chmod(dataDir, 0o755); // run as root, the server runs as the "postgres" user, which must reach it
  worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], { env: env(), stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  worker.stdout!.on("data", (chunk) => (output += chunk));
  await waitFor(() => output.includes("Toolgate worker running") || worker.exitCode !== null, "the worker to start", 90_000);
  expect(worker.exitCode, output).toBeNull();
  const server = await startEmbeddedPostgres(dataDir); // the worker's server, reused
  const client = new pg.Client({ connectionString: server.url("toolgate") });
  await client.connect();
  await client.query("INSERT INTO projects (id, slug, name) VALUES (gen_random_uuid(), 'default', 'Default')").finally(() => client.end());
}, 120_000);

afterAll(async () => {
  if (worker) await stopProcess(worker); // the last Toolgate process out: it stops the server
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

// each CLI run starts tsx and waits up to 2 s for the worker's connections: seconds each, more on a busy machine
describe("the ops CLI is scriptable while the app runs", { timeout: 240_000 }, () => {
  test("KEY=$(npm run -s toolgate -- keys create …) is exactly the key; the status lines are on standard error", async () => {
    const { code, stdout, stderr } = await run("npm", ["run", "-s", "toolgate", "--", "keys", "create", "--project", "default", "--name", "ci"]);
    expect(stderr).toContain("PostgreSQL left running"); // the situation of the bug: another process holds the server
    expect(stderr).toContain('Created ingest API key "ci"');
    expect(stdout).toMatch(/^tg_[0-9a-f]{10}_[A-Za-z0-9_-]{43}\n$/);
    expect(code).toBe(0);
  });

  test("--json answers one JSON document on standard output for every command", async () => {
    const created = await cli("keys", "create", "--project", "default", "--name", "reader", "--scope", "read", "--json");
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { key: string; prefix: string; scope: string; name: string; project: string };
    expect(key).toMatchObject({ name: "reader", scope: "read", project: "default" });
    expect(key.key).toMatch(new RegExp(`^tg_${key.prefix}_`));

    const revoked = await cli("keys", "revoke", "--project", "default", "--key", `tg_${key.prefix}`, "--json");
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ project: "default", revoked: `tg_${key.prefix}` });

    const listed = await cli("keys", "list", "--project", "default", "--json");
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.stdout) as { prefix: string; name: string; scope: string; revokedAt: string | null }[];
    expect(keys.map((k) => [k.name, k.scope, k.revokedAt === null]).sort()).toEqual([
      ["ci", "ingest", true],
      ["reader", "read", false],
    ]);

    const projects = await cli("projects", "list", "--json");
    expect(JSON.parse(projects.stdout)).toEqual([expect.objectContaining({ slug: "default", name: "Default" })]);

    const retention = await cli("projects", "retention", "--project", "default", "--calls-days", "30", "--json");
    expect(retention.code).toBe(0);
    expect(JSON.parse(retention.stdout)).toEqual({ project: "default", callsDays: 30, rollupsDays: 400 });

    const rebuilt = await cli("rollups", "rebuild", "--project", "default", "--json");
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stderr).toContain("Recomputing the rollups of default");
    expect(JSON.parse(rebuilt.stdout)).toEqual({
      project: "default",
      ms: expect.any(Number),
      tables: {
        call_rollups_hourly: 0,
        call_rollups_daily: 0,
        call_rollups_tool_daily: 0,
        call_rollups_model_daily: 0,
        error_message_rollups_hourly: 0,
        error_message_rollups_daily: 0,
      },
    });

    const user = await cli("users", "create", "--email", "Ops@Example.com", "--role", "member", "--project", "default", "--json");
    expect(user.code).toBe(0);
    expect(JSON.parse(user.stdout)).toEqual({ project: "default", email: "ops@example.com", role: "member", oneTimePassword: expect.any(String) });
  });

  test("a new user's one-time password is alone on standard output", async () => {
    const { code, stdout, stderr } = await cli("users", "create", "--email", "viewer@example.com", "--role", "viewer", "--project", "default");
    expect(code).toBe(0);
    expect(stderr).toContain("Added viewer@example.com to default as viewer.");
    expect(stdout).toMatch(/^\S+\n$/);
  });

  test("errors go to standard error with exit code 1 (the command failed) or 2 (the command was wrong)", async () => {
    const missing = await cli("keys", "revoke", "--project", "default", "--key", "tg_0000000000");
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toContain('No active API key "tg_0000000000"');

    const unknownProject = await cli("keys", "list", "--project", "nope");
    expect(unknownProject).toMatchObject({ code: 2, stdout: "" });
    expect(unknownProject.stderr).toContain('No project "nope". Projects: default.');

    const unknownOption = await cli("keys", "list", "--project", "default", "--colour");
    expect(unknownOption).toMatchObject({ code: 2, stdout: "" });
    expect(unknownOption.stderr).toContain("--colour");
  });
});

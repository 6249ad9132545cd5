import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// What a stdio server started by `toolgate mcp` can see of Toolgate's API key: the gateway runs as
// a real process (from the sources, through tsx) and its child is a real process too, which reads
// its own environment and the gateway's /proc entries (Linux) and prints them on stdout.

const cli = path.resolve(import.meta.dirname, "cli.ts");
const dir = mkdtempSync(path.join(tmpdir(), "toolgate-key-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = "tg_key_file_secret_8f2c41";

/** The child: prints what it can read, as one line, and exits. */
const SNOOP = `
const fs = require("node:fs");
const read = (file) => { try { return fs.readFileSync(file, "utf8").replace(/\\0/g, " "); } catch (e) { return "unreadable: " + e.code; } };
process.stdout.write(JSON.stringify({
  own: Object.entries(process.env).map(([k, v]) => k + "=" + v).join(" "),
  parentEnviron: read("/proc/" + process.ppid + "/environ"),
  parentCmdline: read("/proc/" + process.ppid + "/cmdline"),
}) + "\\n");`;

function gateway(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["--import", "tsx", cli, "mcp", "--url", "http://127.0.0.1:9", ...args, "--", process.execPath, "-e", SNOOP], {
    env: { PATH: process.env.PATH ?? "", ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return exited.then((code) => {
    child.stdin.end();
    return { code, stdout, stderr };
  });
}

describe.runIf(process.platform === "linux")("toolgate mcp and the API key", { timeout: 60_000 }, () => {
  it("reads the key from --api-key-file: neither the server's environment nor the gateway's environ or command line holds it", async () => {
    const file = path.join(dir, "key");
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
    const run = await gateway(["--api-key-file", file], { TOOLGATE_API_KEY_FILE: file });
    expect(run.code).toBe(0);
    const seen = JSON.parse(run.stdout) as { own: string; parentEnviron: string; parentCmdline: string };
    expect(seen.parentCmdline).toContain("--api-key-file"); // it is the gateway the child looked at
    for (const where of [seen.own, seen.parentEnviron, seen.parentCmdline]) expect(where).not.toContain(KEY);
    expect(seen.own).not.toMatch(/TOOLGATE_API_KEY_FILE|TOOLGATE_URL/);
    expect(run.stderr).not.toContain(KEY);
  });

  it("refuses a key file other users can read, saying how to fix it, before the server starts", async () => {
    const file = path.join(dir, "shared-key");
    writeFileSync(file, KEY);
    chmodSync(file, 0o644);
    const run = await gateway(["--api-key-file", file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`The API key file ${file} can be read by other users (mode 644). Make it yours alone: chmod 600 ${file}.`);
  });

  it("says that --api-key shows the key to every local user", async () => {
    const run = await gateway(["--api-key", KEY]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("--api-key puts the key in the command line, which every user of this machine can read (ps); use --api-key-file instead.");
    expect(run.stderr).not.toContain(KEY);
  });
});

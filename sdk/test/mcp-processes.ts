import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";

// Starting the processes of the MCP gateway's tests and bench:mcp: the gateway from the SDK's
// sources, and @modelcontextprotocol/server-everything on Streamable HTTP.

export const cli = path.resolve(import.meta.dirname, "../src/cli.ts");

/** A port free on 127.0.0.1 now (for a server that cannot be told to pick one and say which). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Only PATH and what a test names: the gateway must not lean on the test runner's environment. */
const envOf = (extra: Record<string, string>) => ({ PATH: process.env.PATH ?? "", ...extra }) as unknown as NodeJS.ProcessEnv;

/** Starts a process and resolves once its stderr matches `ready` (with the match), or rejects when it exits first. */
export async function started(child: ChildProcess, ready: RegExp, what: string): Promise<{ match: RegExpExecArray; stderr: () => string }> {
  let stderr = "";
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = ready.exec(stderr);
      if (found) resolve(found);
    });
    child.on("exit", (code) => reject(new Error(`${what} exited with ${code} before it was ready: ${stderr}`)));
  });
  return { match, stderr: () => stderr };
}

export async function stopped(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exit;
}

/** @modelcontextprotocol/server-everything in its Streamable HTTP mode, on a free port; its endpoint is /mcp. */
export async function everythingOverHttp(): Promise<{ url: string; stop: () => Promise<unknown> }> {
  const port = await freePort();
  const bin = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
  const child = spawn(process.execPath, [bin, "streamableHttp"], { env: envOf({ PORT: String(port) }), stdio: ["ignore", "ignore", "pipe"] });
  await started(child, /listening on port/, "server-everything");
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => stopped(child) };
}

export type HttpGatewayProcess = { url: string; pid: number; stderr: () => string; stop: () => Promise<number | null> };

/** `toolgate mcp --listen 127.0.0.1:0 --upstream <upstream>` from the SDK's sources, once it says where it listens. */
export async function httpGateway(upstream: string, args: string[] = [], env: Record<string, string> = {}): Promise<HttpGatewayProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", cli, "mcp", "--listen", "127.0.0.1:0", "--upstream", upstream, ...args], {
    env: envOf(env),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const { match, stderr } = await started(child, /listening on (http:\/\/\S+), forwarding/, "toolgate mcp --listen");
  return { url: match[1]!, pid: child.pid!, stderr, stop: () => stopped(child) };
}

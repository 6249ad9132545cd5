import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { started, stopped } from "./mcp-processes";

// The Python MCP peers of the gateway's tests: the official SDK and FastMCP from PyPI, pinned in
// test/python/requirements-mcp.txt, in a virtualenv the tests find or create.

const root = path.resolve(import.meta.dirname, "../..");
const scripts = path.join(root, "test/python");
const requirements = path.join(scripts, "requirements-mcp.txt");
export const peerServer = path.join(scripts, "mcp_peer_server.py");
const peerClient = path.join(scripts, "mcp_peer_client.py");

/** The pinned versions, as `pip` would print them (name==version), from the requirements file. */
function pinned(): string[] {
  return readFileSync(requirements, "utf8")
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter(Boolean);
}

/**
 * A Python with the pinned packages: TOOLGATE_MCP_PYTHON when set (CI installs the requirements
 * there), else .venv-mcp in the repository, made with `python3 -m venv` and `pip install -r` when it
 * is missing or holds other versions (a minute or two, once).
 */
export function mcpPython(): string {
  const python = process.env.TOOLGATE_MCP_PYTHON ?? path.join(root, ".venv-mcp/bin/python");
  const wanted = pinned();
  const installed = () => {
    if (!existsSync(python)) return [];
    const lines = execFileSync(python, ["-m", "pip", "freeze", "--disable-pip-version-check"], { encoding: "utf8" }).split("\n");
    return wanted.filter((pin) => lines.some((line) => line.toLowerCase() === pin.toLowerCase()));
  };
  if (installed().length === wanted.length) return python;
  if (process.env.TOOLGATE_MCP_PYTHON) {
    throw new Error(`TOOLGATE_MCP_PYTHON=${python} lacks some of ${wanted.join(", ")}: run ${python} -m pip install -r ${requirements}`);
  }
  if (!existsSync(python)) execFileSync("python3", ["-m", "venv", path.dirname(path.dirname(python))], { stdio: "inherit" });
  execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", requirements], { stdio: "inherit" });
  return python;
}

type PeerResult = { isError: boolean; text: string[] } | { raised: string; message: string };
/** What a session of test/python/mcp_peer_client.py saw; `events`: what its subscriptions/listen stream brought (script "change"). */
export type PeerSession = { protocolVersion: string; tools: string[]; results: PeerResult[]; events?: string[] };
/**
 * The client's sessions (test/python/mcp_peer_client.py): mode auto (server/discover), legacy (initialize) or a
 * pinned "2026-07-28" (neither); `list` "last": no tools/list before the calls; script "change": get_loan's schema
 * changes midway, announced on a subscriptions/listen stream (a server started with --changing).
 */
export type PeerPlan = Record<
  string,
  {
    mode: "auto" | "legacy" | "2026-07-28";
    target: string | { command: string[]; env?: Record<string, string> };
    list?: "first" | "last";
    script?: "loans" | "change";
  }
>;

/** Runs the official Python client's sessions of `plan` at once (one Python process); rejects with its stderr when it fails. */
export function runPeerClient(python: string, plan: PeerPlan): Promise<{ sessions: Record<string, PeerSession>; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [peerClient, JSON.stringify(plan)], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => {
      if (code !== 0) return reject(new Error(`the Python MCP client exited with ${code}: ${stderr.slice(-4000)}`));
      resolve({ sessions: JSON.parse(stdout) as Record<string, PeerSession>, stderr });
    });
  });
}

/**
 * A peer server (KIND: high, low or fastmcp) on Streamable HTTP, on a free port of 127.0.0.1; its endpoint is /mcp.
 * `flags`: --stateless (no Mcp-Session-Id), --changing (test/python/mcp_peer_server.py).
 */
export async function peerServerOverHttp(python: string, kind: string, label: string, flags: ("--stateless" | "--changing")[] = []) {
  const child = spawn(python, [peerServer, kind, "http", label, ...flags], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  const { match, stderr } = await started(child, /Uvicorn running on (http:\/\/127\.0\.0\.1:\d+)/, `the ${kind} Python MCP server`);
  return { url: `${match[1]}/mcp`, stderr, stop: () => stopped(child) };
}

/** The calls a peer server's tool ran (its `CALLED` lines), by the server's label. */
export function calledBy(stderr: string): Record<string, { tool: string; arguments: unknown }[]> {
  const called: Record<string, { tool: string; arguments: unknown }[]> = {};
  for (const line of stderr.split("\n")) {
    if (!line.startsWith("CALLED ")) continue;
    const { server, tool, arguments: args } = JSON.parse(line.slice(7)) as { server: string; tool: string; arguments: unknown };
    (called[server] ??= []).push({ tool, arguments: args });
  }
  return called;
}

import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { McpGateway, type Enforce } from "./mcp";
import { isLoopback, startHttpGateway } from "./mcp-http";
import { ApiKeyError } from "./api-key";
import { Reporter } from "./reporter";
import type { ModelRef } from "./event";

/**
 * `toolgate mcp -- <command> [args…]`: starts the MCP server as a child process and sits between
 * the client (this process's stdin/stdout) and the server (the child's), newline-delimited JSON-RPC
 * both ways. docs/mcp.md.
 */

const MCP_USAGE = `Usage: toolgate mcp [options] -- <command> [args…]        (a stdio server)
       toolgate mcp [options] --listen <host:port> --upstream <url>   (a Streamable HTTP server)

  --model <name[@version]>   the model behind the client (default: the client's clientInfo)
  --run-id <id>              the run the session's calls belong to (default: one new run per session)
  --enforce <strict | report | off>
                             default: refuse invalid calls, forward (and record unchecked) a call the gateway
                             cannot check; strict: refuse those too; report: forward every call and only
                             record the verdict; off: forward every call and record it unchecked
  --namespace <name>         tools are named <name>/<tool> in Toolgate (default: the server's serverInfo.name)
  --no-namespace             tools keep the server's names (one server per project)
  --url <url>                default: TOOLGATE_URL
  --api-key-file <path>      read the key (ingest scope) from a file only you can read (chmod 600);
                             default: TOOLGATE_API_KEY_FILE, else TOOLGATE_API_KEY
  --api-key <key>            the key itself: any local user can read it in the process list
  --listen <host:port>       serve the Streamable HTTP transport there (127.0.0.1:0 picks a free port)
  --upstream <url>           the remote MCP server's endpoint the requests go on to
  --allow-non-loopback       listen on an address other machines can reach (off: loopback only)
  --allowed-hosts <a,b>      host names a request's Host may name (default: localhost,127.0.0.1,[::1])
  --allowed-origins <a,b>    origins a browser's Origin may name (default: the loopback hosts, any port)

Without a URL and key the gateway still gates, and records nothing.`;

/**
 * Not handed to the server: Toolgate's own credentials (a third-party server never sees them), and
 * what npx sets when it runs the gateway from a package of another name (`npx -y -p @toolgate/sdk
 * toolgate mcp -- npx -y <server>`): passed on, the server's own npx would look for the server's
 * command in @toolgate/sdk. npm reads its settings from the environment whatever their case.
 */
const NOT_PASSED_ON = new Set(["TOOLGATE_API_KEY", "TOOLGATE_API_KEY_FILE", "TOOLGATE_URL", "NPM_CONFIG_PACKAGE", "NPM_CONFIG_CALL"]);

export interface McpCliIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Passes SIGTERM/SIGINT/SIGHUP on to the server and flushes in a hurry (the CLI; a client kills soon after). */
  signals?: boolean;
  /** Ends the HTTP gateway when it resolves (tests; the CLI ends on a signal). */
  stop?: Promise<void>;
}

type Parsed = {
  command: string[];
  /** The Streamable HTTP gateway: where it listens, the remote server's endpoint. */
  listen?: { host: string; port: number };
  upstream?: string;
  model?: ModelRef;
  runId?: string;
  enforce: Enforce;
  namespace?: string;
  url?: string;
  apiKey?: string;
  apiKeyFile?: string;
  allowedHosts?: string[];
  allowedOrigins?: string[];
};

class UsageError extends Error {}

export function parseMcpArgs(args: string[]): Parsed {
  const dash = args.indexOf("--");
  const own = dash === -1 ? args : args.slice(0, dash);
  const command = dash === -1 ? [] : args.slice(dash + 1);
  const parsed: Parsed = { command, enforce: "on" };
  let allowNonLoopback = false;
  if (own.includes("--help") || own.includes("-h")) throw new UsageError("toolgate mcp: an MCP gateway in front of a stdio server (docs/mcp.md).");
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    if (arg === "--no-namespace") {
      parsed.namespace = "";
      continue;
    }
    if (arg === "--allow-non-loopback") {
      allowNonLoopback = true;
      continue;
    }
    const match = /^--(model|run-id|enforce|namespace|url|api-key|api-key-file|listen|upstream|allowed-hosts|allowed-origins)(?:=(.*))?$/.exec(arg);
    if (!match) throw new UsageError(`Unknown argument "${arg}".${dash === -1 ? ' Put the server\'s command after "--".' : ""}`);
    const value = match[2] ?? own[++i];
    if (value === undefined || value === "") throw new UsageError(`--${match[1]} needs a value.`);
    switch (match[1]) {
      case "model": {
        const at = value.lastIndexOf("@");
        parsed.model = at > 0 ? { name: value.slice(0, at), version: value.slice(at + 1) } : { name: value };
        break;
      }
      case "run-id":
        parsed.runId = value;
        break;
      case "enforce":
        if (value !== "report" && value !== "off" && value !== "on" && value !== "strict")
          throw new UsageError(`--enforce takes strict, report or off, got "${value}".`);
        parsed.enforce = value;
        break;
      case "namespace":
        parsed.namespace = value;
        break;
      case "url":
        parsed.url = value;
        break;
      case "api-key":
        parsed.apiKey = value;
        break;
      case "api-key-file":
        parsed.apiKeyFile = value;
        break;
      case "allowed-hosts":
        parsed.allowedHosts = listOf(value, "allowed-hosts");
        break;
      case "allowed-origins":
        parsed.allowedOrigins = listOf(value, "allowed-origins");
        break;
      case "listen":
        parsed.listen = parseListen(value);
        break;
      case "upstream":
        parsed.upstream = parseUpstream(value);
        break;
    }
  }
  if (parsed.apiKey !== undefined && parsed.apiKeyFile !== undefined) throw new UsageError("Give --api-key or --api-key-file, not both.");
  if ((parsed.allowedHosts || parsed.allowedOrigins) && !parsed.listen)
    throw new UsageError("--allowed-hosts and --allowed-origins are for the HTTP gateway (--listen and --upstream).");
  if (parsed.listen || parsed.upstream) {
    if (!parsed.listen || !parsed.upstream)
      throw new UsageError("--listen and --upstream go together: where the gateway listens, and the server it forwards to.");
    if (command.length > 0) throw new UsageError('Give either a server command after "--" (stdio) or --listen and --upstream (HTTP), not both.');
    if (!isLoopback(parsed.listen.host) && !allowNonLoopback)
      throw new UsageError(
        `--listen ${parsed.listen.host} can be reached from other machines, and the gateway passes their requests to the server with no check of who sends them. Listen on 127.0.0.1 (or ::1), or add --allow-non-loopback if that is what you want.`,
      );
    return parsed;
  }
  if (command.length === 0)
    throw new UsageError('No server command given: write it after "--", e.g. toolgate mcp -- npx -y @modelcontextprotocol/server-memory');
  return parsed;
}

/** A comma-separated list of host names or origins, lower-cased. */
function listOf(value: string, option: string): string[] {
  const items = value
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
  if (items.length === 0) throw new UsageError(`--${option} takes a comma-separated list (localhost,gateway.internal), got "${value}".`);
  return items;
}

/**
 * The key from a file: refused when other users could read it (the point of a file over
 * `--api-key`, which every local user sees in the process list). Trailing whitespace is dropped.
 */
export function readApiKeyFile(path: string): string {
  let mode: number;
  let key: string;
  try {
    mode = statSync(path).mode;
    key = readFileSync(path, "utf8").trim();
  } catch (error) {
    throw new ApiKeyError(`Cannot read the API key file ${path}: ${error instanceof Error ? error.message : String(error)}.`);
  }
  if (process.platform !== "win32" && (mode & 0o077) !== 0)
    throw new ApiKeyError(`The API key file ${path} can be read by other users (mode ${(mode & 0o777).toString(8)}). Make it yours alone: chmod 600 ${path}.`);
  if (key === "") throw new ApiKeyError(`The API key file ${path} is empty. Paste the key from Settings → API keys into it.`);
  return key;
}

function parseListen(value: string): { host: string; port: number } {
  let url: URL | null = null;
  try {
    url = new URL(`http://${value}`);
  } catch {
    // said below
  }
  if (!url || url.port === "" || url.pathname !== "/" || url.username !== "")
    throw new UsageError(`--listen takes host:port (127.0.0.1:8808, [::1]:8808), got "${value}".`);
  return { host: url.hostname, port: Number(url.port) };
}

function parseUpstream(value: string): string {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // said below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new UsageError(`--upstream takes the server's MCP endpoint as an http(s) URL (https://example.com/mcp), got "${value}".`);
  return url.href;
}

/** Runs the gateway until the server exits; resolves with the server's exit code. */
export async function runMcp(args: string[], env: Record<string, string | undefined>, io: McpCliIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`[toolgate] ${line}\n`);
  let options: Parsed;
  try {
    options = parseMcpArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n\n${MCP_USAGE}\n`);
    return 2;
  }
  const url = options.url ?? env.TOOLGATE_URL;
  let lastError = "";
  let reporter: Reporter | null;
  try {
    const keyFile = options.apiKeyFile ?? (options.apiKey === undefined ? env.TOOLGATE_API_KEY_FILE : undefined);
    const apiKey = keyFile ? readApiKeyFile(keyFile) : (options.apiKey ?? env.TOOLGATE_API_KEY);
    if (options.apiKey !== undefined)
      say("--api-key puts the key in the command line, which every user of this machine can read (ps); use --api-key-file instead.");
    reporter =
      url && apiKey
        ? new Reporter({
            url,
            apiKey,
            exitFlushTimeoutMs: 0, // flushed below, when the server has exited
            flushIntervalMs: 250, // a session's calls are few: send them soon, a client may kill the gateway when it closes
            onError: (error) => {
              // one line per kind of trouble, not one per retry
              const line = `${error.kind}: ${error.message}`;
              if (line.split(";")[0] !== lastError) say(line);
              lastError = line.split(";")[0]!;
            },
          })
        : null;
  } catch (error) {
    // a key that cannot be sent: refused before the server starts, rather than gating calls it can never record
    if (!(error instanceof ApiKeyError)) throw error;
    say(error.message);
    return 2;
  }
  if (!reporter) say("TOOLGATE_URL or TOOLGATE_API_KEY is not set: gating calls, recording nothing.");
  const gatewayOptions = {
    log: say,
    reporter,
    enforce: options.enforce,
    ...(options.model ? { model: options.model } : {}),
    ...(options.runId ? { runId: options.runId } : {}),
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
  };
  if (options.listen && options.upstream)
    return runHttp(
      {
        ...gatewayOptions,
        ...options.listen,
        upstream: options.upstream,
        ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
        ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      },
      io,
    );

  const childEnv = Object.fromEntries(Object.entries(env).filter(([name]) => !NOT_PASSED_ON.has(name.toUpperCase()))) as NodeJS.ProcessEnv;
  const child = spawn(options.command[0]!, options.command.slice(1), {
    env: childEnv,
    stdio: ["pipe", "pipe", "pipe"],
    shell: process.platform === "win32", // npx is npx.cmd there
  });
  child.stderr.on("data", (chunk: Buffer) => io.stderr.write(chunk));

  const newline = Buffer.from("\n");
  const write = (stream: Writable) => (line: string | Uint8Array) => {
    stream.write(typeof line === "string" ? `${line}\n` : Buffer.concat([line, newline]));
  };
  const gateway = new McpGateway({
    toClient: write(io.stdout),
    toServer: (line) => {
      if (child.stdin.writable) write(child.stdin)(line);
    },
    ...gatewayOptions,
  });
  child.stdin.on("error", () => {}); // the server went away: its exit is reported below
  io.stdout.on("error", () => child.kill());

  const guard = (what: string, handle: (line: Uint8Array) => void) => (line: Uint8Array) => {
    try {
      handle(line);
    } catch (error) {
      say(`could not handle a message from the ${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  splitLines(
    child.stdout,
    guard("server", (line) => gateway.fromServer(line)),
  );
  splitLines(
    io.stdin,
    guard("client", (line) => gateway.fromClient(line)),
  );
  // closing stdin ends the server, as it would without the gateway (once the calls held for the tool list went on)
  io.stdin.on("end", () => void gateway.settled().then(() => child.stdin.end()));

  let flushMs = 5000;
  const onSignal = (signal: NodeJS.Signals) => {
    flushMs = 1500; // the SDK's client sends SIGKILL 2 s after SIGTERM
    child.kill(signal);
  };
  const signals = io.signals ? (["SIGTERM", "SIGINT", "SIGHUP"] as const) : [];
  for (const signal of signals) process.on(signal, onSignal);

  const exit = await new Promise<number>((resolve) => {
    child.on("error", (error) => {
      say(`cannot start "${options.command.join(" ")}": ${error.message}`);
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 + (signalNumber[signal] ?? 0) : 1)));
  });
  gateway.close();
  io.stdin.destroy(); // the client may keep its end open: nothing more is read
  if (reporter) {
    const stats = await reporter.shutdown({ timeoutMs: flushMs });
    if (stats.dropped > 0) say(`${stats.dropped} events could not be sent to Toolgate.`);
  }
  for (const signal of signals) process.off(signal, onSignal);
  return exit;
}

/** The Streamable HTTP gateway, until SIGTERM, SIGINT or SIGHUP (or `io.stop`); then the reporter is flushed. */
async function runHttp(options: Parameters<typeof startHttpGateway>[0], io: McpCliIo): Promise<number> {
  let gateway;
  try {
    gateway = await startHttpGateway(options);
  } catch (error) {
    options.log(`cannot listen on ${options.host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const upstream = new URL(options.upstream);
  options.log(`listening on ${gateway.url}, forwarding to ${upstream.origin}${upstream.pathname}`);
  const signals = io.signals ? (["SIGTERM", "SIGINT", "SIGHUP"] as const) : [];
  await new Promise<void>((resolve) => {
    for (const signal of signals) process.once(signal, () => resolve());
    void io.stop?.then(resolve);
  });
  await gateway.close();
  const stats = await options.reporter?.shutdown({ timeoutMs: 1500 });
  if (stats && stats.dropped > 0) options.log(`${stats.dropped} events could not be sent to Toolgate.`);
  return 0;
}

const signalNumber: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Calls `onLine` with each newline-terminated message's bytes (without "\n"); a last unterminated one at the end too. */
function splitLines(stream: Readable, onLine: (line: Uint8Array) => void): void {
  let pending: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      const line = pending.length ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      start = end + 1;
      if (line.length > 0) onLine(line);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  stream.on("end", () => {
    if (pending.length) onLine(Buffer.concat(pending));
    pending = [];
  });
}

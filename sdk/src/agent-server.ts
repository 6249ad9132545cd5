import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ApiKeyError, authorizationHeader } from "./api-key";
import { readApiKeyFile } from "./mcp-cli";

/**
 * `toolgate mcp-server`: Toolgate's own MCP server (the read API for coding agents) on stdio, for
 * clients that start their servers as commands. The tools live in the app (its /api/mcp endpoint,
 * Streamable HTTP); this process is the official SDK's stdio server transport joined to its
 * Streamable HTTP client transport, so both ways of reaching them answer the same. docs/agents.md.
 */

const USAGE = `Usage: toolgate mcp-server [options]

  --url <url>               Toolgate's address (default: TOOLGATE_URL)
  --api-key-file <path>     read the key (read scope) from a file only you can read (chmod 600);
                            default: TOOLGATE_API_KEY_FILE, else TOOLGATE_API_KEY
  --api-key <key>           the key itself: any local user can read it in the process list`;

export interface AgentServerIo {
  stdin: typeof process.stdin;
  stdout: typeof process.stdout;
  stderr: typeof process.stderr;
}

function parse(args: string[]): Record<string, string> {
  const options: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const match = /^--(url|api-key|api-key-file)(?:=(.*))?$/.exec(args[i]!);
    if (!match) throw new Error(`Unknown argument "${args[i]}".`);
    const value = match[2] ?? args[++i];
    if (value === undefined) throw new Error(`--${match[1]} needs a value.`);
    options[match[1]!] = value;
  }
  return options;
}

/** Serves until stdin ends; resolves with the exit code (2: usage or configuration). */
export async function runAgentServer(args: string[], env: Record<string, string | undefined>, io: AgentServerIo): Promise<number> {
  const say = (line: string) => io.stderr.write(`[toolgate] ${line}\n`);
  let endpoint: URL;
  let authorization: string;
  try {
    const options = parse(args);
    const url = options.url ?? env.TOOLGATE_URL;
    const keyFile = options["api-key-file"] ?? (options["api-key"] === undefined ? env.TOOLGATE_API_KEY_FILE : undefined);
    const apiKey = keyFile ? readApiKeyFile(keyFile) : (options["api-key"] ?? env.TOOLGATE_API_KEY);
    if (!url || !apiKey)
      throw new Error("Set TOOLGATE_URL and TOOLGATE_API_KEY (a key of the read scope: Settings → API keys), or pass --url and --api-key-file.");
    endpoint = new URL("api/mcp", url.endsWith("/") ? url : `${url}/`);
    authorization = authorizationHeader(apiKey);
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    io.stderr.write(`${error.message}\n\n${error instanceof ApiKeyError ? "" : `${USAGE}\n`}`);
    return 2;
  }

  const upstream = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { authorization } } });
  const local = new StdioServerTransport(io.stdin, io.stdout);
  const ended = new Promise<void>((resolve) => (local.onclose = resolve));
  upstream.onmessage = (message) => {
    // later requests carry the negotiated version in MCP-Protocol-Version, as the SDK's client does
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === "string") upstream.setProtocolVersion(version);
    void local.send(message);
  };
  upstream.onerror = (error) => say(error.message);
  local.onmessage = (message: JSONRPCMessage) => {
    upstream.send(message).catch((error: unknown) => {
      // a refusal (no or a wrong key, Toolgate down) answers the request it stopped, with the reason
      const text = error instanceof Error ? error.message : String(error);
      say(text);
      if ("id" in message && "method" in message)
        void local.send({ jsonrpc: "2.0", id: message.id, error: { code: -32001, message: `Toolgate at ${endpoint.origin}: ${text}` } });
    });
  };
  await upstream.start();
  await local.start();
  io.stdin.once("end", () => void local.close());
  await ended;
  await upstream.close();
  return 0;
}

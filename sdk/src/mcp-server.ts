import type { ToolgateEvent } from "./event";
import { McpGateway, type Enforce } from "./mcp";
import { Reporter, type ReporterOptions } from "./reporter";
import type { ModelRef } from "./event";

/** The part of an MCP SDK transport (`@modelcontextprotocol/sdk` Transport) the wrapper uses. */
export interface McpTransportLike {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: unknown, extra?: unknown) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  sessionId?: string;
}

/** An MCP SDK server (`McpServer` or the low-level `Server`): anything with `connect(transport)`. */
export interface McpServerLike {
  connect(transport: McpTransportLike): Promise<void>;
}

export interface WithToolgateOptions {
  /** Toolgate's address and an `ingest` key; without them the gate still works and nothing is reported. */
  url?: string;
  apiKey?: string;
  enforce?: Enforce;
  model?: ModelRef;
  /** How tools are named in Toolgate: `<namespace>/<tool>` (default: the server's name; "" for none). */
  namespace?: string;
  onEvent?: (event: ToolgateEvent) => void;
  reporter?: Omit<ReporterOptions, "url" | "apiKey">;
}

/**
 * Installs the gateway's gate and reporting inside a server written with the MCP TypeScript SDK:
 * every transport the server connects to is wrapped, so each `tools/call` is checked against the
 * schema the server lists before the server sees it, and recorded (one run per connection).
 * Returns the same server.
 */
export function withToolgate<S extends McpServerLike>(server: S, options: WithToolgateOptions = {}): S {
  const reporter = options.url && options.apiKey ? new Reporter({ ...options.reporter, url: options.url, apiKey: options.apiKey }) : null;
  const connect = server.connect.bind(server);
  server.connect = (transport: McpTransportLike) => connect(gated(transport, options, reporter));
  return server;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function gated(inner: McpTransportLike, options: WithToolgateOptions, reporter: Reporter | null): McpTransportLike {
  // what came with a message (auth info, related request ids), found again by the line's identity
  const extras = new WeakMap<object, unknown>();
  const outer: McpTransportLike = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message, sendOptions) => {
      const line = encoder.encode(JSON.stringify(message));
      extras.set(line, sendOptions);
      gateway.fromServer(line);
      return Promise.resolve();
    },
    get sessionId() {
      return inner.sessionId;
    },
  };
  const toMessage = (line: string | Uint8Array) => JSON.parse(typeof line === "string" ? line : decoder.decode(line)) as unknown;
  const gateway = new McpGateway({
    toClient: (line) =>
      void inner.send(toMessage(line), typeof line === "string" ? undefined : extras.get(line)).catch((error: Error) => outer.onerror?.(error)),
    toServer: (line) => outer.onmessage?.(toMessage(line), typeof line === "string" ? undefined : extras.get(line)),
    log: (message) => outer.onerror?.(new Error(`toolgate: ${message}`)),
    reporter,
    ...(options.enforce ? { enforce: options.enforce } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  inner.onmessage = (message, extra) => {
    const line = encoder.encode(JSON.stringify(message));
    extras.set(line, extra);
    gateway.fromClient(line);
  };
  inner.onclose = () => {
    gateway.close();
    outer.onclose?.();
  };
  inner.onerror = (error) => outer.onerror?.(error);
  return outer;
}

import { classifyCall, registryFrom, ToolSchemaError, type ToolRegistry, type Verdict } from "../../isomorphic/classify";
import { canonicalJson, checkSchemaCost, isPlainObject, schemaDraft, TOOL_NAME_MAX, truncate, type JsonObject } from "../../isomorphic/tool-schema";
import type { ModelRef, ToolgateEvent } from "./event";
import type { Reporter, ToolRegistration } from "./reporter";

/**
 * The MCP gateway's protocol logic, without I/O: it sees every newline-delimited JSON-RPC message
 * between an MCP client and a server, passes each one on byte for byte, and steps in only at
 * `tools/call` (the gate) and to read the server's `tools/list` (the schemas). docs/mcp.md.
 */

/** on: refuse invalid calls; report: forward everything, record the verdict; off: forward everything, record no verdict. */
export type Enforce = "on" | "report" | "off";

export interface GatewayOptions<Context = undefined> {
  /**
   * Writes one message (without its newline) to the client / to the server. `context` is what the
   * caller passed with the client message this one answers or forwards (the HTTP gateway's request);
   * undefined for the server's messages passed on and for the gateway's own requests.
   */
  toClient: (line: string | Uint8Array, context?: Context) => void;
  toServer: (line: string | Uint8Array, context?: Context) => void;
  /** Toolgate's own diagnostics (stderr, prefixed by the caller). */
  log: (message: string) => void;
  reporter: Reporter | null;
  enforce?: Enforce;
  /** The model behind the client; default: the client's `clientInfo` from `initialize`. */
  model?: ModelRef;
  /** Default: a random UUID per gateway (one MCP session). */
  runId?: string;
  /**
   * How the server's tools are named in Toolgate: `<namespace>/<tool>`. undefined: the server's
   * `serverInfo.name`; "": the tool's own name (one server per project).
   */
  namespace?: string;
  /** How long a `tools/call` may wait for the gateway's own `tools/list` to finish. Default 10,000 ms. */
  listTimeoutMs?: number;
  /** Called with every event as it is recorded (tests, logging). */
  onEvent?: (event: ToolgateEvent) => void;
}

type Id = string | number;
type Message = { jsonrpc?: string; id?: Id | null; method?: string; params?: unknown; result?: unknown; error?: unknown };
type Tool = { name: string; description?: string; inputSchema: JsonObject };
type PendingCall = { event: ToolgateEvent; started: number };

/** At most this many `tools/list` pages per listing: a server that keeps handing out cursors cannot loop the gateway. */
const MAX_LIST_PAGES = 1000;
const SUMMARY_CHARS = 500;

export class McpGateway<Context = undefined> {
  /** Settable until the first call: the HTTP gateway learns the session id from the server's answer to `initialize`. */
  runId: string;
  private readonly options: GatewayOptions<Context>;
  private readonly enforce: Enforce;
  private serverInfo: { name: string; version?: string } | null = null;
  private clientInfo: { name: string; version?: string } | null = null;
  private initializeId: string | null = null;
  private serverHasTools = false;
  private clientInitialized = false;
  private firstListed = false;
  /** The server's tools by their own names, from the gateway's last complete listing. */
  private tools = new Map<string, Tool>();
  private registry: ToolRegistry = registryFrom([]);
  private listing: { promise: Promise<void>; resolve: () => void } | null = null;
  private listed = false;
  private readonly ownRequests = new Map<string, (message: Message) => void>();
  private readonly ownPrefix = `toolgate-${crypto.randomUUID()}-`;
  private ownCounter = 0;
  /** Client messages held back, in order, while a `tools/call` waits for the tool list. */
  private held: { line: Uint8Array; context: Context | undefined }[] | null = null;
  private readonly calls = new Map<string, PendingCall>();
  private step = 0;
  /** tool → the refused call not yet followed by another call of the tool. */
  private readonly uncorrected = new Map<string, string>();
  private lastUnknown: string | undefined;

  constructor(options: GatewayOptions<Context>) {
    this.options = options;
    this.enforce = options.enforce ?? "on";
    this.runId = options.runId ?? crypto.randomUUID();
  }

  /** One message from the client (its bytes, without the newline). */
  fromClient(line: Uint8Array, context?: Context): void {
    if (this.held) {
      this.held.push({ line, context });
      return;
    }
    this.handleClient(line, context);
  }

  /** One message from the server (its bytes, without the newline). */
  fromServer(line: Uint8Array): void {
    const message = parse(line);
    if (message === undefined) return this.options.toClient(line); // not JSON: the client decides what to make of it
    if (Array.isArray(message)) {
      for (const part of message) this.inspectServer(part as Message);
      return this.options.toClient(line);
    }
    if (typeof message.id === "string" && this.ownRequests.has(message.id) && message.method === undefined) {
      const resolve = this.ownRequests.get(message.id)!;
      this.ownRequests.delete(message.id);
      return resolve(message); // the answer to the gateway's own request: the client never asked
    }
    this.inspectServer(message);
    this.options.toClient(line);
  }

  /** Resolves once no client message is held back for the tool list (the caller then may close the server's stdin). */
  async settled(): Promise<void> {
    const until = Date.now() + (this.options.listTimeoutMs ?? 10_000);
    while ((this.held || (this.listing && !this.listed)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /** The session ended: calls still waiting for an answer are recorded without one. */
  close(): void {
    for (const [key, pending] of this.calls) {
      this.calls.delete(key);
      pending.event.result = { status: "error", summary: "The MCP session ended before the server answered." };
      this.record(pending.event);
    }
    this.listing?.resolve();
  }

  // -------------------------------------------------------------------------------------------

  private handleClient(line: Uint8Array, context: Context | undefined): void {
    const message = parse(line);
    if (message === undefined) return this.options.toServer(line, context);
    if (Array.isArray(message)) return this.handleBatch(line, message as Message[], context);
    if (message.method === "tools/call" && message.id !== undefined && message.id !== null) {
      if (!this.listed && this.listing) return this.waitForList(line, message, context);
      const answer = this.gateOrRefuse(message);
      if (answer) return this.options.toClient(JSON.stringify(answer), context);
      return this.options.toServer(line, context);
    }
    this.inspectClient(message);
    this.options.toServer(line, context);
  }

  /** A JSON-RPC batch (protocol 2025-03-26): refused calls are answered at once, the rest goes on as one batch. */
  private handleBatch(line: Uint8Array, messages: Message[], context: Context | undefined): void {
    const forwarded: Message[] = [];
    for (const message of messages) {
      if (!isPlainObject(message)) {
        forwarded.push(message);
        continue;
      }
      const answer = message.method === "tools/call" && message.id != null ? this.gateOrRefuse(message) : null;
      if (answer) this.options.toClient(JSON.stringify(answer), context);
      else {
        if (message.method !== "tools/call") this.inspectClient(message);
        forwarded.push(message);
      }
    }
    if (forwarded.length === messages.length) this.options.toServer(line, context);
    else if (forwarded.length > 0) this.options.toServer(JSON.stringify(forwarded), context);
  }

  private waitForList(line: Uint8Array, message: Message, context: Context | undefined): void {
    this.held = [];
    const timeoutMs = this.options.listTimeoutMs ?? 10_000;
    const timer = setTimeout(() => {
      this.options.log(`the server did not list its tools within ${timeoutMs} ms; checking tools/call against what is known`);
      this.listing?.resolve();
    }, timeoutMs);
    void this.listing!.promise.then(() => {
      clearTimeout(timer);
      const held = this.held ?? [];
      this.held = null;
      const answer = this.gateOrRefuse(message);
      if (answer) this.options.toClient(JSON.stringify(answer), context);
      else this.options.toServer(line, context);
      for (const next of held) this.fromClient(next.line, next.context);
    });
  }

  private inspectClient(message: Message): void {
    if (message.method === "initialize" && message.id != null && isPlainObject(message.params)) {
      this.initializeId = keyOf(message.id);
      this.clientInfo = infoOf(message.params.clientInfo);
      this.startListing(); // calls wait for the first listing from now on
    } else if (message.method === "notifications/initialized") {
      this.clientInitialized = true;
      // sent after this notification has gone to the server (the caller writes it right after)
      queueMicrotask(() => this.firstListing());
    }
  }

  private inspectServer(message: Message): void {
    if (message.method === "notifications/tools/list_changed") {
      if (this.firstListed) this.listTools();
      return;
    }
    if (message.id == null || message.method !== undefined) return;
    const key = keyOf(message.id);
    if (key === this.initializeId) {
      this.initializeId = null;
      const result = isPlainObject(message.result) ? message.result : {};
      this.serverInfo = infoOf(result.serverInfo) ?? { name: "mcp-server" };
      this.serverHasTools = isPlainObject(result.capabilities) && result.capabilities.tools !== undefined;
      if (!this.serverHasTools) this.finishListing(this.listing, null);
      else this.firstListing();
      return;
    }
    const pending = this.calls.get(key);
    if (pending) {
      this.calls.delete(key);
      const latencyMs = Math.max(0, Math.round(performance.now() - pending.started));
      pending.event.result = resultOf(message, latencyMs);
      this.record(pending.event);
    }
  }

  // --- the gate ------------------------------------------------------------------------------

  /** `gate`, answering an error of its own (the call not forwarded) rather than leave the client waiting for an answer. */
  private gateOrRefuse(message: Message): Message | null {
    try {
      return this.gate(message);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.options.log(`could not check a tools/call: ${why}`);
      return {
        jsonrpc: "2.0",
        id: message.id!,
        error: { code: -32603, message: `Toolgate could not check this call (${why}), so it was not sent to the server.` },
      };
    }
  }

  /** The answer for a refused call (it is not forwarded), or null: forward it (and remember it for its result). */
  private gate(message: Message): Message | null {
    const params = isPlainObject(message.params) ? message.params : {};
    const name = typeof params.name === "string" ? params.name : "";
    const args = params.arguments === undefined ? {} : params.arguments;
    // the server has tools but refused or failed every tools/list so far (an HTTP 401/403 for the gateway's own): the call goes on unchecked, and the server answers it
    const verdict = this.enforce === "off" || (this.serverHasTools && !this.listed) ? null : this.verdictFor(name, args);
    const event = this.eventFor(name, args, verdict);
    const refuse = this.enforce === "on" && verdict !== null && !verdict.valid;
    if (!refuse) {
      this.calls.set(keyOf(message.id!), { event, started: performance.now() });
      return null;
    }
    const text = verdict.message ?? `Error: the call to '${name}' does not match its schema.`;
    event.result = { status: verdict.category === "unknown_tool" ? "not_found" : "error", summary: truncate(text, SUMMARY_CHARS), latencyMs: 0 };
    this.record(event);
    // Unknown tools are a protocol error in the MCP spec; arguments that do not fit are a tool execution error (SEP-1303).
    if (verdict.category === "unknown_tool") return { jsonrpc: "2.0", id: message.id!, error: { code: -32602, message: text } };
    return { jsonrpc: "2.0", id: message.id!, result: { content: [{ type: "text", text }], isError: true } };
  }

  private verdictFor(name: string, args: unknown): Verdict {
    try {
      return classifyCall({ tool: name, arguments: args, registry: this.registry });
    } catch (error) {
      if (!(error instanceof ToolSchemaError)) throw error;
      // fail closed: a schema the gateway cannot check (too large, a pattern RE2 cannot run…) passes nothing unchecked
      return {
        valid: false,
        category: "wrong_type",
        message: `Error: Toolgate cannot check calls of '${name}' because the server's schema for it ${error.message.replace(/^the schema of \S+ /, "")}. The call was not sent to the server.`,
        violations: [],
      };
    }
  }

  private eventFor(name: string, args: unknown, verdict: Verdict | null): ToolgateEvent {
    const tool = this.toolgateName(name);
    const event: ToolgateEvent = {
      id: crypto.randomUUID(),
      runId: this.runId,
      step: this.step++,
      timestamp: new Date().toISOString(),
      model: this.model(),
      tool,
      arguments: isPlainObject(args) ? args : typeof args === "string" ? args : (JSON.stringify(args) ?? ""),
      ...(verdict
        ? {
            outcome: verdict.valid
              ? { valid: true }
              : { valid: false, ...(verdict.category ? { category: verdict.category } : {}), message: verdict.message ?? "" },
          }
        : {}),
      metadata: this.metadata(),
    };
    // the same links as the SDK's Run: a call corrects the refused call of its tool before it, or the unknown tool just before it
    const corrects = this.uncorrected.get(tool) ?? (this.tools.has(name) ? this.lastUnknown : undefined);
    if (corrects !== undefined) event.correctsId = corrects;
    this.uncorrected.delete(tool);
    if (corrects === this.lastUnknown) this.lastUnknown = undefined;
    if (verdict && !verdict.valid) {
      if (verdict.category === "unknown_tool") this.lastUnknown = event.id;
      else this.uncorrected.set(tool, event.id);
    }
    return event;
  }

  private model(): ModelRef {
    if (this.options.model) return this.options.model;
    const client = this.clientInfo;
    return client ? { name: client.name, ...(client.version ? { version: client.version } : {}) } : { name: "unknown-mcp-client" };
  }

  private metadata(): Record<string, string> {
    const metadata: Record<string, string> = { gateway: "toolgate-mcp", enforce: this.enforce };
    if (this.serverInfo) {
      metadata.mcp_server = this.serverInfo.name;
      if (this.serverInfo.version) metadata.mcp_server_version = this.serverInfo.version;
    }
    if (this.clientInfo) {
      metadata.mcp_client = this.clientInfo.name;
      if (this.clientInfo.version) metadata.mcp_client_version = this.clientInfo.version;
    }
    metadata.model_from = this.options.model ? "--model" : "mcp clientInfo";
    return metadata;
  }

  /** The tool's name in Toolgate (see GatewayOptions.namespace). */
  toolgateName(name: string): string {
    const namespace = this.options.namespace ?? this.serverInfo?.name ?? "";
    return namespace ? `${namespace}/${name}` : name;
  }

  private record(event: ToolgateEvent): void {
    this.options.onEvent?.(event);
    this.options.reporter?.record(event);
  }

  // --- the server's tools --------------------------------------------------------------------

  private startListing(): void {
    if (this.listing) return;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.listing = { promise, resolve };
  }

  /** The first listing starts once the server said it has tools and the client said it is initialized. */
  private firstListing(): void {
    if (this.firstListed || !this.serverHasTools || !this.clientInitialized) return;
    this.firstListed = true;
    this.listTools();
  }

  /** Reads every page of `tools/list` with the gateway's own request ids, then swaps in the new registry. */
  private listTools(): void {
    if (!this.serverHasTools) return;
    this.startListing();
    const listing = this.listing!;
    const tools = new Map<string, Tool>();
    let pages = 0;
    const page = (cursor?: string) => {
      const id = `${this.ownPrefix}${++this.ownCounter}`;
      this.ownRequests.set(id, (answer) => {
        const result = isPlainObject(answer.result) ? answer.result : null;
        if (!result) {
          this.options.log(`tools/list failed: ${truncate(JSON.stringify(answer.error ?? answer), 300)}`);
          return this.finishListing(listing, null);
        }
        for (const tool of Array.isArray(result.tools) ? result.tools : []) {
          if (isPlainObject(tool) && typeof tool.name === "string" && isPlainObject(tool.inputSchema))
            tools.set(tool.name, {
              name: tool.name,
              ...(typeof tool.description === "string" ? { description: tool.description } : {}),
              inputSchema: tool.inputSchema,
            });
        }
        if (typeof result.nextCursor === "string" && result.nextCursor !== "" && ++pages < MAX_LIST_PAGES) page(result.nextCursor);
        else this.finishListing(listing, tools);
      });

      this.options.toServer(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", ...(cursor === undefined ? {} : { params: { cursor } }) }));
    };
    page();
  }

  private finishListing(listing: McpGateway<Context>["listing"], tools: Map<string, Tool> | null): void {
    if (!listing) return;
    if (tools) {
      this.tools = tools;
      this.registry = registryFrom(
        [...tools.values()].map((tool) => ({ name: tool.name, version: `mcp:${canonicalJson(tool.inputSchema)}`, parameters: tool.inputSchema })),
      );
      this.listed = true;
      void this.register([...tools.values()]);
    }
    if (this.listing === listing) this.listing = null;
    listing.resolve();
  }

  /** Registers the schemas Toolgate can take (a schema over its limits is left out and said so); in the background. */
  private async register(tools: Tool[]): Promise<void> {
    const reporter = this.options.reporter;
    if (!reporter || !this.serverInfo) return;
    const source = `mcp:${this.serverInfo.name}`;
    const registrations: ToolRegistration[] = [];
    for (const tool of tools) {
      // the cheap part of what tools.register checks: one schema it refuses would take the other tools of its request with it
      const name = this.toolgateName(tool.name);
      const cost = checkSchemaCost(tool.inputSchema);
      const problem = !cost.ok
        ? cost.message
        : !schemaDraft(tool.inputSchema)
          ? `its $schema ${truncate(String(tool.inputSchema.$schema))} is not draft 2020-12 or draft-07`
          : name.length > TOOL_NAME_MAX
            ? `'${truncate(name)}' is longer than ${TOOL_NAME_MAX} characters (use a shorter --namespace)`
            : null;
      if (problem) {
        this.options.log(`not registering the schema of '${tool.name}': ${problem}`);
        continue;
      }
      registrations.push({
        name,
        ...(tool.description === undefined ? {} : { description: truncate(tool.description, 4000) }),
        parameters: tool.inputSchema,
        source,
      });
    }
    reporter.registerTools(registrations);
  }
}

function parse(line: Uint8Array): Message | unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(typeof line === "string" ? line : decoder.decode(line));
    return Array.isArray(value) ? value : isPlainObject(value) ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}

const decoder = new TextDecoder();

const keyOf = (id: Id): string => `${typeof id}:${String(id)}`;

function infoOf(value: unknown): { name: string; version?: string } | null {
  if (!isPlainObject(value) || typeof value.name !== "string" || value.name === "") return null;
  return { name: truncate(value.name, 200), ...(typeof value.version === "string" ? { version: truncate(value.version, 100) } : {}) };
}

/** A `tools/call` answer as the call's result: a JSON-RPC error, or the CallToolResult's isError and first content. */
function resultOf(message: Message, latencyMs: number): NonNullable<ToolgateEvent["result"]> {
  if (isPlainObject(message.error)) {
    return { status: "error", latencyMs, summary: truncate(String(message.error.message ?? JSON.stringify(message.error)), SUMMARY_CHARS) };
  }
  const result = isPlainObject(message.result) ? message.result : {};
  const first = Array.isArray(result.content) ? result.content[0] : undefined;
  const summary = isPlainObject(first)
    ? typeof first.text === "string"
      ? first.text
      : `[${String(first.type ?? "content")}]`
    : result.structuredContent !== undefined
      ? (JSON.stringify(result.structuredContent) ?? "")
      : "";
  return { status: result.isError === true ? "error" : "ok", latencyMs, ...(summary ? { summary: truncate(summary, SUMMARY_CHARS) } : {}) };
}

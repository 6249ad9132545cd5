import { MAX_TOOL_SET } from "../../contracts/request-limits";
import { classifyCall, registryFrom, ToolSchemaError, type ToolRegistry, type Verdict } from "../../isomorphic/classify";
import { failureStatus } from "../../isomorphic/outcome";
import {
  canonicalJson,
  checkSchemaCost,
  isPlainObject,
  schemaDraft,
  SUPPORTED_DRAFTS_TEXT,
  TOOL_NAME_MAX,
  truncate,
  type JsonObject,
} from "../../isomorphic/tool-schema";
import type { ModelRef, ToolgateEvent } from "./event";
import type { Reporter, ToolRegistration } from "./reporter";

/**
 * The MCP gateway's protocol logic, without I/O: it sees every newline-delimited JSON-RPC message
 * between an MCP client and a server, passes each one on byte for byte, and steps in only at
 * `tools/call` (the gate) and to read the server's `tools/list` (the schemas). docs/mcp.md.
 */

/**
 * on: refuse invalid calls, forward a call the gateway cannot check (recorded unchecked, with the reason);
 * strict: refuse invalid calls and those it cannot check; report: forward everything, record the verdict;
 * off: forward everything, record no verdict.
 */
export type Enforce = "on" | "strict" | "report" | "off";

/** The `_meta` keys of protocol 2026-07-28: every request carries its version, capabilities and client (SEP-2575). */
const PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

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
  /** The model behind the client; default: the client's `clientInfo` (from `initialize`, or from each request's `_meta`). */
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
type PendingCall = { event: ToolgateEvent; started: number; name: string; args: unknown };
/** What the gate decided about a call: a verdict, none (--enforce off), or why it could not check it. */
type Check = { verdict: Verdict | null; unchecked?: string };

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
  /** The client's requests whose answers the gateway reads: initialize, server/discover, tools/list (by id). */
  private readonly watched = new Map<string, (message: Message) => void>();
  private serverHasTools = false;
  /** The protocol version: from `initialize`'s answer, or (2026-07-28 on) from each request's `_meta`. */
  private protocolVersion: string | null = null;
  /** 2026-07-28 on: the last request's `_meta` envelope, which the gateway's own requests carry (the server refuses them without). */
  private envelope: JsonObject | null = null;
  private clientInitialized = false;
  private firstListed = false;
  /** The server's tools by their own names, from the gateway's last complete listing. */
  private tools = new Map<string, Tool>();
  private registry: ToolRegistry = registryFrom([]);
  private listing: { promise: Promise<void>; resolve: () => void } | null = null;
  private listed = false;
  /** When the tool list was last read, how long the server said it stays fresh (`ttlMs`, 2026-07-28), why it could not be read. */
  private listedAt = 0;
  private ttlMs = 0;
  private listStartedAt = 0;
  private listProblem = "the server's tool list has not been read";
  /** The client's own `tools/list` pages, from the first page on, until the last one is answered. */
  private clientPages: Map<string, Tool> | null = null;
  /** Tools whose calls are forwarded unchecked, said once each on stderr. */
  private readonly saidUnchecked = new Set<string>();
  /** Calls answered with `input_required` (2026-07-28 multi round-trip), waiting for the client's retry: one event per call. */
  private readonly awaitingInput = new Map<string, ToolgateEvent>();
  private readonly ownRequests = new Map<string, (message: Message) => void>();
  private readonly ownPrefix = `toolgate-${crypto.randomUUID()}-`;
  private ownCounter = 0;
  /** Client messages held back, in order, while a `tools/call` waits for the tool list. */
  private held: { line: Uint8Array; context: Context | undefined }[] | null = null;
  private readonly calls = new Map<string, PendingCall>();
  private step = 0;
  /** A new tool list the run's events have not named yet (`toolSet`). */
  private toolSetDue = false;
  /** tool → the refused call not yet followed by another call of the tool. */
  private readonly uncorrected = new Map<string, string>();
  private lastUnknown: string | undefined;

  constructor(options: GatewayOptions<Context>) {
    this.options = options;
    this.enforce = options.enforce ?? "on";
    this.runId = options.runId ?? crypto.randomUUID();
  }

  /** The session speaks protocol 2026-07-28 or later: no handshake, the envelope in each request's `_meta`. */
  get modern(): boolean {
    return this.envelope !== null;
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
      this.readServerMeta(message);
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
    this.readClientMeta(message);
    if (message.method === "tools/call" && message.id !== undefined && message.id !== null) {
      // a listing under way (the first, or one after list_changed) decides the call: the old list may be what changed
      if (this.listing) return this.waitForList(line, message, context);
      if (this.needsList(message)) {
        this.listTools();
        return this.waitForList(line, message, context);
      }
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
      this.readClientMeta(message);
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
      if (!this.listed) this.listProblem = `the server did not answer tools/list within ${timeoutMs} ms`;
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
    const params = isPlainObject(message.params) ? message.params : {};
    if (message.method === "initialize" && message.id != null && isPlainObject(message.params)) {
      this.watched.set(keyOf(message.id), (answer) => this.initialized(answer));
      this.clientInfo = infoOf(message.params.clientInfo);
      this.startListing(); // calls wait for the first listing from now on
    } else if (message.method === "server/discover" && message.id != null) {
      this.watched.set(keyOf(message.id), (answer) => this.discovered(answer));
    } else if (message.method === "tools/list" && message.id != null) {
      // the client's own listing is read too: at 2026-07-28 it is often the only one (no handshake, no list_changed unless subscribed)
      const cursor = typeof params.cursor === "string" ? params.cursor : null;
      this.watched.set(keyOf(message.id), (answer) => this.clientListed(cursor, answer));
    } else if (message.method === "notifications/cancelled") {
      this.cancelled(params);
    } else if (message.method === "notifications/initialized") {
      this.clientInitialized = true;
      // sent after this notification has gone to the server (the caller writes it right after)
      queueMicrotask(() => this.firstListing());
    }
  }

  /**
   * The client gave up on a call (`notifications/cancelled`): the server will not answer it. A
   * client whose request timed out says so in the reason (the MCP SDKs send "Request timed out"):
   * that call timed out; any other cancelled call is recorded without a result.
   */
  private cancelled(params: JsonObject): void {
    const id = params.requestId;
    if (typeof id !== "string" && typeof id !== "number") return;
    const pending = this.calls.get(keyOf(id));
    if (!pending) return;
    this.calls.delete(keyOf(id));
    const reason = typeof params.reason === "string" ? params.reason : "";
    const latencyMs = Math.max(0, Math.round(performance.now() - pending.started));
    if (failureStatus(reason) === "timeout") pending.event.result = { status: "timeout", latencyMs, summary: truncate(reason, SUMMARY_CHARS) };
    this.record(pending.event);
  }

  private inspectServer(message: Message): void {
    if (message.method === "notifications/tools/list_changed") {
      // 2026-07-28: only on a subscriptions/listen stream the client opened with toolsListChanged
      if (this.firstListed || (this.modern && this.listed)) this.listTools();
      return;
    }
    if (message.id == null || message.method !== undefined) return;
    this.readServerMeta(message);
    const key = keyOf(message.id);
    const watcher = this.watched.get(key);
    if (watcher) {
      this.watched.delete(key);
      return watcher(message);
    }
    const pending = this.calls.get(key);
    if (pending) {
      this.calls.delete(key);
      const result = isPlainObject(message.result) ? message.result : null;
      if (result?.resultType === "input_required") {
        // 2026-07-28 multi round-trip: the call is not done; the client retries it with the input asked for
        const key = callKey(pending.name, pending.args);
        if (key !== null) this.awaitingInput.set(key, pending.event);
        return;
      }
      const latencyMs = Math.max(0, Math.round(performance.now() - pending.started));
      pending.event.result = resultOf(message, latencyMs);
      this.record(pending.event);
    }
  }

  private initialized(answer: Message): void {
    if (!isPlainObject(answer.result)) {
      // refused (a 2026-07-28 server the client's slow server/discover already settled answers -32022): the client tries again
      if (!this.listed) this.listProblem = `the server refused initialize: ${truncate(JSON.stringify(answer.error ?? answer), 300)}`;
      return this.finishListing(this.listing, null);
    }
    const result = answer.result;
    this.serverInfo = infoOf(result.serverInfo) ?? { name: "mcp-server" };
    if (typeof result.protocolVersion === "string") this.protocolVersion = truncate(result.protocolVersion, 50);
    this.serverHasTools = isPlainObject(result.capabilities) && result.capabilities.tools !== undefined;
    if (!this.serverHasTools) {
      this.listProblem = "the server declared no tools capability";
      this.finishListing(this.listing, null);
    } else this.firstListing();
  }

  /** The answer to the client's `server/discover` (2026-07-28): the server's identity and capabilities. */
  private discovered(answer: Message): void {
    const result = isPlainObject(answer.result) ? answer.result : null;
    if (!result) return;
    if (isPlainObject(result.capabilities) && result.capabilities.tools !== undefined) this.serverHasTools = true;
  }

  /** A page of the client's own `tools/list`: a complete listing (first page to last) becomes the gate's tool list. */
  private clientListed(cursor: string | null, answer: Message): void {
    const result = isPlainObject(answer.result) ? answer.result : null;
    const pages = cursor === null ? new Map<string, Tool>() : this.clientPages;
    if (!result || !pages) {
      this.clientPages = null; // an error, or a page whose first page the gateway did not see
      return;
    }
    addTools(pages, result.tools);
    if (typeof result.nextCursor === "string" && result.nextCursor !== "") this.clientPages = pages;
    else {
      this.clientPages = null;
      this.useTools(pages, result);
    }
  }

  /** 2026-07-28: the protocol version and the client from the request's `_meta` (they may change from one request to the next). */
  private readClientMeta(message: Message): void {
    if (message.method === undefined || !isPlainObject(message.params) || !isPlainObject(message.params._meta)) return;
    const meta = message.params._meta;
    if (typeof meta[PROTOCOL_VERSION] !== "string") return;
    this.protocolVersion = truncate(meta[PROTOCOL_VERSION], 50);
    this.envelope = {
      [PROTOCOL_VERSION]: meta[PROTOCOL_VERSION],
      [CLIENT_CAPABILITIES]: isPlainObject(meta[CLIENT_CAPABILITIES]) ? meta[CLIENT_CAPABILITIES] : {},
      ...(isPlainObject(meta[CLIENT_INFO]) ? { [CLIENT_INFO]: meta[CLIENT_INFO] } : {}),
    };
    const client = infoOf(meta[CLIENT_INFO]);
    if (client) this.clientInfo = client;
  }

  /** 2026-07-28: the server names itself in each result's `_meta`; the first name seen is the namespace's. */
  private readServerMeta(message: Message): void {
    if (this.serverInfo || !isPlainObject(message.result) || !isPlainObject(message.result._meta)) return;
    this.serverInfo = infoOf(message.result._meta[SERVER_INFO]);
  }

  /**
   * 2026-07-28: no handshake tells the gateway when to list the tools, so a call waits for a listing when
   * none was read yet, or when it names a tool the list lacks and the list is older than its `ttlMs`.
   */
  private needsList(message: Message): boolean {
    if (!this.modern || this.listing) return false;
    // a server that failed to list its tools is asked again at most every 5 s, not before every call
    if (!this.listed) return Date.now() - this.listStartedAt >= 5000;
    const name = isPlainObject(message.params) ? message.params.name : undefined;
    return typeof name === "string" && !this.tools.has(name) && Date.now() - this.listedAt >= this.ttlMs;
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
    const retry = params.inputResponses !== undefined || params.requestState !== undefined ? callKey(name, args) : null;
    const retried = retry === null ? undefined : this.awaitingInput.get(retry);
    if (retried) {
      // the retry of a call answered input_required: the same call (one event), its arguments checked when it was first sent
      this.awaitingInput.delete(retry!);
      this.calls.set(keyOf(message.id!), { event: retried, started: performance.now(), name, args });
      return null;
    }
    const check: Check = this.enforce === "off" ? { verdict: null } : this.check(name, args);
    if (check.unchecked !== undefined && this.enforce === "strict") {
      const refusal: Verdict = {
        valid: false,
        category: "wrong_type",
        message: `Error: Toolgate cannot check calls of '${name}': ${check.unchecked}. The call was not sent to the server (--enforce strict).`,
        violations: [],
      };
      return this.refuse(message, name, this.eventFor(name, args, refusal), refusal);
    }
    const event = this.eventFor(name, args, check.verdict);
    if (check.unchecked !== undefined) {
      // fail open, loudly: the user's tool keeps working, the event says it was not checked and why
      event.metadata = { ...event.metadata, unchecked: truncate(check.unchecked, SUMMARY_CHARS) };
      if (!this.saidUnchecked.has(name)) this.options.log(`forwarding calls of '${truncate(name)}' unchecked: ${check.unchecked}`);
      this.saidUnchecked.add(name);
    }
    const verdict = check.verdict;
    const refuse = (this.enforce === "on" || this.enforce === "strict") && verdict !== null && !verdict.valid;
    if (!refuse) {
      this.calls.set(keyOf(message.id!), { event, started: performance.now(), name, args });
      return null;
    }
    return this.refuse(message, name, event, verdict);
  }

  /**
   * The gateway's own answer to a refused call, as a tool execution error (`isError: true`) — for an unknown
   * tool too, although the spec calls that a protocol error: clients hand tool results to the model and may
   * keep protocol errors from it (the Python SDK raises them), and the model must read which tools exist.
   * docs/mcp.md. A request whose tool name is not a string at all is a malformed request: a JSON-RPC error.
   * The event has no result: the call never ran (as the SDKs' dispatchers record it); its verdict carries the message.
   */
  private refuse(message: Message, name: string, event: ToolgateEvent, verdict: Verdict): Message {
    const text = verdict.message ?? `Error: the call to '${name}' does not match its schema.`;
    this.record(event);
    const params = isPlainObject(message.params) ? message.params : {};
    if (typeof params.name !== "string") return { jsonrpc: "2.0", id: message.id!, error: { code: -32602, message: text } };
    return {
      jsonrpc: "2.0",
      id: message.id!,
      result: { ...(this.modern ? { resultType: "complete" } : {}), content: [{ type: "text", text }], isError: true },
    };
  }

  /** The verdict, or why the gateway cannot give one: it has no tool list, or cannot use the tool's schema. */
  private check(name: string, args: unknown): Check {
    if (!this.listed) return { verdict: null, unchecked: this.listProblem };
    try {
      return { verdict: classifyCall({ tool: name, arguments: args, registry: this.registry }) };
    } catch (error) {
      // the server's schema is the cause: fail open. Anything else may come from the arguments, which the client
      // controls: gateOrRefuse refuses the call, so that no arguments can be made to pass the gate unchecked.
      if (!(error instanceof ToolSchemaError)) throw error;
      return { verdict: null, unchecked: `the server's schema for it ${error.message.replace(/^the schema of \S+ /, "")}` };
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
    // the tools the client is offered (the server's list, by their names in Toolgate), with the run's first event
    // after each new list: Toolgate counts the run's context cost with them (a later set replaces an earlier one)
    if (this.toolSetDue) {
      event.toolSet = [...this.tools.keys()].slice(0, MAX_TOOL_SET).map((tool) => this.toolgateName(tool));
      this.toolSetDue = false;
    }
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
    if (this.protocolVersion) metadata.mcp_protocol_version = this.protocolVersion;
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
    if (!this.serverHasTools && !this.modern) return;
    this.listStartedAt = Date.now();
    this.startListing();
    const listing = this.listing!;
    const tools = new Map<string, Tool>();
    let pages = 0;
    const page = (cursor?: string) => {
      const id = `${this.ownPrefix}${++this.ownCounter}`;
      this.ownRequests.set(id, (answer) => {
        const result = isPlainObject(answer.result) ? answer.result : null;
        if (!result) {
          const why = truncate(JSON.stringify(answer.error ?? answer), 300);
          this.options.log(`tools/list failed: ${why}`);
          if (!this.listed) this.listProblem = `the server answered tools/list with an error: ${why}`;
          return this.finishListing(listing, null);
        }
        addTools(tools, result.tools);
        if (typeof result.nextCursor === "string" && result.nextCursor !== "" && ++pages < MAX_LIST_PAGES) page(result.nextCursor);
        else this.finishListing(listing, tools, result);
      });
      // 2026-07-28: a request without the envelope is refused, so the gateway's own carries the client's last one
      const params = { ...(cursor === undefined ? {} : { cursor }), ...(this.envelope ? { _meta: this.envelope } : {}) };
      this.options.toServer(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", ...(Object.keys(params).length > 0 ? { params } : {}) }));
    };
    page();
  }

  private finishListing(listing: McpGateway<Context>["listing"], tools: Map<string, Tool> | null, last?: JsonObject): void {
    if (!listing) return;
    if (tools) this.useTools(tools, last);
    if (this.listing === listing) this.listing = null;
    listing.resolve();
  }

  /** A complete tool list (the gateway's or the client's) becomes the one calls are checked against; `last`: its last page. */
  private useTools(tools: Map<string, Tool>, last?: JsonObject): void {
    const changed = !this.listed || !sameTools(this.tools, tools);
    this.tools = tools;
    this.listed = true;
    this.listedAt = Date.now();
    this.ttlMs = typeof last?.ttlMs === "number" && last.ttlMs >= 0 ? last.ttlMs : 0;
    if (!changed) return;
    this.toolSetDue = true;
    this.registry = registryFrom(
      [...tools.values()].map((tool) => ({ name: tool.name, version: `mcp:${canonicalJson(tool.inputSchema)}`, parameters: tool.inputSchema })),
    );
    void this.register([...tools.values()]);
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
          ? `its $schema ${truncate(String(tool.inputSchema.$schema))} is not draft ${SUPPORTED_DRAFTS_TEXT}`
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

/** The tools of a `tools/list` page that have a name and an object `inputSchema`, added to `into`. */
function addTools(into: Map<string, Tool>, tools: unknown): void {
  for (const tool of Array.isArray(tools) ? tools : []) {
    if (isPlainObject(tool) && typeof tool.name === "string" && isPlainObject(tool.inputSchema))
      into.set(tool.name, {
        name: tool.name,
        ...(typeof tool.description === "string" ? { description: tool.description } : {}),
        inputSchema: tool.inputSchema,
      });
  }
}

/** Whether two tool lists have the same names, descriptions and schemas (the client re-reading an unchanged list registers nothing). */
function sameTools(a: Map<string, Tool>, b: Map<string, Tool>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, tool] of a) {
    const other = b.get(name);
    if (!other || other.description !== tool.description || canonicalJson(other.inputSchema) !== canonicalJson(tool.inputSchema)) return false;
  }
  return true;
}

const keyOf = (id: Id): string => `${typeof id}:${String(id)}`;

/** A call's tool and arguments as one string (a multi round-trip retry sends them again); null when they cannot be serialised (nested too deep). */
function callKey(name: string, args: unknown): string | null {
  try {
    return `${name}\u0000${canonicalJson(args)}`;
  } catch {
    return null;
  }
}

function infoOf(value: unknown): { name: string; version?: string } | null {
  if (!isPlainObject(value) || typeof value.name !== "string" || value.name === "") return null;
  return { name: truncate(value.name, 200), ...(typeof value.version === "string" ? { version: truncate(value.version, 100) } : {}) };
}

/**
 * A `tools/call` answer as the call's result: a JSON-RPC error (its kind read from its code and
 * message: -32001 "Request timed out" is a timeout, "Unknown tool" not found), or the
 * CallToolResult's isError (a tool error) and first content.
 */
function resultOf(message: Message, latencyMs: number): NonNullable<ToolgateEvent["result"]> {
  if (isPlainObject(message.error)) {
    const text = String(message.error.message ?? JSON.stringify(message.error));
    return { status: failureStatus(message.error.code as number | undefined, text), latencyMs, summary: truncate(text, SUMMARY_CHARS) };
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
  // an answer without content is reported as an empty summary: Toolgate flags such results (isomorphic/outcome.ts)
  return { status: result.isError === true ? "error" : "ok", latencyMs, summary: truncate(summary, SUMMARY_CHARS) };
}

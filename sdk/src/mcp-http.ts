import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createParser } from "eventsource-parser";
import { McpGateway, type GatewayOptions } from "./mcp";
import { LOOPBACK_HOSTS, rebindingRefusal } from "../../isomorphic/rebinding";
import { passedOn } from "./mcp-http-headers";
import { advertisedMetadata, isOriginPath, isProtectedResourceMetadata, rewriteChallenge, rewriteMetadata, upstreamMetadataUrl } from "./mcp-http-oauth";

/**
 * `toolgate mcp --listen HOST:PORT --upstream URL`: the MCP gateway in front of a remote server,
 * on the Streamable HTTP transport. Every request goes on to the upstream URL with its headers
 * (Authorization included, untouched) and every answer comes back with its own, bytes unchanged;
 * the gate and the records are the stdio gateway's (`McpGateway`, one per MCP session), which
 * sees each JSON-RPC message of a POST body, a JSON answer or an SSE event. docs/mcp.md.
 */

export interface HttpGatewayOptions extends Omit<GatewayOptions<Exchange>, "toClient" | "toServer"> {
  host: string;
  port: number;
  /** The remote server's MCP endpoint. */
  upstream: string;
  /** Host names (without port) a request's `Host` may carry; default: loopback's. DNS-rebinding protection. */
  allowedHosts?: string[];
  /** Origins (`http://host:port`, or a bare host name for any scheme and port) a request's `Origin` may carry; default: loopback's. */
  allowedOrigins?: string[];
  /** How long the first requests after `notifications/initialized` wait for the client's GET stream to open. Default 300 ms. */
  streamWaitMs?: number;
}

export interface HttpGateway {
  /** Where clients connect: http://host:port/ (any path: every request goes to the upstream endpoint). */
  url: string;
  close(): Promise<void>;
}

/** The largest POST body the gateway reads (a client cannot make it buffer without end); larger ones are answered 413. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Sessions kept at once; past it the oldest is forgotten. */
const MAX_SESSIONS = 1000;
/** A 2026-07-28 client (no session) quiet this long starts a new run with its next request. */
const STATELESS_IDLE_MS = 30 * 60 * 1000;

/** A host the gateway listens on without --allow-non-loopback: only this machine can reach it. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** One client POST on its way through the gate: what the gateway answers itself, and what goes on to the server. */
class Exchange {
  readonly answers: string[] = [];
  forward: string | Uint8Array | null = null;
  touched = false;
  private resolve!: () => void;
  readonly decided = new Promise<void>((resolve) => (this.resolve = resolve));
  decide(): void {
    this.touched = true;
    this.resolve();
  }
}

type Session = {
  gateway: McpGateway<Exchange>;
  id: string | null;
  /** The headers the gateway's own requests (its tools/list) carry: the session id, the protocol version, the client's Authorization. */
  own: Record<string, string>;
  /** The last forwarded POST, until the server answered it: the gateway's own requests go after it (initialized before tools/list). */
  forwarding: Promise<unknown>;
  /**
   * Set when the client said `notifications/initialized`: resolved once the session's GET stream is
   * open at the server (or it was refused, or `streamWaitMs` passed). The client's POSTs after that
   * notification wait for it, so that a request the server sends on that stream while handling them
   * (elicitation, sampling, roots) finds the stream open, as it would directly.
   */
  stream: { opened: Promise<void>; open: () => void } | null;
  /** The Authorization the server refused the gateway's own tools/list with (401/403), until the client sends another. */
  refusedWith?: string;
};

const encoder = new TextEncoder();

export async function startHttpGateway(options: HttpGatewayOptions): Promise<HttpGateway> {
  const { host, port, upstream, log, allowedHosts = LOOPBACK_HOSTS, allowedOrigins = LOOPBACK_HOSTS, streamWaitMs = 300, ...gatewayOptions } = options;
  /** The URL the upstream server last gave for its protected-resource metadata (its WWW-Authenticate). */
  let advertised: string | null = null;
  const sessions = new Map<string, Session>();
  let sessionless: Session | null = null;
  /** 2026-07-28 clients (no sessions), by statelessClient(), in the order of their last request. */
  const stateless = new Map<string, { session: Session; seen: number }>();
  const upstreamUrl = new URL(upstream);
  // one pool of kept-alive connections to the upstream server: a call does not wait for a new connection (node:http rather than fetch, which costs a forwarded call about twice as much)
  const agent =
    upstreamUrl.protocol === "https:" ? new HttpsAgent({ keepAlive: true, scheduling: "lifo" }) : new HttpAgent({ keepAlive: true, scheduling: "lifo" });
  const request = upstreamUrl.protocol === "https:" ? httpsRequest : httpRequest;

  /**
   * One request to the upstream endpoint; resolves with its answer once the headers are in. `client`:
   * the client's request this one forwards; when the client goes away before its answer was written,
   * the upstream request ends too (a GET stream, a long call).
   */
  function send(
    method: string,
    headers: OutgoingHttpHeaders,
    body?: string | Uint8Array,
    client?: ServerResponse,
    target: URL = upstreamUrl,
    retried = false,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      if (client && gone(client)) return reject(new Error("the client went away"));
      const outgoing = request(target, {
        method,
        headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
        agent,
      });
      client?.once("close", () => gone(client) && outgoing.destroy());
      outgoing.on("response", resolve);
      outgoing.on("error", (error: NodeJS.ErrnoException) => {
        // a kept-alive connection the server closed just as it was reused: nothing reached the server, so it is sent once more on a new one
        if (retried || !outgoing.reusedSocket || error.code !== "ECONNRESET" || (client && gone(client))) return reject(error);
        send(method, headers, body, client, target, true).then(resolve, reject);
      });
      outgoing.end(body);
    });
  }

  /** Runs one of the gateway's handlers; false (and a line on stderr) when it threw. */
  const guard = (what: string, handle: () => void): boolean => {
    try {
      handle();
      return true;
    } catch (error) {
      log(`could not handle a message from the ${what}: ${describe(error)}`);
      return false;
    }
  };

  /** The wait for a session's GET stream (Session.stream): open() once the server answered the GET, or after streamWaitMs. */
  function streamGate(): NonNullable<Session["stream"]> {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    const timer = setTimeout(open, streamWaitMs);
    return { opened, open: () => (clearTimeout(timer), open()) };
  }

  function newSession(): Session {
    const session: Session = {
      id: null,
      own: {},
      forwarding: Promise.resolve(),
      stream: null,
      gateway: new McpGateway<Exchange>({
        ...gatewayOptions,
        log,
        toClient: (line, exchange) => {
          // without an exchange it is the server's message passed on, which the relay below writes itself
          if (!exchange) return;
          exchange.answers.push(typeof line === "string" ? line : new TextDecoder().decode(line));
          exchange.decide();
        },
        toServer: (line, exchange) => {
          if (!exchange) return void ownRequest(session, line);
          exchange.forward = line;
          exchange.decide();
        },
      }),
    };
    return session;
  }

  /** The gateway's own request (tools/list), on the client's session; its answers go to the gateway only. */
  async function ownRequest(session: Session, line: string | Uint8Array): Promise<void> {
    await session.forwarding;
    const id = idOf(line);
    // the listing ends at once with an error (rather than at its timeout) when the server gives no answer to read
    const failed = (why: string) => {
      log(`the gateway's own tools/list to the upstream server failed: ${why}`);
      if (id !== undefined) session.gateway.fromServer(encoder.encode(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: why } })));
    };
    try {
      // 2026-07-28 asks each POST to name its method in Mcp-Method (SEP-2243); older servers ignore it
      const headers = session.gateway.modern ? { ...session.own, "mcp-method": String(methodOf(line)) } : session.own;
      const response = await send("POST", { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, line);
      if (!ok(response)) {
        response.resume();
        // refused for its credentials (401, or 403 for a scope the token lacks): listed again once the client's Authorization changes
        if (response.statusCode === 401 || response.statusCode === 403) session.refusedWith = session.own.authorization ?? "";
        return failed(`HTTP ${response.statusCode}`);
      }
      await relay(response, null, session);
    } catch (error) {
      failed(describe(error));
    }
  }

  /** Passes an upstream answer on to `res` (null: read it only) and shows each JSON-RPC message in it to the session's gateway. */
  async function relay(response: IncomingMessage, res: ServerResponse | null, session: Session | null, answers: string[] = []): Promise<void> {
    const type = response.headers["content-type"] ?? "";
    const inspect = (bytes: Uint8Array) => session && guard("server", () => session.gateway.fromServer(bytes));
    if (res && answers.length > 0 && !type.includes("application/json") && !type.includes("text/event-stream")) {
      // the server had nothing to say (202 for the batch's notifications): the gate's answers are the whole answer
      response.resume();
      return void res.writeHead(200, { "content-type": "application/json" }).end(`[${answers.join(",")}]`);
    }
    if (res) res.writeHead(response.statusCode ?? 502, answerHeaders(response, res.req));
    if (type.includes("application/json")) {
      const body = await readAll(response);
      inspect(body);
      if (!res) return;
      if (answers.length === 0) return void res.end(body);
      // a batch some of whose calls the gate answered: one array with the server's answers and the gate's
      return void res.end(
        `[${[
          ...answers,
          body
            .toString("utf8")
            .trim()
            .replace(/^\[|\]$/g, ""),
        ]
          .filter(Boolean)
          .join(",")}]`,
      );
    }
    const sse = type.includes("text/event-stream");
    const decoder = new TextDecoder();
    const parser = createParser({
      onEvent: (event) => {
        if (event.event === undefined || event.event === "message") inspect(encoder.encode(event.data));
      },
    });
    let written = answers.length > 0;
    if (res && sse) {
      for (const answer of answers) res.write(`event: message\ndata: ${answer}\n\n`);
      // the headers go out with the first event when it came in with them (one write, not two), else on their own at once: a stream may stay quiet
      setImmediate(() => written || res.destroyed || res.flushHeaders());
    }
    await new Promise<void>((resolve) => {
      response.on("data", (chunk: Buffer) => {
        written = true;
        res?.write(chunk);
        if (sse) parser.feed(decoder.decode(chunk, { stream: true }));
      });
      // an error: the upstream stream broke off or the client went away; the client reconnects with Last-Event-ID if it wants
      response
        .once("end", resolve)
        .once("error", () => resolve())
        .once("close", resolve);
    });
    res?.end();
  }

  /**
   * The upstream answer's headers for the client: all but the hop-by-hop ones, and a
   * `WWW-Authenticate` naming the server's protected-resource metadata made to name the gateway's.
   */
  function answerHeaders(response: IncomingMessage, req: IncomingMessage): Record<string, string | string[]> {
    const headers = passedOn(response.headersDistinct);
    const challenge = response.headersDistinct["www-authenticate"];
    const named = advertisedMetadata(challenge);
    if (challenge && named) {
      advertised = named;
      headers["www-authenticate"] = rewriteChallenge(challenge, ownOrigin(req), new URL(req.url ?? "/", "http://gateway").pathname);
    }
    return headers;
  }

  /** The gateway's origin as the client reached it (its Host, checked against the allow-list before). */
  const ownOrigin = (req: IncomingMessage) => `http://${req.headers.host}`;

  /**
   * A discovery or OAuth endpoint at the server's origin (mcp-http-oauth.ts): to the same path
   * upstream, untouched but for the protected-resource metadata's `resource`.
   */
  async function originRequest(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const incoming = new URL(req.url ?? "/", "http://gateway");
    const metadata = isProtectedResourceMetadata(pathname);
    const target = metadata ? upstreamMetadataUrl(pathname, upstreamUrl, advertised) : new URL(`${pathname}${incoming.search}`, upstreamUrl.origin);
    const body = req.method === "GET" || req.method === "HEAD" ? undefined : await readBody(req, MAX_BODY_BYTES);
    if (body === null) return refuse(res, 413, `The request is larger than the Toolgate gateway takes (${MAX_BODY_BYTES} bytes).`);
    const response = await send(req.method!, requestHeaders(req), body, res, target);
    if (!metadata || !ok(response) || !(response.headers["content-type"] ?? "").includes("json")) return relay(response, res, null);
    const rewritten = rewriteMetadata((await readAll(response)).toString("utf8"), ownOrigin(req), pathname, upstreamUrl);
    res.writeHead(response.statusCode!, answerHeaders(response, req)).end(rewritten);
  }

  function refuse(res: ServerResponse, status: number, message: string): void {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
  }

  /** The request's headers for the upstream server: all but the hop-by-hop ones, Authorization as it came. */
  function requestHeaders(req: IncomingMessage): OutgoingHttpHeaders {
    const headers = passedOn(req.headersDistinct);
    headers["accept-encoding"] = "identity"; // the answer is read as it is passed on
    return headers;
  }

  function sessionFor(req: IncomingMessage, res: ServerResponse, initialize: boolean): Session | null {
    const id = header(req, "mcp-session-id");
    if (id !== undefined) {
      const session = sessions.get(id);
      // a session the gateway never saw start: it has no tool list to gate with, so the client must start again (as the spec says for a 404)
      if (!session) refuse(res, 404, `Session not found: the Toolgate gateway has no MCP session '${id.slice(0, 100)}'. Send initialize again.`);
      return session ?? null;
    }
    if (initialize || !sessionless) return newSession();
    return sessionless;
  }

  async function post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === null) {
      return refuse(res, 413, `The message is larger than the Toolgate gateway takes (${MAX_BODY_BYTES} bytes). Send a smaller one.`);
    }
    const initialize = header(req, "mcp-session-id") === undefined && methodOf(body) === "initialize";
    const client = header(req, "mcp-session-id") === undefined ? statelessClient(req, body) : null;
    const session = client === null ? sessionFor(req, res, initialize) : statelessSession(client);
    if (!session) return;
    const authorization = header(req, "authorization");
    if (authorization !== undefined) session.own.authorization = authorization;
    if (session.refusedWith !== undefined && authorization !== session.refusedWith) {
      // the client has a new token (it authorized again): the gateway lists again with it, as if told the list changed
      session.refusedWith = undefined;
      session.gateway.fromServer(encoder.encode('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}'));
    }
    const version = header(req, "mcp-protocol-version");
    if (version !== undefined) session.own["mcp-protocol-version"] = version;

    const exchange = new Exchange();
    if (!guard("client", () => session.gateway.fromClient(body, exchange)))
      return refuse(res, 500, "The Toolgate gateway could not check this message, so it was not sent to the server.");
    if (!exchange.touched) await exchange.decided; // a tools/call held until the server's tool list is read
    const batch = body.toString("utf8", 0, Math.min(body.length, 64)).trimStart().startsWith("[");
    if (exchange.forward === null) {
      if (exchange.answers.length === 0) return void res.writeHead(202).end();
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(batch ? `[${exchange.answers.join(",")}]` : exchange.answers[0]);
    }
    if (session.stream) await session.stream.opened;
    else if (session.id !== null && body.length < 4096 && methodOf(body) === "notifications/initialized") session.stream = streamGate();
    const sent = send("POST", requestHeaders(req), exchange.forward, res);
    session.forwarding = sent.catch(() => undefined);
    const response = await sent;
    const id = header(response, "mcp-session-id");
    if (initialize && ok(response)) {
      if (id) {
        session.id = id;
        session.own["mcp-session-id"] = id;
        sessions.set(id, session);
        if (sessions.size > MAX_SESSIONS) {
          // clients that never send DELETE: the oldest session goes (its client gets a 404 and starts again)
          const [oldestId, oldest] = sessions.entries().next().value!;
          oldest.gateway.close();
          sessions.delete(oldestId);
        }
        if (gatewayOptions.runId === undefined) session.gateway.runId = id; // run = MCP session
      } else sessionless = session; // a stateless server: one session for the clients without a session id
    }
    await relay(response, res, session, exchange.answers);
  }

  /**
   * Protocol 2026-07-28 has no sessions: each POST stands alone. The gateway keeps one gateway session
   * (tool list, run, steps, corrections) per client — its clientInfo and Authorization — and starts a
   * new run after STATELESS_IDLE_MS without a request from it. docs/mcp.md.
   */
  function statelessSession(client: string): Session {
    const known = stateless.get(client);
    stateless.delete(client); // kept in the order of their last request: the first is the one to forget
    // the old run's calls still unanswered are recorded when their answers come (their exchanges hold its gateway)
    const session = known && Date.now() - known.seen < STATELESS_IDLE_MS ? known.session : newSession();
    stateless.set(client, { session, seen: Date.now() });
    if (stateless.size > MAX_SESSIONS) {
      const [oldestKey, oldest] = stateless.entries().next().value!;
      oldest.session.gateway.close();
      stateless.delete(oldestKey);
    }
    return session;
  }

  async function other(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = header(req, "mcp-session-id");
    const session = id === undefined ? sessionless : sessionFor(req, res, false);
    if (id !== undefined && !session) return;
    const body = req.method === "GET" || req.method === "HEAD" || req.method === "DELETE" ? undefined : await readBody(req, MAX_BODY_BYTES);
    if (body === null) return refuse(res, 413, `The request is larger than the Toolgate gateway takes (${MAX_BODY_BYTES} bytes).`);
    const opening = req.method === "GET" ? session?.stream : undefined;
    const response = await send(req.method!, requestHeaders(req), body, res).finally(() => opening?.open());
    if (req.method === "DELETE" && ok(response) && session) {
      session.gateway.close();
      if (session.id) sessions.delete(session.id);
    }
    await relay(response, res, session);
  }

  const server = createServer((req, res) => {
    const refusal = rebindingRefusal(req.headers.host, req.headers.origin, allowedHosts, allowedOrigins);
    if (refusal) {
      req.resume();
      return refuse(
        res,
        403,
        `${refusal}. The Toolgate gateway only answers requests for the hosts and origins it was told to (--allowed-hosts, --allowed-origins).`,
      );
    }
    const pathname = new URL(req.url ?? "/", "http://gateway").pathname;
    const handle = isOriginPath(pathname) ? (q: IncomingMessage, s: ServerResponse) => originRequest(q, s, pathname) : req.method === "POST" ? post : other;
    handle(req, res).catch((error: unknown) => {
      if (gone(res)) return;
      log(`${req.method} to the upstream server failed: ${describe(error)}`);
      if (!res.headersSent) refuse(res, 502, `The Toolgate gateway cannot reach the upstream MCP server: ${describe(error)}`);
      else res.end();
    });
  });
  server.headersTimeout = 60_000;
  server.requestTimeout = 0; // GET streams and long calls stay open
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host.replace(/^\[|\]$/g, ""), () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/`,
    close: async () => {
      const all = [...sessions.values(), ...[...stateless.values()].map((entry) => entry.session), ...(sessionless ? [sessionless] : [])];
      for (const session of new Set(all)) session.gateway.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

function header(message: IncomingMessage, name: string): string | undefined {
  const value = message.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The client closed the connection before its answer was written. */
const gone = (res: ServerResponse) => res.destroyed && !res.writableFinished;

const ok = (response: IncomingMessage) => response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300;

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/** The body, or null when it is over `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        return resolve(null);
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(size > limit ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The id of the gateway's own request (a JSON object's `id`). */
function idOf(line: string | Uint8Array): string | number | undefined {
  try {
    const id: unknown = (JSON.parse(typeof line === "string" ? line : new TextDecoder().decode(line)) as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The method of a POST's single message or of one of the gateway's own requests (a batch or a body that is
 * not JSON: undefined): `initialize` without a session id starts a session (a new gateway) rather than going
 * to a stateless server's one.
 */
function methodOf(body: string | Uint8Array): unknown {
  try {
    const message: unknown = JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body));
    return typeof message === "object" && message !== null ? (message as { method?: unknown }).method : undefined;
  } catch {
    return undefined;
  }
}

/**
 * For a POST of protocol 2026-07-28 or later (its `_meta` names the protocol version; no session id): who
 * sends it — the clientInfo name and version, and a hash of the Authorization header (never kept as it
 * came). null for an older protocol's POST.
 */
function statelessClient(req: IncomingMessage, body: Buffer): string | null {
  let message: unknown;
  try {
    message = JSON.parse(body.toString());
  } catch {
    return null;
  }
  const first: unknown = Array.isArray(message) ? message[0] : message;
  const params = typeof first === "object" && first !== null ? (first as { params?: unknown }).params : undefined;
  const meta = typeof params === "object" && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  if (typeof meta !== "object" || meta === null) return null;
  const fields = meta as Record<string, unknown>;
  if (typeof fields["io.modelcontextprotocol/protocolVersion"] !== "string") return null;
  const info = fields["io.modelcontextprotocol/clientInfo"];
  const client = typeof info === "object" && info !== null ? (info as { name?: unknown; version?: unknown }) : {};
  const authorization = header(req, "authorization");
  const who = authorization === undefined ? "" : createHash("sha256").update(authorization).digest("base64url");
  return JSON.stringify([String(client.name ?? ""), String(client.version ?? ""), who]);
}

/** An error for the log: its message and cause, never a request's headers. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

import { MAX_EVENTS_PER_BATCH, REGISTER_TOOLS_MAX } from "../../contracts/request-limits";
import { canonicalJson } from "../../isomorphic/tool-schema";
import { authorizationHeader } from "./api-key";
import type { ToolgateEvent } from "./event";
import { onProcessExit } from "./exit-hook";

export interface ReporterOptions {
  /** Toolgate's base address, e.g. `http://localhost:3000`. */
  url: string;
  /** A project API key with the `ingest` scope (`tg_…`). One with a character an HTTP header cannot carry is refused here (ApiKeyError). */
  apiKey: string;
  /** Events per `ingest.batch` request (1–1000). Default 500. */
  batchSize?: number;
  /** Largest request body; a batch is cut short before it. Default 3 MiB (the server takes 4 MB). */
  maxBatchBytes?: number;
  /** How long an event may wait for a batch to fill. Default 1000 ms. */
  flushIntervalMs?: number;
  /** Events held at most (waiting and being sent). When full, NEW events are dropped and counted. Default 10,000. */
  maxBuffer?: number;
  /** Size of the events held at most, as JSON (waiting and being sent). Past it NEW events are dropped and counted, like past `maxBuffer`. Default 16 MiB. */
  maxBufferBytes?: number;
  /**
   * First retry delay after a network error, 429 or 5xx without `Retry-After`; doubles with each
   * failure in a row (across flushes, shutdown and the exit flush) up to `maxRetryDelayMs`, with
   * jitter. A `Retry-After` from the server is waited out instead. Default 500 ms.
   */
  retryDelayMs?: number;
  /** Default 30,000 ms. */
  maxRetryDelayMs?: number;
  /** One request's time limit. Default 10,000 ms. */
  requestTimeoutMs?: number;
  /** On Node (and Bun, Deno): flush what is pending when the process is about to exit normally, for at most this long. 0 turns it off. Default 5,000 ms. */
  exitFlushTimeoutMs?: number;
  /** Called for every failure instead of throwing; never awaited. */
  onError?: (error: ReporterError) => void;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

export type ReporterErrorKind = "network" | "http" | "rejected" | "dropped" | "register";

/** What went wrong in the background: reported to `onError`, never thrown. */
export class ReporterError extends Error {
  override name = "ReporterError";
  constructor(
    readonly kind: ReporterErrorKind,
    message: string,
    readonly details: { status?: number; events?: number; willRetry?: boolean } = {},
  ) {
    super(message);
  }
}

export interface ReporterStats {
  /** Events the server has (accepted, or already had under the same id). */
  sent: number;
  /** Events given up: the buffer was full, the server refused a whole batch, or shutdown ran out of time. */
  dropped: number;
  /** Requests repeated after a network error, 429 or 5xx. */
  retried: number;
  /** Events the server refused one by one (the batch went through), or that could not be written as JSON. */
  rejected: number;
  /** Events waiting or being sent now. */
  buffered: number;
}

export interface ToolRegistration {
  name: string;
  description?: string;
  parameters: object;
  /** Where the schema came from when not from the harness's own code: `mcp:<server name>` (the MCP gateway). */
  source?: string;
}

/** `bytes`: the event's size as JSON, counted against maxBufferBytes while it is held. */
/** `schema`: the tool's schema registered here when the event was recorded (schemaOf), whose version the event names. */
type Entry = { event: ToolgateEvent; json?: string; bytes: number; schema?: string };
type Answer =
  | { kind: "ok"; data: unknown }
  | { kind: "retry"; delayMs?: number; message: string; timedOut?: boolean }
  | { kind: "refused"; status: number; message: string };

/**
 * Sends events to Toolgate in the background: batched, bounded, retried without ever changing an
 * event's id (the server answers a re-sent id as a duplicate, so a retry cannot store it twice).
 * Nothing here throws into the caller or waits on the network in `record`.
 */
export class Reporter {
  private readonly options: Required<Omit<ReporterOptions, "onError" | "fetch" | "apiKey">> & Pick<ReporterOptions, "onError">;
  private readonly authorization: string;
  private readonly fetch: typeof fetch;
  private readonly queue: Entry[] = [];
  /** name → its schema registered last (schemaOf). */
  private readonly registered = new Map<string, string>();
  private readonly pendingTools = new Map<string, ToolRegistration>();
  /**
   * schemaOf → the version the server gave that schema: an event names the version of the schema its tool had
   * here when it was recorded (`toolVersion`), not a later one's, nor an earlier one's while the new one is sent.
   */
  private readonly versions = new Map<string, string>();
  private readonly counters = { sent: 0, dropped: 0, retried: 0, rejected: 0 };
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private drain = 0;
  private deadline: number | null = null;
  private closed = false;
  private dropping = false;
  private recorded = 0;
  private bufferedBytes = 0;
  /** Failed attempts in a row (the exponent of the backoff), and when the server may be asked again. */
  private failures = 0;
  private retryAt = 0;
  private removeExitHook: () => void = () => {};
  /** Aborts the request under way: a flush's deadline is the caller's, not the request timeout's. */
  private inFlight: AbortController | null = null;

  constructor(options: ReporterOptions) {
    // a key that cannot be sent would fail every request as "cannot reach" and be retried for ever
    this.authorization = authorizationHeader(options.apiKey);
    this.options = {
      batchSize: Math.min(MAX_EVENTS_PER_BATCH, Math.max(1, options.batchSize ?? 500)),
      maxBatchBytes: options.maxBatchBytes ?? 3 * 1024 * 1024,
      flushIntervalMs: options.flushIntervalMs ?? 1000,
      maxBuffer: Math.max(1, options.maxBuffer ?? 10_000),
      maxBufferBytes: Math.max(1, options.maxBufferBytes ?? 16 * 1024 * 1024),
      retryDelayMs: options.retryDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
      exitFlushTimeoutMs: options.exitFlushTimeoutMs ?? 5000,
      url: options.url.replace(/\/+$/, ""),
      onError: options.onError,
    };
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.fetch = (input, init) => fetchImpl(input, init);
    if (this.options.exitFlushTimeoutMs > 0) {
      let flushedAt = -1;
      this.removeExitHook = onProcessExit(() => {
        // once per new event: an exit flush that could not reach the server is not repeated forever
        if (this.closed || flushedAt === this.recorded || (this.queue.length === 0 && this.pendingTools.size === 0)) return;
        flushedAt = this.recorded;
        // at the deadline a request still under way is given up, so that it does not hold the process (the events stay queued)
        void this.flush({ timeoutMs: this.options.exitFlushTimeoutMs }).then(() => this.inFlight?.abort());
      });
    }
  }

  stats(): ReporterStats {
    return { ...this.counters, buffered: this.queue.length };
  }

  /** Queues one event. Never throws, never waits. */
  record(event: ToolgateEvent): void {
    this.recorded++;
    let entry: Entry;
    try {
      entry = this.entryOf(event);
    } catch (error) {
      // JSON.stringify throws on arguments nested past the stack (a hostile client's call) or a BigInt: this event only
      this.counters.rejected++;
      const why = error instanceof Error ? error.message : String(error);
      this.report(
        new ReporterError(
          "rejected",
          `The event ${event.id} (tool ${event.tool}) cannot be written as JSON: ${why}. Are its arguments nested deeper than Toolgate keeps (64 levels)? Flatten them. The event was not sent.`,
          { events: 1 },
        ),
      );
      return;
    }
    const full = this.closed
      ? "the reporter was shut down"
      : this.queue.length >= this.options.maxBuffer
        ? `the buffer holds ${this.options.maxBuffer} events (maxBuffer) while Toolgate is not taking them`
        : this.bufferedBytes + entry.bytes > this.options.maxBufferBytes
          ? `the buffer would hold more than ${this.options.maxBufferBytes} bytes (maxBufferBytes) while Toolgate is not taking them`
          : null;
    if (full) {
      this.counters.dropped++;
      if (!this.dropping) {
        this.dropping = true;
        this.report(new ReporterError("dropped", `Dropping new events: ${full}. See stats().dropped for the count.`, { events: 1 }));
      }
      return;
    }
    this.queue.push(entry);
    this.bufferedBytes += entry.bytes;
    if (this.queue.length >= this.options.batchSize) this.kick();
    else this.schedule();
  }

  /** Registers tool schemas with `tools.register` before the next batch; unchanged ones are not sent again. */
  registerTools(tools: ToolRegistration[]): void {
    for (const tool of tools) {
      const key = schemaOf(tool);
      if (this.registered.get(tool.name) === key) continue;
      this.registered.set(tool.name, key);
      this.pendingTools.set(tool.name, tool);
    }
    if (this.pendingTools.size > 0) this.schedule();
  }

  /** Sends everything queued so far. Resolves when the buffer is empty or `timeoutMs` passed (what remains stays queued). Never rejects. */
  async flush(options: { timeoutMs?: number } = {}): Promise<void> {
    const until = options.timeoutMs === undefined ? null : Date.now() + options.timeoutMs;
    if (until !== null) this.deadline = Math.max(this.deadline ?? 0, until);
    this.drain++;
    this.wake?.(); // a retry sleeping in the background now works under this deadline
    try {
      while (!this.closed && (this.queue.length > 0 || this.pendingTools.size > 0) && (until === null || Date.now() < until)) {
        // a request under way when the deadline comes goes on in the background (shutdown gives it up)
        if (until === null) await this.kick();
        else if (!(await settlesBefore(until, this.kick()))) break;
        // the server asked to wait past the deadline: nothing more to do before it (no request until then)
        if (this.deadline !== null && this.retryAt >= this.deadline) break;
      }
    } finally {
      this.drain--;
      if (this.drain === 0) this.deadline = null;
    }
  }

  /** Flushes (for at most `timeoutMs`, default 10 s), then stops: later events are dropped; what could not be sent is counted as dropped. */
  async shutdown(options: { timeoutMs?: number } = {}): Promise<ReporterStats> {
    if (!this.closed) {
      await this.flush({ timeoutMs: options.timeoutMs ?? 10_000 });
      this.closed = true;
      this.wake?.(); // a retry sleeping in the background gives up now
      this.inFlight?.abort(); // and a request under way: its events are counted as dropped below
      this.removeExitHook();
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      const left = this.queue.length;
      if (left > 0) {
        this.counters.dropped += left;
        this.queue.length = 0;
        this.bufferedBytes = 0;
        this.report(new ReporterError("dropped", `Shutdown: ${left} events could not be sent in time and are dropped.`, { events: left }));
      }
    }
    return this.stats();
  }

  // -------------------------------------------------------------------------------------------

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.kick(true);
    }, this.options.flushIntervalMs);
    unref(this.timer);
  }

  /** Runs the sender (one at a time); `all` sends partial batches too. */
  private kick(all = false): Promise<void> {
    if (!this.running) {
      this.running = this.send(all)
        .catch((error: unknown) => this.report(new ReporterError("network", `Unexpected reporter failure: ${messageOf(error)}`)))
        .finally(() => {
          this.running = null;
          if (this.queue.length > 0 || this.pendingTools.size > 0) this.schedule();
        });
    }
    return this.running;
  }

  private async send(all: boolean): Promise<void> {
    while (!this.closed) {
      if (this.pendingTools.size > 0) {
        if (!(await this.sendRegistrations())) return;
        continue;
      }
      const full = this.queue.length >= this.options.batchSize;
      if (this.queue.length === 0 || !(full || all || this.drain > 0)) return;
      const count = this.takeBatch();
      const answer = await this.post(
        "ingest.batch",
        () =>
          `{"events":[${this.queue
            .slice(0, count)
            .map((e) => this.jsonOf(e))
            .join(",")}]}`,
        count,
      );
      if (answer === null) return; // out of time: stays queued
      if (answer.kind === "refused" && answer.status === 413 && count > 1) {
        this.splitNext = Math.max(1, Math.floor(count / 2));
        continue;
      }
      for (const sent of this.queue.splice(0, count)) this.bufferedBytes -= sent.bytes;
      if (this.queue.length === 0) this.splitNext = null; // smaller batches until the backlog that was too large is gone
      if (answer.kind === "ok") {
        const result = (answer.data ?? {}) as {
          accepted?: number;
          duplicates?: number;
          rejected?: { index: number; id?: string; path: string; message: string }[];
        };
        const rejected = result.rejected ?? [];
        this.counters.sent += (result.accepted ?? 0) + (result.duplicates ?? 0);
        this.counters.rejected += rejected.length;
        this.dropping = false;
        if (rejected.length > 0) {
          const shown = rejected.slice(0, 3).map((r) => `${r.id ?? `#${r.index}`}: ${r.path ? `${r.path}: ` : ""}${r.message}`);
          this.report(
            new ReporterError("rejected", `Toolgate refused ${rejected.length} of ${count} events: ${shown.join("; ")}${rejected.length > 3 ? "; …" : ""}`, {
              events: rejected.length,
            }),
          );
        }
      } else {
        this.counters.dropped += count;
        this.report(
          new ReporterError("http", `Toolgate refused a batch of ${count} events (HTTP ${answer.status}): ${answer.message}`, {
            status: answer.status,
            events: count,
          }),
        );
      }
    }
  }

  private splitNext: number | null = null;

  /** The event as sent, serialized once (a retry sends the same bytes), naming the schema version registered for its tool. */
  private jsonOf(entry: Entry): string {
    if (entry.json === undefined) {
      const version = entry.event.toolVersion === undefined && entry.schema !== undefined ? this.versions.get(entry.schema) : undefined;
      entry.json = JSON.stringify(version === undefined ? entry.event : { ...entry.event, toolVersion: version });
    }
    return entry.json;
  }

  /**
   * A new entry with its size. Its JSON is kept when it is final already (no registered schema
   * version can still be added at send time); otherwise it is measured now and serialized when sent.
   */
  private entryOf(event: ToolgateEvent): Entry {
    const entry: Entry = { event, bytes: 0, ...(this.registered.has(event.tool) ? { schema: this.registered.get(event.tool) } : {}) };
    const final = event.toolVersion !== undefined || entry.schema === undefined || this.versions.has(entry.schema);
    entry.bytes = (final ? this.jsonOf(entry) : JSON.stringify(event)).length + 1;
    return entry;
  }

  /** How many events from the front go into the next batch: ≤ batchSize, ≤ maxBatchBytes (at least one). */
  private takeBatch(): number {
    const limit = Math.min(this.options.batchSize, this.splitNext ?? Infinity, this.queue.length);
    let bytes = 20;
    let count = 0;
    while (count < limit) {
      const size = this.jsonOf(this.queue[count]!).length + 1;
      if (count > 0 && bytes + size > this.options.maxBatchBytes) break;
      bytes += size;
      count++;
    }
    return count;
  }

  /** false: out of time, try later. */
  private async sendRegistrations(): Promise<boolean> {
    const tools = [...this.pendingTools.values()].slice(0, REGISTER_TOOLS_MAX);
    const answer = await this.post("tools.register", () => JSON.stringify({ tools }), 0);
    if (answer === null) return false;
    for (const tool of tools) if (this.pendingTools.get(tool.name) === tool) this.pendingTools.delete(tool.name);
    if (answer.kind === "ok") {
      const sent = new Map(tools.map((tool) => [tool.name, schemaOf(tool)]));
      for (const { name, version } of (answer.data as { tools?: { name: string; version: string }[] } | undefined)?.tools ?? []) {
        const schema = sent.get(name);
        if (schema !== undefined) this.versions.set(schema, version);
      }
    }
    if (answer.kind === "refused") {
      for (const tool of tools) this.registered.delete(tool.name);
      this.report(new ReporterError("register", `Toolgate refused the tool schemas (HTTP ${answer.status}): ${answer.message}`, { status: answer.status }));
    }
    return true;
  }

  /**
   * POSTs to a tRPC procedure until it answers something other than "try again"; null when the
   * deadline (or shutdown) comes first. The wait between attempts is shared by every path (the
   * background sender, flush, shutdown, the exit flush): no request goes out before the time the
   * server asked for (`Retry-After`) or the backoff after the failures in a row so far.
   */
  private async post(procedure: string, body: () => string, events: number): Promise<Exclude<Answer, { kind: "retry" }> | null> {
    const text = body();
    for (;;) {
      if (this.closed) return null;
      const wait = this.retryAt - Date.now();
      if (wait > 0) {
        if (this.deadline !== null && this.retryAt >= this.deadline) return null;
        await this.sleep(wait);
        continue; // woken early by a flush or shutdown: look again
      }
      const started = Date.now();
      const answer = await this.attempt(procedure, text);
      if (this.closed) return null; // shut down while it was out (and given up): its events were counted as dropped
      if (answer.kind !== "retry") {
        this.failures = 0;
        return answer;
      }
      this.failures++;
      const delay = answer.delayMs ?? retryDelay(this.failures, this.options, answer.timedOut ? Date.now() - started : 0);
      this.retryAt = Date.now() + delay;
      const outOfTime = this.deadline !== null && this.retryAt >= this.deadline;
      this.report(
        new ReporterError(
          answer.message.startsWith("HTTP") ? "http" : "network",
          `${procedure}: ${answer.message}; ${outOfTime ? "out of time, kept queued" : `retrying in ${Math.round(delay)} ms`}`,
          {
            events,
            willRetry: !outOfTime,
          },
        ),
      );
      if (outOfTime || this.closed) return null;
      this.counters.retried++;
    }
  }

  /** Waits `ms`, or until a flush or shutdown wakes the sender. */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => (clearTimeout(timer), resolve());
      // in the background a retry never keeps the process alive; a flush with a deadline does
      if (this.deadline === null) unref(timer);
    }).finally(() => (this.wake = null));
  }

  private wake: (() => void) | null = null;

  private async attempt(procedure: string, body: string): Promise<Answer> {
    let response: Response;
    const request = (this.inFlight = new AbortController());
    try {
      response = await this.fetch(`${this.options.url}/api/trpc/${procedure}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: this.authorization },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(this.options.requestTimeoutMs), request.signal]),
      });
    } catch (error) {
      if (this.inFlight === request) this.inFlight = null;
      if ((error as { name?: string }).name === "TimeoutError") {
        return { kind: "retry", timedOut: true, message: `${this.options.url} did not answer within ${this.options.requestTimeoutMs} ms (requestTimeoutMs)` };
      }
      return { kind: "retry", message: `cannot reach ${this.options.url} (${messageOf(error)})` };
    }
    let payload: { result?: { data?: unknown }; error?: { message?: string } } | undefined;
    try {
      payload = (await response.json()) as typeof payload;
    } catch {
      payload = undefined;
    } finally {
      if (this.inFlight === request) this.inFlight = null;
    }
    if (response.ok) return { kind: "ok", data: payload?.result?.data };
    const message = payload?.error?.message ?? response.statusText ?? "no message";
    if (response.status === 429 || response.status >= 500) {
      const delayMs = retryAfterMs(response.headers.get("retry-after"));
      return { kind: "retry", message: `HTTP ${response.status}: ${message}`, ...(delayMs === undefined ? {} : { delayMs }) };
    }
    return { kind: "refused", status: response.status, message };
  }

  private report(error: ReporterError): void {
    try {
      this.options.onError?.(error);
    } catch {
      // the harness's callback must not break the reporter either
    }
  }
}

/**
 * The wait before the next request after `failures` failed attempts in a row (network error,
 * time-out, 429 or 5xx without `Retry-After`): exponential with jitter, base · 2^(failures−1)
 * capped at maxRetryDelayMs, then a uniform factor in [0.5, 1). After a time-out (`slowMs`: how
 * long the abandoned request took) Toolgate is slow rather than gone and may still be working on
 * that request, so the wait is at least slowMs · 2^(failures−1), capped at maxRetryDelayMs too:
 * a stalled server spends at most half its time on this reporter's re-sends, less with each.
 * (sdk/README.md, "Retries", states this rule for the other SDKs to match.)
 */
export function retryDelay(failures: number, options: { retryDelayMs: number; maxRetryDelayMs: number }, slowMs = 0, random = Math.random()): number {
  const growth = 2 ** (failures - 1);
  const backoff = Math.min(options.maxRetryDelayMs, options.retryDelayMs * growth) * (0.5 + random / 2);
  return Math.max(backoff, Math.min(options.maxRetryDelayMs, slowMs * growth));
}

/** `Retry-After` in seconds or as an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A tool's name, description and parameters as one string: what `tools.register` gives a version to. */
function schemaOf(tool: ToolRegistration): string {
  return canonicalJson({ name: tool.name, description: tool.description ?? "", parameters: tool.parameters });
}

function unref(timer: unknown): void {
  (timer as { unref?: () => void }).unref?.();
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

/** Whether `work` settled before the time `until` (ms since the epoch); if not, it goes on in the background. */
async function settlesBefore(until: number, work: Promise<void>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, until - Date.now()))));
  try {
    return await Promise.race([work.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}

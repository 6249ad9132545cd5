import { afterEach, describe, expect, it } from "vitest";
import type { ToolgateEvent } from "./event";
import { testEvent } from "../test/event";
import { Reporter, ReporterError, retryAfterMs, retryDelay, type ReporterOptions } from "./reporter";

// The transport is replaced here to produce failures at will (network errors, 5xx, 413);
// reporter.integration.test.ts runs the same reporter against the real server.

type Request = { url: string; body: { events?: ToolgateEvent[]; tools?: { name: string }[] }; at: number };
type Reply = Response | Error | Promise<Response>;

function transport(replies: (request: Request) => Reply) {
  const requests: Request[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const request = { url, body: JSON.parse(String(init.body)), at: Date.now() };
    requests.push(request);
    const reply = replies(request);
    if (reply instanceof Error) throw reply;
    return reply;
  }) as unknown as typeof globalThis.fetch;
  return { fetch, requests };
}

const ok = (request: Request) => Response.json({ result: { data: { accepted: request.body.events?.length ?? 0, duplicates: 0, rejected: [] } } });
const event = testEvent;

const reporters: Reporter[] = [];
function reporter(options: Partial<ReporterOptions> & Pick<ReporterOptions, "fetch">) {
  const errors: ReporterError[] = [];
  const r = new Reporter({ url: "http://127.0.0.1:1/", apiKey: "tg_x", retryDelayMs: 5, flushIntervalMs: 10_000, onError: (e) => errors.push(e), ...options });
  reporters.push(r);
  return { r, errors };
}
afterEach(async () => {
  for (const r of reporters.splice(0)) await r.shutdown({ timeoutMs: 0 });
});

const ids = (requests: Request[]) => requests.flatMap((q) => q.body.events?.map((e) => e.id) ?? []);

describe("reporter", () => {
  it("sends full batches at once and the rest on flush, each event once", async () => {
    const t = transport(ok);
    const { r } = reporter({ fetch: t.fetch, batchSize: 3 });
    for (let i = 0; i < 7; i++) r.record(event(i));
    await r.flush();
    expect(t.requests.map((q) => q.url)).toEqual(Array(3).fill("http://127.0.0.1:1/api/trpc/ingest.batch"));
    expect(t.requests.map((q) => q.body.events!.length)).toEqual([3, 3, 1]);
    expect(ids(t.requests)).toEqual(["e0", "e1", "e2", "e3", "e4", "e5", "e6"]);
    expect(r.stats()).toEqual({ sent: 7, dropped: 0, retried: 0, rejected: 0, buffered: 0 });
  });

  it("refuses at construction an API key an HTTP header cannot carry (the docs' placeholder tg_…): which character, where, and what to do, never the key", () => {
    const t = transport(ok);
    const make = (apiKey: string) => () => new Reporter({ url: "http://127.0.0.1:1", apiKey, fetch: t.fetch, exitFlushTimeoutMs: 0 });
    expect(make("tg_…")).toThrow(
      'The Toolgate API key has "…" (U+2026) at character 4, which cannot be sent in an HTTP header. Paste the real key from Settings → API keys (tg_… in the docs is a placeholder).',
    );
    const secret = `tg_abcdefghij_${"s".repeat(43)}`;
    let message = "";
    try {
      make(`${secret}\n`)();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^The Toolgate API key has U\+000A at character 58, which cannot be sent in an HTTP header\./);
    expect(message).not.toContain("abcdefghij");
    expect(make("tg_caf\u00e9")).toThrow(/has "é" \(U\+00E9\) at character 7/);
    expect(make(secret)).not.toThrow();
    expect(t.requests).toEqual([]);
  });

  it("never throws on an event it cannot write as JSON (arguments nested 100,000 deep): it counts it rejected, says why, and sends the rest", async () => {
    const t = transport(ok);
    const { r, errors } = reporter({ fetch: t.fetch });
    const deep = JSON.parse(`${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`) as Record<string, unknown>;
    expect(() => r.record({ ...event(1), arguments: deep })).not.toThrow();
    r.record(event(2));
    await r.flush();
    expect(ids(t.requests)).toEqual(["e2"]);
    expect(r.stats()).toMatchObject({ sent: 1, rejected: 1 });
    expect(errors.map((e) => [e.kind, e.message])).toEqual([
      ["rejected", expect.stringMatching(/^The event e1 \(tool .*\) cannot be written as JSON: .*nested/)],
    ]);
  });

  it("sends a partial batch after flushIntervalMs without a flush", async () => {
    const t = transport(ok);
    const { r } = reporter({ fetch: t.fetch, flushIntervalMs: 5 });
    r.record(event(1));
    await expect.poll(() => r.stats().sent).toBe(1);
  });

  it("cuts batches by size in bytes", async () => {
    const t = transport(ok);
    const { r } = reporter({ fetch: t.fetch, maxBatchBytes: 250 });
    for (let i = 0; i < 4; i++) r.record({ ...event(i), arguments: { text: "x".repeat(100) } });
    await r.flush();
    expect(t.requests.map((q) => q.body.events!.length)).toEqual([1, 1, 1, 1]);
  });

  it("retries network errors and 5xx with the same events (same ids), reporting each failure", async () => {
    let n = 0;
    const t = transport((q) => (++n === 1 ? new TypeError("fetch failed") : n === 2 ? new Response("{}", { status: 503 }) : ok(q)));
    const { r, errors } = reporter({ fetch: t.fetch });
    r.record(event(1));
    r.record(event(2));
    await r.flush();
    expect(t.requests.map((q) => ids([q]))).toEqual([
      ["e1", "e2"],
      ["e1", "e2"],
      ["e1", "e2"],
    ]);
    expect(r.stats()).toMatchObject({ sent: 2, retried: 2, dropped: 0 });
    expect(errors.map((e) => [e.kind, e.details.willRetry])).toEqual([
      ["network", true],
      ["http", true],
    ]);
    expect(errors[0]!.message).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1 \(fetch failed\); retrying in \d+ ms/);
  });

  it("waits as long as Retry-After says after a 429", async () => {
    let n = 0;
    const t = transport((q) => (++n === 1 ? new Response("{}", { status: 429, headers: { "Retry-After": "0.3" } }) : ok(q)));
    const { r } = reporter({ fetch: t.fetch, retryDelayMs: 1 });
    r.record(event(1));
    await r.flush();
    expect(t.requests).toHaveLength(2);
    expect(t.requests[1]!.at - t.requests[0]!.at).toBeGreaterThanOrEqual(295);
  });

  it("waits by the documented rule (sdk/README.md): jittered doubling, and after a time-out at least the request's time, doubling, both capped", () => {
    const defaults = { retryDelayMs: 500, maxRetryDelayMs: 30_000 };
    expect([1, 2, 3, 7].map((n) => retryDelay(n, defaults, 0, 0))).toEqual([250, 500, 1000, 15_000]);
    expect([1, 2, 3, 7].map((n) => retryDelay(n, defaults, 0, 0.999999).toFixed(0))).toEqual(["500", "1000", "2000", "30000"]);
    expect([1, 2, 3, 4].map((n) => retryDelay(n, defaults, 10_000, 0.5))).toEqual([10_000, 20_000, 30_000, 30_000]);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs("soon")).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it("holds at most maxBuffer events and drops new ones beyond it, counted and reported once", async () => {
    let answer!: (r: Response) => void;
    const t = transport(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { r, errors } = reporter({ fetch: t.fetch, maxBuffer: 5, batchSize: 2 });
    for (let i = 0; i < 8; i++) r.record(event(i)); // the first two are in flight, still counted
    expect(r.stats()).toMatchObject({ buffered: 5, dropped: 3 });
    expect(errors.filter((e) => e.kind === "dropped")).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/buffer holds 5 events \(maxBuffer\)/);
    answer(ok(t.requests[0]!));
    await expect.poll(() => t.requests.length).toBe(2);
    answer(ok(t.requests[1]!));
    await expect.poll(() => r.stats().sent).toBe(4);
  });

  it("drops a batch the server refuses (4xx) without retrying, and counts rejected events", async () => {
    let n = 0;
    const t = transport(() =>
      ++n === 1
        ? Response.json({ error: { message: "Unknown API key tg_x_…: check that it was copied whole." } }, { status: 401 })
        : Response.json({
            result: { data: { accepted: 1, duplicates: 1, rejected: [{ index: 2, id: "e2", path: "timestamp", message: "expected an ISO 8601 date" }] } },
          }),
    );
    const { r, errors } = reporter({ fetch: t.fetch });
    r.record(event(0));
    await r.flush();
    for (let i = 0; i < 3; i++) r.record(event(i));
    await r.flush();
    expect(t.requests).toHaveLength(2);
    expect(r.stats()).toMatchObject({ sent: 2, dropped: 1, rejected: 1, retried: 0 });
    expect(errors.map((e) => e.message)).toEqual([
      "Toolgate refused a batch of 1 events (HTTP 401): Unknown API key tg_x_…: check that it was copied whole.",
      "Toolgate refused 1 of 3 events: e2: timestamp: expected an ISO 8601 date",
    ]);
  });

  it("halves a batch the server finds too large (413)", async () => {
    const t = transport((q) => (q.body.events!.length > 2 ? new Response("{}", { status: 413 }) : ok(q)));
    const { r } = reporter({ fetch: t.fetch });
    for (let i = 0; i < 5; i++) r.record(event(i));
    await r.flush();
    expect(t.requests.map((q) => q.body.events!.length)).toEqual([5, 2, 2, 1]);
    expect(r.stats().sent).toBe(5);
  });

  it("registers tool schemas before the events, and again only when they change", async () => {
    const t = transport((q) => (q.body.tools ? Response.json({ result: { data: { tools: [] } } }) : ok(q)));
    const { r } = reporter({ fetch: t.fetch });
    const tool = { name: "getloan", parameters: { type: "object", properties: {} } };
    r.registerTools([tool]);
    r.record(event(1));
    r.registerTools([tool]);
    await r.flush();
    r.registerTools([{ ...tool, description: "now described" }]);
    await r.flush();
    expect(t.requests.map((q) => q.url.split("/").pop())).toEqual(["tools.register", "ingest.batch", "tools.register"]);
  });

  it("an event names the version of its tool's schema registered when it was recorded, also once the schema changed", async () => {
    // the server's version of a schema: v1 for the first, v2 for the one with a `term` (an MCP server changed its tool)
    const versionOf = (tool: { name: string; parameters?: { properties?: object } }) => ({
      name: tool.name,
      version: "term" in (tool.parameters?.properties ?? {}) ? "v2" : "v1",
    });
    const t = transport((q) => (q.body.tools ? Response.json({ result: { data: { tools: q.body.tools.map(versionOf) } } }) : ok(q)));
    const { r } = reporter({ fetch: t.fetch });
    const before = { name: "t", parameters: { type: "object", properties: { amount: {} } } };
    r.registerTools([before]);
    r.record(event(1));
    await r.flush();
    r.record(event(2)); // v1 is known: this one is final at once
    r.registerTools([{ ...before, parameters: { type: "object", properties: { amount: {}, term: {} } } }]);
    r.record(event(3)); // recorded under v2, before the server named it
    await r.flush();
    r.registerTools([before]);
    r.record(event(4)); // back to the first schema, whose version is known
    await r.flush();
    const sent = t.requests.flatMap((q) => q.body.events ?? []).map((e) => [e.id, e.toolVersion]);
    expect(sent).toEqual([
      ["e1", "v1"],
      ["e2", "v1"],
      ["e3", "v2"],
      ["e4", "v1"],
    ]);
  });

  it("never throws into the caller: a throwing onError, then shutdown with the server down", async () => {
    const t = transport(() => new TypeError("fetch failed"));
    const r = new Reporter({
      url: "http://127.0.0.1:1",
      apiKey: "k",
      fetch: t.fetch,
      retryDelayMs: 5,
      onError: () => {
        throw new Error("callback bug");
      },
    });
    r.record(event(1));
    const started = Date.now();
    const stats = await r.shutdown({ timeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stats).toMatchObject({ sent: 0, dropped: 1, buffered: 0 });
    expect(t.requests.length).toBeGreaterThan(1);
    r.record(event(2));
    expect(r.stats().dropped).toBe(2);
  });
});

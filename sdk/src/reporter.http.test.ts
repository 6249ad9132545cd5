import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../../test/wait";
import { testEvent } from "../test/event";
import { Reporter, type ReporterOptions } from "./reporter";

// The reporter against real HTTP on 127.0.0.1: a server that keeps answering "try again later",
// and a port nothing listens on. Each test counts the requests that arrive.

type Server = { url: string; requests: number[]; close: () => Promise<void> };

/** A server answering every request with `status` and `Retry-After: retryAfter`. */
function busyServer(status: number, retryAfter: string): Promise<Server> {
  const requests: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests.push(Date.now());
      res.writeHead(status, { "content-type": "application/json", "retry-after": retryAfter });
      res.end(JSON.stringify({ error: { message: "slow down" } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );
}

/** A port that was just free on 127.0.0.1: connections to it are refused. */
async function closedPort(): Promise<string> {
  const s = await busyServer(200, "0");
  await s.close();
  return s.url;
}

const event = testEvent;

/** A Node process that records one event with a reporter of these options and ends: its exit code and how long it lived. */
async function processEndingWithOneEvent(url: string, options: Partial<ReporterOptions>): Promise<{ code: number | null; exitedAt: number }> {
  const reporterPath = path.resolve(import.meta.dirname, "reporter.ts");
  const script = path.join(mkdtempSync(path.join(tmpdir(), "toolgate-exit-")), "exit.mts");
  writeFileSync(
    script,
    `import { Reporter } from ${JSON.stringify(reporterPath)};
    const r = new Reporter({ url: ${JSON.stringify(url)}, apiKey: "tg_x", flushIntervalMs: 60000, onError: () => {}, ...${JSON.stringify(options)} });
    r.record({ id: "e1", runId: "r", timestamp: "2026-11-30T09:15:00Z", model: { name: "m" }, tool: "t", arguments: {} });`,
  );
  const tsx = path.resolve(import.meta.dirname, "../../node_modules/tsx/dist/cli.mjs");
  const child = spawn(process.execPath, [tsx, script], { stdio: ["ignore", "ignore", "inherit"] });
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { code, exitedAt: Date.now() };
}

const open: (Reporter | Server)[] = [];
afterEach(async () => {
  for (const x of open.splice(0)) await ("shutdown" in x ? x.shutdown({ timeoutMs: 0 }) : x.close());
});

function reporter(url: string, options: Partial<ReporterOptions> = {}) {
  const r = new Reporter({ url, apiKey: "tg_x", flushIntervalMs: 60_000, exitFlushTimeoutMs: 0, ...options });
  open.push(r);
  return r;
}

describe("reporter against a server that says wait", () => {
  it("shutdown honours Retry-After: 429 with Retry-After: 1 → at most two requests in 1.5 s", async () => {
    const s = await busyServer(429, "1");
    open.push(s);
    const r = reporter(s.url);
    r.record(event(1));
    const stats = await r.shutdown({ timeoutMs: 1500 });
    expect(s.requests.length).toBeGreaterThanOrEqual(1);
    expect(s.requests.length).toBeLessThanOrEqual(2);
    if (s.requests.length === 2) expect(s.requests[1]! - s.requests[0]!).toBeGreaterThanOrEqual(950);
    expect(stats).toMatchObject({ sent: 0, dropped: 1 });
  });

  it("flush honours Retry-After: 503 with Retry-After: 5 → one request in 2 s, the event kept queued", async () => {
    const s = await busyServer(503, "5");
    open.push(s);
    const r = reporter(s.url);
    r.record(event(1));
    await r.flush({ timeoutMs: 1000 });
    await r.flush({ timeoutMs: 1000 }); // a second flush inside the wait sends nothing either
    expect(s.requests).toHaveLength(1);
    expect(r.stats()).toMatchObject({ buffered: 1, dropped: 0 });
  });

  it("backs off exponentially against a closed port: a handful of attempts in 1.5 s, not hundreds", async () => {
    const url = await closedPort();
    let attempts = 0;
    const r = reporter(url, { fetch: (input, init) => (attempts++, fetch(input, init)) });
    r.record(event(1));
    await r.shutdown({ timeoutMs: 1500 });
    // first try, then waits of 250–500, 500–1000, 1000–2000 ms: at most 4 fit in 1.5 s
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(attempts).toBeLessThanOrEqual(4);
  });

  it("the exit hook honours Retry-After too: a process ending with an event queued sends at most three requests in 2.5 s", async () => {
    const s = await busyServer(429, "1");
    open.push(s);
    const { code } = await processEndingWithOneEvent(s.url, { exitFlushTimeoutMs: 2500 });
    expect(code).toBe(0);
    expect(s.requests.length).toBeGreaterThanOrEqual(1);
    expect(s.requests.length).toBeLessThanOrEqual(3);
  });
});

/** A server that never answers: it reads each request, notes when it came and how long the client kept it open, and holds it. */
function stalledServer() {
  const held: { at: number; body: string; closedAt?: number }[] = [];
  const server = http.createServer((req) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const entry: { at: number; body: string; closedAt?: number } = { at: Date.now(), body };
      held.push(entry);
      req.socket.once("close", () => (entry.closedAt = Date.now()));
    });
  });
  return new Promise<Server & { held: typeof held }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        requests: [],
        held,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );
}

describe("reporter against a slow Toolgate (requests time out)", () => {
  it("backs off from how slow it is: each re-send waits at least as long as the abandoned request, doubling; same event ids every time", async () => {
    const s = await stalledServer();
    open.push(s);
    const errors: string[] = [];
    const r = reporter(s.url, { requestTimeoutMs: 200, retryDelayMs: 20, onError: (e) => errors.push(e.message) });
    r.record(event(1));
    r.record(event(2));
    await r.flush({ timeoutMs: 1950 });
    // sent at 0, timed out at 200; waits ≥ 200 → 400–600; waits ≥ 400 → ~1000–1200; waits ≥ 800: nothing more before 1950.
    // (A backoff from retryDelayMs alone re-sent at ~220, ~460, ~720, ~1000, ~1300, ~1700: 6–7 requests.)
    expect(s.held.length).toBeGreaterThanOrEqual(2);
    expect(s.held.length).toBeLessThanOrEqual(3);
    for (let i = 1; i < s.held.length; i++) expect(s.held[i]!.at - s.held[i - 1]!.at).toBeGreaterThanOrEqual((200 + 200 * 2 ** (i - 1)) * 0.95);
    const ids = s.held.map((h) => (JSON.parse(h.body) as { events: { id: string }[] }).events.map((e) => e.id));
    expect(new Set(ids.map((x) => x.join()))).toEqual(new Set([ids[0]!.join()]));
    expect(errors[0]).toMatch(/did not answer within 200 ms \(requestTimeoutMs\); retrying in \d+ ms/);
    expect(r.stats()).toMatchObject({ buffered: 2, dropped: 0 });
  });

  it("a stalled Toolgate gets one request at a time, however many events come (what that costs the harness: npm run bench:sdk-reporter)", async () => {
    const s = await stalledServer();
    open.push(s);
    const r = reporter(s.url, { requestTimeoutMs: 300, retryDelayMs: 20, flushIntervalMs: 10, onError: () => {} });
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 100; i++) r.record(event(round * 100 + i));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // one request at a time: the reporter never has two requests open at the stalled server
    const open_ = s.held.map((h) => [h.at, h.closedAt ?? Date.now()] as const);
    for (let i = 1; i < open_.length; i++) expect(open_[i]![0]).toBeGreaterThanOrEqual(open_[i - 1]![1] - 5);
    expect(s.held.length).toBeGreaterThanOrEqual(1);
    expect(s.held.length).toBeLessThanOrEqual(3);
    expect(r.stats()).toMatchObject({ buffered: 2000, dropped: 0 });
  });

  it("shutdown keeps its deadline while a request is out: the request is given up and its events counted as dropped", async () => {
    const s = await stalledServer();
    open.push(s);
    const r = reporter(s.url, { requestTimeoutMs: 10_000, onError: () => {} });
    for (let i = 0; i < 3; i++) r.record(event(i));
    const started = Date.now();
    const stats = await r.shutdown({ timeoutMs: 300 });
    // before, it waited for the request's own timeout (10 s)
    expect(Date.now() - started).toBeLessThan(5000);
    expect(s.held).toHaveLength(1);
    expect(stats).toMatchObject({ sent: 0, dropped: 3, buffered: 0 });
    await waitFor(() => s.held[0]!.closedAt !== undefined, "the given-up request's connection to close", 5000);
  });

  it("a process ending with a request out to a stalled Toolgate exits at the exit flush's deadline, not the request's timeout", async () => {
    const s = await stalledServer();
    open.push(s);
    // a deadline long enough for the request to reach the server on a loaded machine, far below the request's timeout
    const { code, exitedAt } = await processEndingWithOneEvent(s.url, { requestTimeoutMs: 30_000, exitFlushTimeoutMs: 2000 });
    expect(code).toBe(0);
    expect(s.held).toHaveLength(1);
    // timed from the request's arrival (the process's start-up is not the reporter's): before, the process lived
    // until the request's timeout (30 s)
    expect(exitedAt - s.held[0]!.at).toBeLessThan(15_000);
  }, 40_000);
});

describe("reporter buffer in bytes", () => {
  it("holds at most maxBufferBytes of events and drops new ones past it, counted and reported", () => {
    const errors: string[] = [];
    const r = reporter("http://127.0.0.1:1", { batchSize: 1000, maxBufferBytes: 1_000_000, onError: (e) => errors.push(e.message) });
    const big = { text: "x".repeat(200_000) };
    for (let i = 0; i < 10; i++) r.record(event(i, big));
    expect(r.stats()).toMatchObject({ buffered: 4, dropped: 6 });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/1000000 bytes \(maxBufferBytes\)/);
  });

  it("defaults to 16 MiB: 200 events of 200 KB are not all held", () => {
    const r = reporter("http://127.0.0.1:1", { batchSize: 1000, onError: () => {} });
    const big = { text: "x".repeat(200_000) };
    for (let i = 0; i < 200; i++) r.record(event(i, big));
    const { buffered, dropped } = r.stats();
    const size = JSON.stringify(event(100, big)).length + 1;
    expect(buffered).toBeGreaterThanOrEqual(Math.floor((16 * 1024 * 1024) / (size + 1)));
    expect(buffered).toBeLessThanOrEqual(Math.floor((16 * 1024 * 1024) / (size - 1)));
    expect(buffered + dropped).toBe(200);
  });
});

import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { CallsFilter } from "@/contracts/metrics";
import { pool } from "@/server/db/client";
import { SESSION_COOKIE } from "@/server/services/auth/sessions";
import { streamCallsCsv } from "@/server/services/calls/call-list";
import { parseCsv } from "@/test/csv";
import { makeEvent } from "@/test/events";
import { makeProject } from "@/test/fixtures";
import { GET } from "./route";

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });

/** The route behind a real HTTP server, piped to the socket with backpressure as Next.js does. */
let server: http.Server;
let base: string;
let lastResponse: http.ServerResponse | undefined;
beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    lastResponse = res;
    const slug = decodeURIComponent(new URL(req.url!, "http://x").pathname.slice(1));
    const response = await GET(new Request(`http://127.0.0.1${req.url}`, { headers: req.headers as Record<string, string> }), {
      params: Promise.resolve({ slug }),
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const body = Readable.fromWeb(response.body as NodeWebStream<Uint8Array>);
    body.pipe(res);
    res.on("close", () => body.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await sql.end();
});

const query = (filter: Record<string, string>) => (Object.keys(filter).length ? `?${new URLSearchParams(filter)}` : "");

async function csvOver(slug: string, cookie: string, filter: Record<string, string> = {}) {
  const response = await fetch(`${base}/${slug}${query(filter)}`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return parseCsv(await response.text());
}

/** `count` calls of about 2 KB each (the arguments) under the run `run-<name>`, ids `<name>-1`, `<name>-2`, … */
const bulkCalls = (projectId: string, name: string, count: number) =>
  sql.query(
    `INSERT INTO tool_calls (project_id, id, run_id, timestamp, model_name, tool, arguments)
     SELECT $1, $2 || '-' || i, 'run-' || $2, now() - i * interval '1 ms', 'm', 'getloan', to_jsonb(repeat('x', 2000)) FROM generate_series(1, $3::int) i`,
    [projectId, name, count],
  );

/** Database connections the app's pool hands out from now on (stop() ends the watch). */
function watchConnections() {
  const clients: pg.PoolClient[] = [];
  const onAcquire = (client: pg.PoolClient) => clients.push(client);
  pool().on("acquire", onAcquire);
  return { clients, stop: () => pool().off("acquire", onAcquire) };
}
const pidOf = (client: pg.PoolClient) => (client as unknown as { processID: number }).processID;

/** The backend running a COPY on one of `clients`, if any. */
async function exportBackend(clients: pg.PoolClient[]) {
  const { rows } = await sql.query<{ pid: number; wait_event: string | null }>(
    "SELECT pid, wait_event FROM pg_stat_activity WHERE query LIKE 'COPY (SELECT%' AND state = 'active' AND pid = ANY($1)",
    [clients.map(pidOf)],
  );
  return rows[0];
}

describe("CSV export of the calls explorer", () => {
  let p: Awaited<ReturnType<typeof makeProject>>;
  let cookie: string;
  beforeAll(async () => {
    p = await makeProject();
    cookie = `${SESSION_COOKIE}=${(await p.asOwner()).token}`;
  });

  it("a paused download stops the reading from PostgreSQL (bounded buffer), and aborting it ends the query and frees the connection", async () => {
    // ~40 MB of CSV: more than the socket buffers on both sides hold
    await bulkCalls(p.project.id, "big", 20000);
    const total = 20000 * 2000;
    const watch = watchConnections();

    const request = http.get(`${base}/${p.project.slug}`, { headers: { cookie } });
    const response = await new Promise<http.IncomingMessage>((resolve) => request.on("response", resolve));
    expect(response.statusCode).toBe(200);
    await new Promise((resolve) => response.once("data", resolve));
    response.pause();

    // PostgreSQL ends up waiting to write to us: the server no longer reads from it
    await vi.waitFor(async () => expect(await exportBackend(watch.clients)).toMatchObject({ wait_event: "ClientWrite" }), { timeout: 20_000, interval: 100 });
    const backend = (await exportBackend(watch.clients))!;
    const exportClient = watch.clients.find((c) => pidOf(c) === backend.pid)!;
    const readFromDb = (exportClient as unknown as { connection: { stream: { bytesRead: number } } }).connection.stream.bytesRead;
    const sentToClient = lastResponse!.socket!.bytesWritten;
    expect(readFromDb).toBeLessThan(total);
    // what the server holds between the two sockets: the stream's high-water marks, not the export
    expect(readFromDb - sentToClient).toBeLessThan(1024 * 1024);
    watch.stop();

    request.destroy();
    await vi.waitFor(async () => expect(await exportBackend(watch.clients)).toBeUndefined(), { timeout: 10_000, interval: 100 });
    const { rows } = await sql.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [backend.pid]);
    expect(rows).toHaveLength(0);
    await sql.query("DELETE FROM tool_calls WHERE project_id = $1 AND run_id = 'run-big'", [p.project.id]);
  });

  it("an export whose client reads nothing for the idle time is cancelled and its connection freed", async () => {
    await bulkCalls(p.project.id, "idle", 5000);
    const watch = watchConnections();
    const reader = (await streamCallsCsv(p.project.id, { runId: "run-idle" }, { idleMs: 300 })).getReader();
    watch.stop();
    expect((await reader.read()).done).toBe(false);
    expect(await exportBackend(watch.clients)).toBeDefined();
    await vi.waitFor(async () => expect(await exportBackend(watch.clients)).toBeUndefined(), { timeout: 10_000, interval: 100 });
    await expect(async () => {
      for (;;) if ((await reader.read()).done) break;
    }).rejects.toThrow(/read nothing for/);
    await sql.query("DELETE FROM tool_calls WHERE project_id = $1 AND run_id = 'run-idle'", [p.project.id]);
  });

  it("at most TOOLGATE_EXPORT_MAX_CONCURRENT exports run at once; one more is answered 429 with Retry-After", async () => {
    // more than a stream's high-water mark each, so that none ends without a reader
    await bulkCalls(p.project.id, "cap", 300);
    const running = await Promise.all(Array.from({ length: 4 }, () => streamCallsCsv(p.project.id, { runId: "run-cap" })));
    const refused = await fetch(`${base}/${p.project.slug}`, { headers: { cookie } });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatch(/4 CSV exports are already running.*TOOLGATE_EXPORT_MAX_CONCURRENT/);
    await running.pop()!.cancel();
    expect((await fetch(`${base}/${p.project.slug}?runId=none`, { headers: { cookie } })).status).toBe(200);
    await Promise.all(running.map((stream) => stream.cancel()));
    await sql.query("DELETE FROM tool_calls WHERE project_id = $1 AND run_id = 'run-cap'", [p.project.id]);
  });

  it("cells that a spreadsheet would run as formulas start with a single quote", async () => {
    const hostile = ["=1+2", "+SUM(A1)", "-2+3", "@SUM(A1)", "\tTAB", "\rCR"];
    const { key } = await p.key();
    const api = (await import("@/test/fixtures")).withKey(key);
    const events = hostile.map((text, i) =>
      makeEvent({ runId: `formula-${i}`, tool: "getloan", model: { provider: text, name: "m" }, outcome: { valid: false, message: text } }),
    );
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: hostile.length });
    const [header, ...rows] = await csvOver(p.project.slug, cookie, { runId: "formula-0" });
    expect(rows).toHaveLength(1);
    for (let i = 0; i < hostile.length; i++) {
      const [, ...row] = await csvOver(p.project.slug, cookie, { runId: `formula-${i}` });
      const cell = (name: string) => row[0]![header!.indexOf(name)];
      expect(cell("message")).toBe(`'${hostile[i]}`);
      expect(cell("model_provider")).toBe(`'${hostile[i]}`);
      expect(cell("run_id")).toBe(`formula-${i}`);
    }
  });
});

describe("CSV values are portable", () => {
  it("timestamps are ISO 8601 in UTC and booleans are true/false, empty when unknown", async () => {
    const p = await makeProject();
    const cookie = `${SESSION_COOKIE}=${(await p.asOwner()).token}`;
    const { key } = await p.key();
    const api = (await import("@/test/fixtures")).withKey(key);
    const events = [
      makeEvent({ runId: "iso", step: 0, timestamp: "2026-11-30T09:15:00.123+02:00", outcome: { valid: false, category: "missing_argument", message: "m" } }),
      makeEvent({ runId: "iso", step: 1, timestamp: "2026-11-30T07:16:00Z", outcome: { valid: true } }),
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: 2 });
    const [header, ...rows] = await csvOver(p.project.slug, cookie, { runId: "iso" });
    const cell = (row: string[], column: string) => row[header!.indexOf(column)];
    const byStep = new Map(rows.map((row) => [cell(row, "step"), row]));
    expect(cell(byStep.get("0")!, "timestamp")).toBe("2026-11-30T07:15:00.123Z");
    expect(cell(byStep.get("1")!, "timestamp")).toBe("2026-11-30T07:16:00.000Z");
    expect(cell(byStep.get("0")!, "harness_valid")).toBe("false");
    expect(cell(byStep.get("1")!, "harness_valid")).toBe("true");
    expect(cell(byStep.get("0")!, "checked_valid")).toBe(""); // no schema: not checked
  });
});

describe("the explorer's list and its CSV select the same calls", () => {
  it("for every filter, on a project without schemas (unchecked calls)", async () => {
    const p = await makeProject();
    const owner = await p.asOwner();
    const cookie = `${SESSION_COOKIE}=${owner.token}`;
    const { key } = await p.key();
    const api = (await import("@/test/fixtures")).withKey(key);
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 8, minute)).toISOString();
    const events = [
      makeEvent({ runId: "r1", tool: "getloan", timestamp: at(1) }),
      makeEvent({ runId: "r1", tool: "getloan", timestamp: at(2), outcome: { valid: false, category: "missing_argument", message: "Error 422: loannumber" } }),
      makeEvent({ runId: "r1", tool: "getloan", timestamp: at(3), outcome: { valid: true } }),
      makeEvent({ runId: "r2", tool: "setrate", timestamp: at(4), model: { provider: "acme", name: "acme-small", version: "2026-11" } }),
      makeEvent({ runId: "r2", tool: "setrate", timestamp: at(5), outcome: { valid: false, category: "wrong_type", message: "100% wrong_type" } }),
    ];
    expect(await api.ingest.batch({ events })).toMatchObject({ accepted: events.length });
    const from = at(0);
    const to = at(30);

    const filters: { url: Record<string, string>; filter: CallsFilter }[] = [
      { url: {}, filter: {} },
      ...(["valid", "invalid", "unchecked"] as const).map((valid) => ({ url: { valid }, filter: { valid } })),
      { url: { tool: "setrate" }, filter: { tool: "setrate" } },
      { url: { model: "acme-small" }, filter: { model: "acme-small" } },
      { url: { modelVersion: "2026-11" }, filter: { modelVersion: "2026-11" } },
      { url: { category: "wrong_type" }, filter: { category: "wrong_type" } },
      { url: { runId: "r1" }, filter: { runId: "r1" } },
      { url: { q: "422" }, filter: { q: "422" } },
      { url: { q: "100%" }, filter: { q: "100%" } },
      { url: { disagree: "1" }, filter: { disagree: true } },
      { url: { from, to: at(3) }, filter: { from, to: at(3) } },
      { url: { valid: "valid", runId: "r1", from, to }, filter: { valid: "valid", runId: "r1", from, to } },
    ];
    const counts: Record<string, number> = {};
    for (const { url, filter } of filters) {
      const listed = await owner.calls.list({ project: p.project.slug, filter, limit: 100 });
      const [, ...csv] = await csvOver(p.project.slug, cookie, url);
      const name = JSON.stringify(url);
      expect(
        csv.map((r) => r[0]),
        name,
      ).toEqual(listed.calls.map((c) => c.id));
      counts[name] = listed.calls.length;
    }
    // three verdicts, each its own filter: the valid call, the two invalid ones and the two nobody could check
    expect(counts[JSON.stringify({ valid: "valid" })]).toBe(1);
    expect(counts[JSON.stringify({ valid: "unchecked" })]).toBe(2);
    expect(counts[JSON.stringify({ valid: "invalid" })]).toBe(2);
    expect(counts[JSON.stringify({ q: "100%" })]).toBe(1);
    // each row says its verdict in words, decided as the filter decides it (unchecked is neither valid nor invalid)
    const [header, ...rows] = await csvOver(p.project.slug, cookie, {});
    const column = (name: string) => rows.map((r) => r[header!.indexOf(name)]);
    expect(column("verdict").sort()).toEqual(["invalid", "invalid", "unchecked", "unchecked", "valid"]);
    for (const verdict of ["valid", "invalid", "unchecked"] as const) {
      const [, ...only] = await csvOver(p.project.slug, cookie, { valid: verdict });
      expect(only.map((r) => r[header!.indexOf("verdict")])).toEqual(only.map(() => verdict));
    }
    expect(column("valid").sort()).toEqual(["", "", "false", "false", "true"]);
  });
});

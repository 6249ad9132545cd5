import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, type ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createParser } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "../../server/db/client";
import { makeProject } from "../../test/fixtures";
import { httpAppForTests } from "../../test/http-app";
import { waitFor } from "../../test/wait";
import { everythingTour, notesServer, storedCalls } from "./mcp-helpers";
import { everythingOverHttp, httpGateway, type HttpGatewayProcess } from "./mcp-processes";

const app = httpAppForTests();
vi.setConfig({ testTimeout: 90_000 }); // real servers and the gateway through tsx, on a loaded machine

/** The real SDK client on the Streamable HTTP transport. */
async function httpClient(url: string, headers: Record<string, string> = {}, capabilities: ClientCapabilities = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "toolgate-http-client", version: "3.0.0" }, { capabilities });
  await client.connect(transport);
  return { client, transport };
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe("toolgate mcp --listen in front of @modelcontextprotocol/server-everything over Streamable HTTP", () => {
  let everything: Awaited<ReturnType<typeof everythingOverHttp>>;
  let gateway: HttpGatewayProcess;
  beforeAll(async () => {
    everything = await everythingOverHttp();
    gateway = await httpGateway(everything.url);
  });
  afterAll(async () => {
    await gateway?.stop();
    await everything?.stop();
  });

  it("tools, resources, prompts, progress, SSE answers and notifications behave the same through the gateway as directly", async () => {
    const direct = await httpClient(everything.url);
    const viaGateway = await httpClient(`${gateway.url}mcp`);
    const [a, b] = [await everythingTour(direct.client), await everythingTour(viaGateway.client)];
    expect(b).toMatchObject({ progressed: true, logged: true });
    expect(b).toEqual(a);
    expect(viaGateway.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // an invalid call is the gateway's own answer here, and the server's own refusal directly
    const refused = await viaGateway.client.callTool({ name: "get-sum", arguments: { a: "2", b: 3 } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Error: 'a' must be a number, you sent the string "2"/);
    await direct.client.close();
    await viaGateway.client.close();
  });

  it("passes a sampling request from the server to the client and its answer back, as directly", async () => {
    const sample = async (url: string) => {
      const { client } = await httpClient(url, {}, { sampling: {} });
      const asked: string[] = [];
      client.setRequestHandler(CreateMessageRequestSchema, (request) => {
        asked.push(JSON.stringify(request.params.messages));
        return { model: "test-model", role: "assistant", content: { type: "text", text: "sampled answer" } };
      });
      const tool = (await client.listTools()).tools.map((t) => t.name).find((name) => name.includes("sampling"))!;
      const result = await client.callTool({ name: tool, arguments: { prompt: "Say hi", maxTokens: 10 } });
      await client.close();
      return { tool, asked, result };
    };
    const [direct, through] = [await sample(everything.url), await sample(`${gateway.url}mcp`)];
    expect(through.asked).toHaveLength(1);
    expect(through.asked[0]).toContain("Say hi");
    expect(JSON.stringify(through.result)).toContain("sampled answer");
    expect(through).toEqual(direct);
  });

  it("resumes an SSE answer from Last-Event-ID through the gateway", async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${gateway.url}mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: JSON.stringify(body),
      });
    const init = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const session = init.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    await init.text();
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);

    const call = await post(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 }, _meta: { progressToken: "p" } },
      },
      headers,
    );
    expect(call.headers.get("content-type")).toContain("text/event-stream");
    const events = sseEvents(await call.text());
    expect(events.map((e) => JSON.parse(e.data).method ?? "result")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "result",
    ]);

    const controller = new AbortController();
    const replay = await fetch(`${gateway.url}mcp`, {
      headers: { ...headers, accept: "text/event-stream", "last-event-id": events[0]!.id! },
      signal: controller.signal,
    });
    expect(replay.status).toBe(200);
    const reader = replay.body!.getReader();
    let replayed = "";
    while (sseEvents(replayed).length < 3) replayed += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(sseEvents(replayed).map((e) => e.data)).toEqual(events.slice(1).map((e) => e.data));
  });
});

describe("toolgate mcp --listen in front of a server whose GET stream stays quiet", () => {
  it("passes the stream's headers on at once, and ends the upstream request when the client goes away", async () => {
    let upstreamClosed = false;
    const quiet = createServer((req, res) => {
      req.on("close", () => (upstreamClosed = true));
      res.writeHead(200, { "content-type": "text/event-stream", "x-stream": "quiet" }).flushHeaders(); // and nothing more
    });
    await new Promise<void>((resolve) => quiet.listen(0, "127.0.0.1", resolve));
    const gateway = await httpGateway(`http://127.0.0.1:${(quiet.address() as AddressInfo).port}/mcp`);
    const controller = new AbortController();
    const stream = await fetch(`${gateway.url}mcp`, { headers: { accept: "text/event-stream" }, signal: controller.signal });
    expect([stream.status, stream.headers.get("x-stream")]).toEqual([200, "quiet"]);
    expect(upstreamClosed).toBe(false);
    controller.abort();
    await waitFor(() => upstreamClosed, "the upstream GET to end after the client left");
    expect(gateway.stderr()).not.toMatch(/failed/);
    await gateway.stop();
    await new Promise((resolve) => quiet.close(resolve));
  });
});

describe("toolgate mcp --listen in front of an SDK server that requires Authorization", () => {
  it("passes Authorization through untouched (never logging it), refuses an invalid call without forwarding it, and Toolgate holds every call", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const token = "note-secret-5f1c";
    const notes = await notesServer({ token });
    const gateway = await httpGateway(notes.url, [], { TOOLGATE_URL: app.app.url, TOOLGATE_API_KEY: key });
    const { client, transport } = await httpClient(`${gateway.url}mcp`, { authorization: `Bearer ${token}` });

    const missing = await client.callTool({ name: "add_note", arguments: { title: "groceries" } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe("Error: 'body' is required by add_note and was not sent. Add 'body' (string).");
    const corrected = await client.callTool({ name: "add_note", arguments: { title: "groceries", body: "milk" } });
    expect(text(corrected)).toBe("added groceries");
    const sessionId = transport.sessionId!;
    await transport.terminateSession(); // DELETE through the gateway
    await client.close();

    expect(notes.calls).toEqual([{ title: "groceries", body: "milk" }]); // the refused call never reached the server
    expect(notes.seen.some((s) => s.rpcMethods.includes("tools/list"))).toBe(true); // the gateway's own listing…
    expect(notes.seen.map((s) => s.authorization)).toEqual(notes.seen.map(() => `Bearer ${token}`)); // …and every request carried it as sent
    expect(notes.seen.map((s) => s.httpMethod)).toContain("DELETE");

    const calls = await storedCalls(p.project.id, 2, `both calls in Toolgate (the gateway said: ${gateway.stderr()})`);
    expect(await gateway.stop()).toBe(0);
    expect(gateway.stderr()).not.toContain(token);
    expect(calls.map((c) => [c.tool, c.runId, c.step, c.valid, c.category, c.resultStatus])).toEqual([
      ["notes-server/add_note", sessionId, 0, false, "missing_argument", null], // refused: never ran, no result
      ["notes-server/add_note", sessionId, 1, true, null, "ok"],
    ]);
    expect(calls[1]!.correctsId).toBe(calls[0]!.id);
    expect(calls[1]!.resultSummary).toBe("added groceries");
    expect(calls[0]!.metadata).toMatchObject({ mcp_server: "notes-server", mcp_server_version: "2.1.0", mcp_client: "toolgate-http-client" });
    const schema = await prisma().toolDefinition.findFirst({ where: { projectId: p.project.id, name: "notes-server/add_note" } });
    expect(schema).toMatchObject({ source: "mcp:notes-server" });
    await notes.close();
  });

  it("answers 401 from the server as it is, and works with SSE answers too", async () => {
    const notes = await notesServer({ token: "t0k", sse: true });
    const gateway = await httpGateway(notes.url);
    const refusedDirectly = await httpClient(notes.url, { authorization: "Bearer wrong" }).catch((error: Error) => error);
    const refusedThrough = await httpClient(`${gateway.url}mcp`, { authorization: "Bearer wrong" }).catch((error: Error) => error);
    expect(refusedThrough).toMatchObject({ code: 401 });
    expect(refusedThrough).toEqual(refusedDirectly);
    const { client } = await httpClient(`${gateway.url}mcp`, { authorization: "Bearer t0k" });
    expect((await client.callTool({ name: "add_note", arguments: { title: 1, body: "x" } })).isError).toBe(true);
    expect(text(await client.callTool({ name: "add_note", arguments: { title: "a", body: "b" } }))).toBe("added a");
    await client.close();
    await gateway.stop();
    await notes.close();
    expect(notes.calls).toEqual([{ title: "a", body: "b" }]);
  });
});

/** The events of an SSE body (id and data), the empty priming events left out. */
function sseEvents(body: string): { id?: string; data: string }[] {
  const events: { id?: string; data: string }[] = [];
  const parser = createParser({ onEvent: (event) => event.data !== "" && events.push({ ...(event.id ? { id: event.id } : {}), data: event.data }) });
  parser.feed(body);
  return events;
}

import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { prisma } from "../../server/db/client";
import type { ToolCall } from "../../server/db/generated/client";
import { waitFor } from "../../test/wait";

/**
 * What a client sees of @modelcontextprotocol/server-everything's features (tools, structured and
 * image content, progress, resources, prompts, logging notifications, ping): the gateway tests
 * compare it through the gateway and directly, over stdio and over Streamable HTTP.
 */
export async function everythingTour(client: Client) {
  const progress: number[] = [];
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.level)));
  const tools = (await client.listTools()).tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema }));
  const echo = await client.callTool({ name: "echo", arguments: { message: "hi" } });
  const sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
  const structured = await client.callTool({ name: "get-structured-content", arguments: { location: "New York" } });
  const image = await client.callTool({ name: "get-tiny-image", arguments: {} });
  const long = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }, undefined, {
    onprogress: (p) => void progress.push(p.progress),
  });
  const resources = (await client.listResources()).resources.map((r) => r.uri);
  const resource = await client.readResource({ uri: resources[0]! });
  const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
  const prompt = await client.getPrompt({ name: "simple-prompt" });
  const args = await client.getPrompt({ name: "args-prompt", arguments: { city: "Paris" } });
  await client.setLoggingLevel("debug");
  await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
  await waitFor(() => logs.length > 0, "a log notification", 10_000);
  const ping = await client.ping();
  // how many progress notifications arrive before the result is up to the server's timers, on either path
  return {
    tools,
    echo,
    sum,
    structured,
    image,
    long,
    progressed: progress.length > 0,
    resources,
    resource,
    prompts,
    prompt,
    args,
    ping,
    logged: logs.length > 0,
  };
}

/** The project's calls in step order, once `count` of them are stored. */
export async function storedCalls(projectId: string, count: number, what: string): Promise<ToolCall[]> {
  let calls: ToolCall[] = [];
  await waitFor(async () => {
    calls = await prisma().toolCall.findMany({ where: { projectId }, orderBy: { step: "asc" } });
    return calls.length === count;
  }, what).catch((error: Error) => {
    throw new Error(`${error.message}; stored: ${JSON.stringify(calls.map((c) => [c.tool, c.step, c.valid]))}`);
  });
  return calls;
}

type Seen = { httpMethod: string; rpcMethods: string[]; authorization: string | undefined };

/**
 * A small MCP server written with the SDK (`McpServer` on `StreamableHTTPServerTransport`, JSON
 * answers unless `sse`), on 127.0.0.1: one `add_note` tool, an Authorization it requires when
 * `token` is set, and a record of every request it got (`seen`) and every call its tool ran (`calls`).
 * With `outcomes`, two more tools: `find_note` answers `isError` (no such note), `slow_note` waits `ms`.
 */
export async function notesServer(options: { token?: string; sse?: boolean; outcomes?: boolean } = {}) {
  const seen: Seen[] = [];
  const calls: { title: string; body: string }[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const rpcMethods = (Array.isArray(body) ? body : [body]).map((m) => String((m as { method?: string } | undefined)?.method ?? "-"));
      seen.push({ httpMethod: req.method!, rpcMethods, authorization: req.headers.authorization });
      if (options.token && req.headers.authorization !== `Bearer ${options.token}`) return void res.writeHead(401).end();
      const sessionId = req.headers["mcp-session-id"] as string | undefined;
      let transport = sessionId ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId) return void res.writeHead(404).end();
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: !options.sse,
          onsessioninitialized: (id) => void transports.set(id, created),
        });
        const server = new McpServer({ name: "notes-server", version: "2.1.0" });
        server.registerTool("add_note", { description: "Adds a note.", inputSchema: { title: z.string(), body: z.string() } }, (args) => {
          calls.push(args);
          return { content: [{ type: "text", text: `added ${args.title}` }] };
        });
        if (options.outcomes) {
          server.registerTool("find_note", { description: "Finds a note by its title.", inputSchema: { title: z.string() } }, (args) => ({
            content: [{ type: "text", text: `Error: no note titled '${args.title}'. Titles are case-sensitive.` }],
            isError: true,
          }));
          server.registerTool("slow_note", { description: "Answers after ms milliseconds.", inputSchema: { ms: z.number() } }, async (args) => {
            await new Promise((resolve) => setTimeout(resolve, args.ms));
            return { content: [{ type: "text", text: `waited ${args.ms} ms` }] };
          });
        }
        await server.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    calls,
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

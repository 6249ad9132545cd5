import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolgateEvent } from "./event";
import { withToolgate } from "./mcp-server";

describe("withToolgate(mcpServer)", () => {
  it("refuses an invalid call inside a real MCP SDK server before its handler runs, and records every call", async () => {
    const ran: string[] = [];
    const events: ToolgateEvent[] = [];
    const server = new McpServer({ name: "notes", version: "2.0.0" });
    server.registerTool("add_note", { description: "Adds a note", inputSchema: { title: z.string(), stars: z.number().int().max(5) } }, (args) => {
      ran.push(args.title);
      return { content: [{ type: "text", text: `added ${args.title}` }] };
    });
    withToolgate(server, { onEvent: (event) => void events.push(event) });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "inspector", version: "0.1" });
    await client.connect(clientSide);

    const refused = await client.callTool({ name: "add_note", arguments: { title: "x", stars: 9 } });
    expect(refused).toEqual({ content: [{ type: "text", text: "Error: 'stars' must be at most 5, you sent 9." }], isError: true });
    expect(ran).toEqual([]);
    const done = await client.callTool({ name: "add_note", arguments: { title: "x", stars: 5 } });
    expect(done.content).toEqual([{ type: "text", text: "added x" }]);
    expect(ran).toEqual(["x"]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add_note"]);
    await client.close();

    expect(events.map((e) => [e.tool, e.step, e.outcome?.valid, e.result?.status])).toEqual([
      ["notes/add_note", 0, false, undefined], // refused: it never ran, so it has no result
      ["notes/add_note", 1, true, "ok"],
    ]);
    expect(events[1]!.correctsId).toBe(events[0]!.id);
    expect(events[0]!.model).toEqual({ name: "inspector", version: "0.1" });
  });
});

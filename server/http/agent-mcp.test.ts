import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { lintTools, scoreTools } from "../../isomorphic/definition-lint";
import { agentMcpServer } from "./agent-mcp";

// Toolgate's MCP server lints its own tools as it lints a project's: every definition it sends in
// tools/list takes the top score (docs/agents.md). Listing the tools reads nothing, so no caller is needed.

describe("Toolgate's MCP server's own tool definitions", () => {
  it("pass Toolgate's definition lint with the top score, every finding of every severity", async () => {
    const server = agentMcpServer({} as Parameters<typeof agentMcpServer>[0], { origin: "http://localhost:3000", project: "demo" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "lint", version: "1" });
    await client.connect(clientSide);
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.length).toBeGreaterThanOrEqual(8);
    const results = lintTools(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema })));
    expect(results.filter((r) => r.findings.length).map((r) => [r.tool, r.findings.map((f) => `${f.kind} ${f.path}`)])).toEqual([]);
    expect(scoreTools(results).score).toBe(100);
  });
});

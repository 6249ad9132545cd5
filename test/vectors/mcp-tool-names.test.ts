import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { McpGateway } from "@/sdk/src/mcp";

// How an MCP server's tools are named in Toolgate (`<namespace>/<tool>`), as cases both SDKs are held to:
// this test drives the gateway (`toolgate mcp` and withToolgate), sdk-python/tests/test_mcp_names.py the
// Python middlewares' McpGate. A case added to the file is checked in both languages.
type Case = { why: string; namespace?: string; announced: "initialize" | "meta" | "nothing"; serverInfo?: unknown; tool: string; name: string };
const CASES = JSON.parse(readFileSync(path.join(import.meta.dirname, "mcp-tool-names.json"), "utf8")) as Case[];
const encode = (message: unknown) => new TextEncoder().encode(JSON.stringify(message));

describe("the MCP tool names (test/vectors/mcp-tool-names.json)", () => {
  it("are read whole and reach each way a server names itself", () => {
    expect(CASES.length).toBeGreaterThan(15);
    expect(new Set(CASES.map((c) => c.announced))).toEqual(new Set(["initialize", "meta", "nothing"]));
  });

  it.each(CASES.map((c) => [c.why, c] as const))("%s", (_, c) => {
    const gateway = new McpGateway({
      toClient: () => {},
      toServer: () => {},
      log: () => {},
      reporter: null,
      ...(c.namespace === undefined ? {} : { namespace: c.namespace }),
    });
    if (c.announced === "initialize") {
      gateway.fromClient(encode({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }));
      const serverInfo = "serverInfo" in c ? { serverInfo: c.serverInfo } : {};
      gateway.fromServer(encode({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: {}, ...serverInfo } }));
    } else if (c.announced === "meta") {
      gateway.fromServer(encode({ jsonrpc: "2.0", id: 1, result: { tools: [], _meta: { "io.modelcontextprotocol/serverInfo": c.serverInfo } } }));
    }
    expect(gateway.toolgateName(c.tool)).toBe(c.name);
  });
});

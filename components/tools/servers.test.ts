import { describe, expect, it } from "vitest";
import { mcpServerOf, serverNames, serversByTool, shownUnder } from "./servers";

describe("MCP servers of tools", () => {
  const versions = [
    { name: "fs/read_file", source: "mcp:secure-filesystem-server" },
    { name: "fs/read_file", source: "api" }, // an older version, registered by hand: the newest decides
    { name: "memory/create_entities", source: "mcp:memory-server" },
    { name: "search", source: "api" },
    { name: "trace_tool", source: "otlp" },
  ];
  const servers = serversByTool(versions);

  it("reads the server from the newest version's mcp: source", () => {
    expect(mcpServerOf("mcp:notes")).toBe("notes");
    expect(mcpServerOf("mcp:")).toBeNull();
    expect(mcpServerOf("api")).toBeNull();
    expect([...servers]).toEqual([
      ["fs/read_file", "secure-filesystem-server"],
      ["memory/create_entities", "memory-server"],
      ["search", null],
      ["trace_tool", null],
    ]);
    expect(serverNames(servers)).toEqual(["memory-server", "secure-filesystem-server"]);
  });

  it("filters to one server's tools, or shows all without a filter", () => {
    const tools = ["fs/read_file", "memory/create_entities", "search", "never_registered"];
    expect(tools.filter(shownUnder(servers, "memory-server"))).toEqual(["memory/create_entities"]);
    expect(tools.filter(shownUnder(servers, undefined))).toEqual(tools);
    expect(tools.filter(shownUnder(servers, "no-such-server"))).toEqual([]);
  });
});

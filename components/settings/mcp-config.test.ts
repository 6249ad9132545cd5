import { describe, expect, it } from "vitest";
import { mcpConfigs } from "./mcp-config";

describe("mcpConfigs", () => {
  it("puts toolgate mcp in front of the server in each client's shape, with this project's address", () => {
    const configs = mcpConfigs("https://toolgate.example.com", "tg_…");
    const claude = JSON.parse(configs.claude) as { mcpServers: { filesystem: { command: string; args: string[]; env: Record<string, string> } } };
    expect(claude.mcpServers.filesystem).toEqual({
      command: "npx",
      args: ["-y", "-p", "@toolgate/sdk", "toolgate", "mcp", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/path/to/folder"],
      env: { TOOLGATE_URL: "https://toolgate.example.com", TOOLGATE_API_KEY: "tg_…" },
    });
    expect(JSON.parse(configs.cursor)).toEqual(claude);
    expect(JSON.parse(configs.vscode)).toEqual({ servers: { filesystem: { type: "stdio", ...claude.mcpServers.filesystem } } });
    expect(configs.stdio).toContain("TOOLGATE_URL=https://toolgate.example.com TOOLGATE_API_KEY=tg_… \\\n  npx -y -p @toolgate/sdk toolgate mcp -- npx");
  });

  it("runs the Streamable HTTP gateway in front of a remote server, with this project's address, and points the client at it", () => {
    const configs = mcpConfigs("https://toolgate.example.com", "tg_…");
    expect(configs.remoteGateway).toBe(
      "TOOLGATE_URL=https://toolgate.example.com TOOLGATE_API_KEY=tg_… \\\n  npx -y -p @toolgate/sdk toolgate mcp --listen 127.0.0.1:8808 --upstream https://mcp.example.com/mcp",
    );
    expect(JSON.parse(configs.remoteClient)).toEqual({ mcpServers: { remote: { url: "http://127.0.0.1:8808/mcp" } } });
  });
});

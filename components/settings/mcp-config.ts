/** The server the examples put behind the gateway. */
const EXAMPLE_SERVER = ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/path/to/folder"];
const GATEWAY = ["-y", "-p", "@toolgate/sdk", "toolgate", "mcp", "--"];

/**
 * `toolgate mcp` in each MCP client's configuration (docs/mcp.md), for this project's address:
 * Claude Desktop and Cursor read `mcpServers`, VS Code's `.vscode/mcp.json` reads `servers`, any
 * other stdio client runs the command line.
 */
export function mcpConfigs(origin: string, key: string) {
  const env = { TOOLGATE_URL: origin, TOOLGATE_API_KEY: key };
  const server = { command: "npx", args: [...GATEWAY, ...EXAMPLE_SERVER], env };
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const mcpServers = json({ mcpServers: { filesystem: server } });
  return {
    claude: mcpServers,
    cursor: mcpServers,
    vscode: json({ servers: { filesystem: { type: "stdio", ...server } } }),
    stdio: `TOOLGATE_URL=${origin} TOOLGATE_API_KEY=${key} \\\n  npx ${[...GATEWAY, ...EXAMPLE_SERVER].join(" ")}`,
  };
}

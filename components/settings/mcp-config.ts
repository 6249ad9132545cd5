/** The server the examples put behind the gateway. */
const EXAMPLE_SERVER = ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/path/to/folder"];
/** `npx` runs the gateway from the published SDK; the stdio server's command goes after "--". */
const GATEWAY = ["-y", "-p", "@toolgate/sdk", "toolgate", "mcp"];
/** The remote server the examples put behind the Streamable HTTP gateway, and where that gateway listens. */
const EXAMPLE_UPSTREAM = "https://mcp.example.com/mcp";
const LISTEN = "127.0.0.1:8808";

/**
 * `toolgate mcp` in each MCP client's configuration (docs/mcp.md), for this project's address:
 * Claude Desktop and Cursor read `mcpServers`, VS Code's `.vscode/mcp.json` reads `servers`, any
 * other stdio client runs the command line. A remote server (Streamable HTTP) gets the gateway as
 * a process of its own (`--listen … --upstream URL`), and the client is pointed at it.
 */
export function mcpConfigs(origin: string, key: string) {
  const env = { TOOLGATE_URL: origin, TOOLGATE_API_KEY: key };
  const args = [...GATEWAY, "--", ...EXAMPLE_SERVER];
  const server = { command: "npx", args, env };
  /** The shell line that runs npx with the two variables. */
  const shell = (npxArgs: string[]) => `TOOLGATE_URL=${origin} TOOLGATE_API_KEY=${key} \\\n  npx ${npxArgs.join(" ")}`;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const mcpServers = json({ mcpServers: { filesystem: server } });
  return {
    claude: mcpServers,
    cursor: mcpServers,
    vscode: json({ servers: { filesystem: { type: "stdio", ...server } } }),
    stdio: shell(args),
    remoteGateway: shell([...GATEWAY, "--listen", LISTEN, "--upstream", EXAMPLE_UPSTREAM]),
    remoteClient: json({ mcpServers: { remote: { url: `http://${LISTEN}/mcp` } } }),
  };
}

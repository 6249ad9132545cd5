import { serveAgentMcp } from "@/server/http/agent-mcp";

export const dynamic = "force-dynamic";

// Toolgate's own MCP server over Streamable HTTP, for coding agents (docs/agents.md).
export { serveAgentMcp as GET, serveAgentMcp as POST, serveAgentMcp as DELETE };

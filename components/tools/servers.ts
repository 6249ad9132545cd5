/**
 * Which MCP server a tool comes from, read from its newest schema version's source
 * (`mcp:<serverInfo.name>`, written by the gateway, docs/mcp.md), for the tools page's column and
 * its filter by server.
 */

/** The server's name in a schema version's source, or null for a schema not read from an MCP server. */
export const mcpServerOf = (source: string): string | null => (source.startsWith("mcp:") && source.length > 4 ? source.slice(4) : null);

/** tool name → the MCP server of its newest version (versions newest first per name, as tools.list answers). */
export function serversByTool(versions: readonly { name: string; source: string }[]): Map<string, string | null> {
  const servers = new Map<string, string | null>();
  for (const v of versions) if (!servers.has(v.name)) servers.set(v.name, mcpServerOf(v.source));
  return servers;
}

/** The MCP servers that feed the project, sorted. */
export const serverNames = (servers: Map<string, string | null>): string[] => [...new Set([...servers.values()].filter((s): s is string => s !== null))].sort();

/** Whether a tool is shown under the filter: every tool without one, else the server's tools only. */
export const shownUnder = (servers: Map<string, string | null>, filter: string | undefined) => (tool: string) =>
  filter === undefined || servers.get(tool) === filter;

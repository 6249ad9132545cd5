/**
 * DNS-rebinding protection for an MCP endpoint, as the MCP SDK servers do it: which `Host` and
 * `Origin` a request may carry. The SDK's HTTP gateway (sdk/src/mcp-http.ts) checks both; the
 * app's own MCP server (server/http/agent-mcp.ts) checks `Origin`, which the transport's spec
 * says a server MUST validate (403 when it is present and invalid). docs/mcp.md, docs/agents.md.
 */

/** The names a Host header or an Origin may carry by default: this machine's (the SDK servers' default list). */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * A request whose `Host` names a host not in `hosts`, or whose `Origin` (sent by browsers) is not
 * allowed by `origins` (see originRefusal), is refused. Hosts compare by name without the port.
 * Returns the reason to refuse, or null.
 */
export function rebindingRefusal(host: string | undefined, origin: string | undefined, hosts: readonly string[], origins: readonly string[]): string | null {
  if (!host) return "Missing Host header";
  const hostname = hostnameOf(`http://${host}`);
  if (hostname === null) return `Invalid Host header: ${host.slice(0, 200)}`;
  if (!hosts.includes(hostname)) return `Invalid Host: ${hostname.slice(0, 200)}`;
  return originRefusal(origin, origins);
}

/**
 * Whether an `Origin` may come in: none (not a browser), or one `origins` allows, by its full
 * `scheme://host[:port]` when the list entry has a scheme, else by its host name (any scheme and
 * port). Returns the reason to refuse, or null.
 */
export function originRefusal(origin: string | undefined, origins: readonly string[]): string | null {
  if (origin === undefined) return null;
  const originHost = hostnameOf(origin);
  if (originHost === null) return `Invalid Origin header: ${origin.slice(0, 200)}`;
  const full = new URL(origin).origin;
  if (!origins.some((allowed) => (allowed.includes("://") ? allowed === full : allowed === originHost))) return `Invalid Origin: ${full.slice(0, 200)}`;
  return null;
}

function hostnameOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.hostname === "" ? null : parsed.hostname.toLowerCase();
  } catch {
    return null;
  }
}

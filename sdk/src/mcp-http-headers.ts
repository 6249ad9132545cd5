/**
 * What the HTTP gateway (mcp-http.ts) decides from a request's or an answer's headers alone: which
 * headers go on (RFC 9110 §7.6.1), and whether a request may come in at all (DNS rebinding).
 * docs/mcp.md.
 */

/**
 * Never passed on either way: they describe one connection, not the message (RFC 9110 §7.6.1 and
 * the fields it names), or the gateway sets them itself (Host, Content-Length, the encodings).
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "content-encoding",
  "accept-encoding",
  "expect",
]);

/**
 * A message's headers, each line as it came (repeated ones, Set-Cookie included), without the
 * hop-by-hop ones: the fixed list and every field the message's own `Connection` names (§7.6.1:
 * "a proxy or gateway MUST parse a received Connection header field … and remove … each connection
 * option"), whatever their case and however many `Connection` lines there are.
 */
export function passedOn(headers: Record<string, string[] | undefined>): Record<string, string | string[]> {
  const named = new Set(
    (headers.connection ?? [])
      .flatMap((line) => line.split(","))
      .map((token) => token.trim().toLowerCase())
      .filter(Boolean),
  );
  const kept: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(headers)) if (values && !HOP_BY_HOP.has(name) && !named.has(name)) kept[name] = values;
  return kept;
}

/** The names a Host header or an Origin may carry by default: this machine's (the SDK servers' default list). */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/**
 * DNS-rebinding protection, as the MCP SDK servers do it: a request whose `Host` names a host not in
 * `hosts`, or whose `Origin` (sent by browsers) names one not in `origins`, is refused with 403
 * before anything goes to the server. Hosts compare by name without the port; an origin by its
 * full `scheme://host[:port]` when the list entry has a scheme, else by its host name. Returns the
 * reason to refuse, or null.
 */
export function rebindingRefusal(host: string | undefined, origin: string | undefined, hosts: readonly string[], origins: readonly string[]): string | null {
  if (!host) return "Missing Host header";
  const hostname = hostnameOf(`http://${host}`);
  if (hostname === null) return `Invalid Host header: ${host.slice(0, 200)}`;
  if (!hosts.includes(hostname)) return `Invalid Host: ${hostname.slice(0, 200)}`;
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

/**
 * What the HTTP gateway (mcp-http.ts) decides from a request's or an answer's headers alone: which
 * headers go on (RFC 9110 §7.6.1). Whether a request may come in at all (DNS rebinding) is
 * isomorphic/rebinding.ts, shared with the app's own MCP server. docs/mcp.md.
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

/**
 * Fronting a server protected by OAuth (the MCP authorization specification, 2025-06-18 and
 * 2025-11-25, and the 2025-03-26 fallbacks): the client must be able to discover, from the
 * gateway's own URL, how to get a token for it. The HTTP gateway (mcp-http.ts) therefore
 *
 * - sends the discovery and OAuth endpoints that live at the server's origin — `/.well-known/…`,
 *   and `/authorize`, `/token`, `/register` (the 2025-03-26 default endpoints) — to the same path
 *   at the upstream origin, untouched, rather than to the MCP endpoint;
 * - rewrites `resource_metadata` in the server's `WWW-Authenticate` to the gateway's own
 *   protected-resource-metadata URL, and the `resource` in that metadata (RFC 9728) to the
 *   gateway's URL, because the client checks that `resource` names the server it connects to.
 *
 * Everything else — the authorization servers, their metadata, the tokens — goes through unread.
 * docs/mcp.md ("Servers behind OAuth").
 */

const PRM_PATH = "/.well-known/oauth-protected-resource";

/** Paths the gateway sends to the same path at the upstream origin instead of the MCP endpoint. */
export function isOriginPath(pathname: string): boolean {
  return pathname.startsWith("/.well-known/") || pathname === "/authorize" || pathname === "/token" || pathname === "/register";
}

export const isProtectedResourceMetadata = (pathname: string) => pathname === PRM_PATH || pathname.startsWith(`${PRM_PATH}/`);

/**
 * Where a protected-resource-metadata request for the gateway goes upstream: the URL the server
 * itself advertised in its last `WWW-Authenticate` (`advertised`), else RFC 9728's well-known URL
 * for the upstream endpoint (the path-inserted form when the client asked for that form, as the
 * spec has clients try it first).
 */
export function upstreamMetadataUrl(requestPath: string, upstream: URL, advertised: string | null): URL {
  if (advertised) return new URL(advertised);
  const suffix = requestPath === PRM_PATH ? "" : upstream.pathname === "/" ? "" : upstream.pathname;
  return new URL(`${PRM_PATH}${suffix}`, upstream.origin);
}

/** The resource_metadata URL a `WWW-Authenticate` value names, if any. */
export function advertisedMetadata(values: string[] | undefined): string | null {
  for (const value of values ?? []) {
    const match = /resource_metadata="([^"]*)"/i.exec(value);
    if (match) return match[1]!;
  }
  return null;
}

/**
 * The `WWW-Authenticate` values with `resource_metadata` pointing at the gateway's own metadata URL
 * for the endpoint the client used (`gateway`: its origin, `clientPath`: the path it posted to).
 */
export function rewriteChallenge(values: string[], gateway: string, clientPath: string): string[] {
  const own = `${gateway}${PRM_PATH}${clientPath === "/" ? "" : clientPath}`;
  return values.map((value) => value.replace(/(resource_metadata=)"[^"]*"/gi, `$1"${own}"`));
}

/**
 * The upstream's protected-resource metadata with `resource` naming the gateway: the gateway's
 * origin and the path the client asked the metadata for (the path-inserted form), else the
 * upstream resource's own path. Only a `resource` that names the upstream endpoint (its origin, and
 * a path the endpoint's starts with, RFC 9728 §3.3) is rewritten: metadata naming another server is
 * passed on as it came, for the client to refuse as it would directly. So is a body that is not a
 * JSON object.
 */
export function rewriteMetadata(body: string, gateway: string, requestPath: string, upstream: URL): string {
  let metadata: unknown;
  try {
    metadata = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) return body;
  const record = metadata as Record<string, unknown>;
  if (typeof record.resource !== "string" || !namesEndpoint(record.resource, upstream)) return body;
  let path = requestPath.slice(PRM_PATH.length);
  if (path === "") {
    try {
      path = new URL(record.resource).pathname;
    } catch {
      path = "/";
    }
  }
  record.resource = `${gateway}${path === "" ? "/" : path}`;
  return JSON.stringify(record);
}

/** Whether a protected resource's identifier covers the endpoint: same origin, and the endpoint's path under the resource's. */
function namesEndpoint(resource: string, endpoint: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  const slash = (path: string) => (path.endsWith("/") ? path : `${path}/`);
  return url.origin === endpoint.origin && slash(endpoint.pathname).startsWith(slash(url.pathname));
}

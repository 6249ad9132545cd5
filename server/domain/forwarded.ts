/**
 * The origin a request came to. `X-Forwarded-Proto` and `X-Forwarded-Host` are whatever the
 * client wrote unless a proxy in front rewrites them, so they count only when the operator
 * says such a proxy exists (TOOLGATE_TRUST_PROXY, `trustedProxies` > 0). Without one, the
 * app is reached directly over plain http (`next start` has no TLS; Next.js itself copies a
 * client's X-Forwarded-Proto into the request URL, so that cannot be trusted either), at the
 * `Host` it was sent to.
 */
export function requestOrigin(headers: Headers, trustedProxies: number): { proto: "http" | "https"; host: string } {
  const first = (name: string) => headers.get(name)?.split(",")[0]?.trim() || undefined;
  const proxied = trustedProxies > 0;
  const proto = proxied && first("x-forwarded-proto")?.toLowerCase() === "https" ? "https" : "http";
  const host = (proxied ? first("x-forwarded-host") : undefined) ?? headers.get("host") ?? "localhost";
  return { proto, host };
}

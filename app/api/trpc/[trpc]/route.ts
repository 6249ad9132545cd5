import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { whileRequestOpen } from "@/server/db/cancel";
import { crossSiteRefusal } from "@/server/domain/cross-site";
import { env } from "@/server/env";
import { readCookie, SESSION_COOKIE } from "@/server/services/auth/sessions";
import { readLimited } from "@/server/services/http/read-limited";
import { createContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

/** An answer in tRPC's error shape, for refusals made before tRPC reads the request. */
function refusal(httpStatus: 403 | 413, message: string) {
  const code = httpStatus === 413 ? { rpc: -32013, name: "PAYLOAD_TOO_LARGE" } : { rpc: -32003, name: "FORBIDDEN" };
  return Response.json({ error: { message, code: code.rpc, data: { code: code.name, httpStatus } } }, { status: httpStatus });
}

function tooLarge(limit: number) {
  const mb = (limit / 1024 / 1024).toFixed(limit % (1024 * 1024) ? 1 : 0);
  return refusal(
    413,
    `Request body over the limit of ${mb} MB (${limit} bytes): send fewer events per ingest.batch call (at most 1,000), or raise TOOLGATE_BODY_LIMIT_BYTES.`,
  );
}

/** The origins this request may come from: the one it was sent to (Host, or the proxy's X-Forwarded-Host) and TOOLGATE_PUBLIC_URL. */
function ownOrigins(req: Request) {
  const url = new URL(req.url);
  const proto = req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.slice(0, -1);
  const hosts = [req.headers.get("x-forwarded-host"), req.headers.get("host")].filter((h): h is string => !!h);
  const configured = env().TOOLGATE_PUBLIC_URL;
  return [...new Set([...hosts.map((host) => `${proto}://${host}`), url.origin, ...(configured ? [new URL(configured).origin] : [])])];
}

async function handler(req: Request) {
  // the one place where browser requests from other origins are refused (server/domain/cross-site.ts)
  const crossSite = crossSiteRefusal(
    {
      method: req.method,
      authorization: req.headers.get("authorization"),
      origin: req.headers.get("origin"),
      secFetchSite: req.headers.get("sec-fetch-site"),
      contentType: req.headers.get("content-type"),
      hasSession: !!readCookie(req.headers.get("cookie"), SESSION_COOKIE),
    },
    ownOrigins(req),
  );
  if (crossSite) return refusal(403, crossSite);
  let request = req;
  if (req.method === "POST") {
    const limit = env().TOOLGATE_BODY_LIMIT_BYTES;
    const body = await readLimited(req, limit);
    if (!body) return tooLarge(limit);
    request = new Request(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(body), signal: req.signal });
  }
  // a client that goes away cancels the request's statements in PostgreSQL (server/db/cancel.ts)
  return whileRequestOpen(req.signal, () =>
    fetchRequestHandler({
      endpoint: "/api/trpc",
      req: request,
      router: appRouter,
      // lets plain-HTTP clients POST a query too (curl -d '{"project":…}' …/system.whoami)
      allowMethodOverride: true,
      createContext: ({ resHeaders }) => createContext({ headers: req.headers, resHeaders, url: req.url }),
    }),
  );
}

export { handler as GET, handler as POST };

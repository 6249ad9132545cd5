import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { whileRequestOpen } from "@/server/db/cancel";
import { crossSiteRefusal } from "@/server/http/cross-site";
import { env } from "@/server/env";
import { ownOrigins } from "@/server/services/origins";
import { readCookie, SESSION_COOKIE } from "@/server/services/auth/sessions";
import { readLimited } from "@/server/http/read-limited";
import { createContext } from "@/server/trpc/init";
import { appRouter } from "@/server/routers/root";

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

async function handler(req: Request) {
  // the one place where browser requests from other origins are refused (server/http/cross-site.ts)
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
  const response = await whileRequestOpen(req.signal, () =>
    fetchRequestHandler({
      endpoint: "/api/trpc",
      req: request,
      router: appRouter,
      // lets plain-HTTP clients POST a query too (curl -d '{"project":…}' …/system.whoami)
      allowMethodOverride: true,
      createContext: ({ resHeaders }) => createContext({ headers: req.headers, resHeaders, url: req.url }),
    }),
  );
  // tRPC sends some refusals (415 for a POST without Content-Type) as JSON text labelled text/plain
  if (!response.headers.get("content-type")?.startsWith("text/plain")) return response;
  const headers = new Headers(response.headers);
  headers.set("Content-Type", "application/json");
  return new Response(response.body, { status: response.status, headers });
}

export { handler as GET, handler as POST };

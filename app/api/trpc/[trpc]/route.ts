import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { env } from "@/server/env";
import { readLimited } from "@/server/services/http/read-limited";
import { createContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";

export const dynamic = "force-dynamic";

function tooLarge(limit: number) {
  const mb = (limit / 1024 / 1024).toFixed(limit % (1024 * 1024) ? 1 : 0);
  const message = `Request body over the limit of ${mb} MB (${limit} bytes): send fewer events per ingest.batch call (at most 1,000), or raise TOOLGATE_BODY_LIMIT_BYTES.`;
  return Response.json({ error: { message, code: -32013, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } } }, { status: 413 });
}

async function handler(req: Request) {
  let request = req;
  if (req.method === "POST") {
    const limit = env().TOOLGATE_BODY_LIMIT_BYTES;
    const body = await readLimited(req, limit);
    if (!body) return tooLarge(limit);
    request = new Request(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(body) });
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    // lets plain-HTTP clients POST a query too (curl -d '{"project":…}' …/system.whoami)
    allowMethodOverride: true,
    createContext: ({ resHeaders }) => createContext({ headers: req.headers, resHeaders, url: req.url }),
  });
}

export { handler as GET, handler as POST };

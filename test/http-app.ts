import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { afterAll, beforeAll } from "vitest";
import type { AppRouter } from "../server/routers/root";
import { SESSION_COOKIE } from "../server/services/auth/sessions";

/**
 * The app's tRPC route handler (app/api/trpc/[trpc]/route.ts, what `npm start` serves) over real
 * HTTP on 127.0.0.1, on the real test database, with the OTLP endpoint (/v1/traces), the CSV
 * export (/api/projects/<slug>/calls.csv) and Toolgate's MCP server (/api/mcp) beside it. `stop()` closes the port and every open
 * connection; `start()` opens the same port again.
 */
export async function startHttpApp() {
  const { GET, POST } = await import("../app/api/trpc/[trpc]/route");
  const traces = await import("../app/v1/traces/route");
  const csv = await import("../app/api/projects/[slug]/calls.csv/route");
  const mcp = await import("../app/api/mcp/route");
  const route = (request: Request) => {
    const { pathname } = new URL(request.url);
    const slug = /^\/api\/projects\/([^/]+)\/calls\.csv$/.exec(pathname)?.[1];
    if (pathname === "/v1/traces" && request.method === "POST") return traces.POST(request);
    if (slug) return csv.GET(request, { params: Promise.resolve({ slug }) });
    if (pathname === "/api/mcp") return mcp.POST(request);
    return (request.method === "POST" ? POST : GET)(request);
  };
  let port = 0;
  let server: Server | null = null;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    // as Next.js does: the request's signal aborts when its client closes the connection before the answer
    const gone = new AbortController();
    res.once("close", () => res.writableFinished || gone.abort());
    const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
      method: req.method,
      headers,
      signal: gone.signal,
      ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
    });
    const response = await route(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  }

  async function start() {
    const s = createServer((req, res) => {
      handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
    await new Promise<void>((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  }

  async function stop() {
    const s = server;
    server = null;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    s.closeAllConnections();
    await closed;
  }

  await start();
  return { url: `http://127.0.0.1:${port}`, start, stop };
}

/** The HTTP app for one test file: started before its tests, stopped after them. */
export function httpAppForTests() {
  const holder = {} as { app: Awaited<ReturnType<typeof startHttpApp>> };
  beforeAll(async () => {
    holder.app = await startHttpApp();
  });
  afterAll(() => holder.app.stop());
  return holder;
}

/**
 * The tRPC client the app's pages use (components/trpc-provider.tsx: httpBatchLink, plain JSON),
 * sending what a signed-in browser on the app at `base` sends with it: the session cookie
 * (`token`, from signedIn or a project's asOwner in test/fixtures.ts), the page's Origin and
 * Sec-Fetch-Site: same-origin.
 */
export function browserClient(base: string, token: string) {
  const headers = { cookie: `${SESSION_COOKIE}=${token}`, origin: base, "sec-fetch-site": "same-origin" };
  return createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${base}/api/trpc`, headers })] });
}

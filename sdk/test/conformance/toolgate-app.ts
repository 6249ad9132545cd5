import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { createFreshDatabase, startTestServer } from "../../../scripts/lib/test-database";

/**
 * Toolgate's own MCP server for the conformance run (run.ts): the app's `/api/mcp` route, as
 * test/http-app.ts serves it, on a fresh database (TEST_DATABASE_URL's server, else an embedded
 * PostgreSQL) holding three days of demo data, behind a loopback proxy that adds a read key of
 * that project to every request. The suite's runner takes only a URL (no header option, and
 * `fetch` refuses credentials in a URL), so the proxy is how its client gets the key; it passes
 * every other header on as sent, `Host` and `Origin` included (the DNS-rebinding scenario sends
 * its own). `url` is the proxy's origin; `stop()` closes everything and drops the database.
 */
export async function startToolgateMcp() {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error: Error) => console.error(`clean-up: ${error.message}`));
  };
  try {
    const postgres = await startTestServer();
    stops.push(() => postgres.stop());
    const database = await createFreshDatabase(postgres, "toolgate_conformance");
    stops.push(() => database.drop());
    process.env.DATABASE_URL = database.url; // read by server/env.ts on first use, below
    const { prisma, pool } = await import("../../../server/db/client");
    stops.push(() => pool().end());
    stops.push(() => prisma().$disconnect());
    const { createApiKey } = await import("../../../server/services/auth/api-keys");
    const { loadDemoData } = await import("../../../server/services/demo/load-demo");
    const project = await prisma().project.create({ data: { slug: "conformance", name: "Conformance" }, select: { id: true, slug: true } });
    await loadDemoData(project, { now: new Date(), days: 3, runsPerDay: 60 });
    const { key } = await createApiKey(project.id, "conformance", "read");

    const { startHttpApp } = await import("../../../test/http-app");
    const app = await startHttpApp();
    stops.push(() => app.stop());
    const appPort = new URL(app.url).port;
    const proxy = createServer((req, res) => {
      const upstream = request(
        { host: "127.0.0.1", port: appPort, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${key}` } },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", (error) => res.writeHead(502).end(`the key-adding proxy could not reach the app: ${error.message}`));
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise((resolve) => (proxy.closeAllConnections(), proxy.close(resolve))));
    return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

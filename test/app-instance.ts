// One app instance for the multi-instance test (test/instances.exhaustive.test.ts): the
// app's own tRPC route handler behind a plain Node HTTP server, plus, unless
// TOOLGATE_WORKER=off, the app's background worker, as `npm start` runs them in one process.
// Prints "listening <port>" when ready. No cron schedules: the test drives evaluation.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { GET, POST } from "../app/api/trpc/[trpc]/route";
import { env } from "../server/env";
import { startWorker } from "../server/services/jobs/work";

const server = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const request = new Request(`http://127.0.0.1${req.url}`, {
    method: req.method,
    headers,
    body: req.method === "POST" ? Buffer.concat(chunks) : undefined,
  });
  const response = await (req.method === "POST" ? POST : GET)(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});

if (env().TOOLGATE_WORKER === "on") await startWorker({ schedules: false });
server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as AddressInfo).port}`));

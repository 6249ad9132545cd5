import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { context } from "@opentelemetry/api";
import { AsyncContext } from "./async-context";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { TracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";
import pg from "pg";
import { afterAll, beforeAll, inject } from "vitest";
import { POST as traces } from "../app/v1/traces/route";
import { POST as logs } from "../app/v1/logs/route";
import { POST as metrics } from "../app/v1/metrics/route";
import { POST as trpc } from "../app/api/trpc/[trpc]/route";
import { notAnOtlpPath } from "../server/http/otlp-export";

const ROUTES: Record<string, (req: Request) => Promise<Response>> = { "/v1/traces": traces, "/v1/logs": logs, "/v1/metrics": metrics };

/**
 * The real OTLP route handlers served over real HTTP on 127.0.0.1: a plain node server that
 * hands each request to the route's exported POST, and other /v1/* paths to the catch-all's
 * answer (e2e/connect.exhaustive.spec.ts covers the Next.js server); /api/trpc/* to the app's tRPC route,
 * for what the browser does next (browserClient in test/http-app.ts). `url` is the traces
 * endpoint; `base` the server's root, for OTEL_EXPORTER_OTLP_ENDPOINT.
 */
async function serveTraces() {
  const server = createServer(async (req: IncomingMessage, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    // the body is read whole first: a refusal sent before the body was read resets keep-alive connections here
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    const route = req.url?.startsWith("/api/trpc/") ? trpc : req.method === "POST" ? ROUTES[req.url ?? ""] : undefined;
    const response = route ? await route(request) : req.url?.startsWith("/v1/") ? notAnOtlpPath(request) : new Response("not found", { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A real OTLP exporter of either encoding, pointed at our server with a project key. */
type ExporterOptions = NonNullable<ConstructorParameters<typeof ProtoExporter>[0]>;

export function exporter(kind: "proto" | "json", url: string, key: string, gzip = false): SpanExporter {
  const options = {
    url,
    headers: { Authorization: `Bearer ${key}` },
    timeoutMillis: 10_000,
    ...(gzip ? { compression: "gzip" as ExporterOptions["compression"] } : {}),
  };
  return kind === "proto" ? new ProtoExporter(options) : new JsonExporter(options);
}

/** Sends spans through an exporter; resolves with the export result code (0 = success). */
export const exportSpans = (target: SpanExporter, spans: ReadableSpan[]) =>
  new Promise<{ code: number; error?: Error }>((resolve) => target.export(spans, resolve));

let contextSet = false;

/** A tracer whose finished spans are kept in memory, to be exported later in any grouping. */
export function recordingTracer(name = "test") {
  if (!contextSet) contextSet = context.setGlobalContextManager(new AsyncContext());
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  return { tracer: provider.getTracer(name), spans: () => memory.getFinishedSpans(), shutdown: () => provider.shutdown() };
}

/** Deterministic shuffle (seeded), so that a failing order can be replayed. */
export function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31), state / 2 ** 31);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** For a test file: the traces server for its tests (`served.url` once they run) and a pool on the test database. */
export function servedTraces() {
  const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
  const served = { url: "", base: "", sql };
  let server: Awaited<ReturnType<typeof serveTraces>> | undefined;
  beforeAll(async () => {
    server = await serveTraces();
    served.url = server.url;
    served.base = server.base;
  });
  afterAll(async () => {
    await server?.close();
    await sql.end();
  });
  return served;
}

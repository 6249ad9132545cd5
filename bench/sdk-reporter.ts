// npm run bench:sdk-reporter [-- --calls N --smoke]   (or BENCH_CALLS; default 3,000 calls per case; --smoke: 100)
//
// What the TypeScript SDK's reporter adds to an agent's tool call while Toolgate is healthy, down
// (a closed port), slow (answers after 10 s), answering 503 with Retry-After: 1, or refusing the
// key (401): the twin of bench/sdk-python.py, so that both SDKs are measured on the same machine
// in the same session. The same OpenAI-shaped calls go through `run.handle()` of a Toolgate
// without a reporter and of one reporting to a loopback server playing that case, interleaved
// call by call, back to back; `Reporter.record` (the only reporter work on the agent's path) is
// timed on its own. Fails when a case loses an event it should have kept: docs/PERFORMANCE.md.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Toolgate, type ToolgateEvent } from "../sdk/src/index";
import { option } from "./options";

const CALLS = option("calls", "BENCH_CALLS", 3000, 100);
const WARMUP = Math.min(300, CALLS);

type Mode = "healthy" | "down" | "slow" | "503" | "401";
let mode: Mode = "healthy";
const held = new Set<ServerResponse>();

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

async function serve(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString()) as { events?: unknown[]; tools?: { name: string }[] };
  if (mode === "slow") {
    held.add(res);
    setTimeout(() => held.delete(res) && !res.writableEnded && answer(res, 503, { error: { message: "slow" } }), 10_000).unref();
    return;
  }
  if (mode === "503") return answer(res, 503, { error: { message: "busy" } }, { "retry-after": "1" });
  if (mode === "401") return answer(res, 401, { error: { message: "Unknown API key" } });
  if (req.url?.endsWith("tools.register")) return answer(res, 200, { result: { data: { tools: body.tools?.map((t) => ({ name: t.name, version: "v1" })) } } });
  answer(res, 200, { result: { data: { accepted: body.events?.length ?? 0, duplicates: 0, rejected: [] } } });
}

const server = createServer((req, res) => void serve(req, res));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function closedPort(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const parameters = {
  type: "object",
  properties: { loannumber: { type: "string", pattern: "^[0-9]+$" }, months: { type: "integer", minimum: 1, maximum: 36 } },
  required: ["loannumber"],
  additionalProperties: false,
};
const tools = [{ name: "getloan", parameters, handler: (args: { loannumber: string }) => ({ loannumber: args.loannumber, balance: 1200 }) }];
const call = (i: number) => ({
  id: `c${i}`,
  type: "function" as const,
  function: { name: "getloan", arguments: `{"loannumber":"${1000 + i}","months":${1 + (i % 36)}}` },
});

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const ms = (values: number[]) => `p50 ${quantile(values, 0.5).toFixed(3)}  p99 ${quantile(values, 0.99).toFixed(3)}  max ${Math.max(...values).toFixed(2)} ms`;

async function measure(name: Mode) {
  mode = name;
  const base = new Toolgate({ model: { name: "bench" }, tools }).run();
  const reporting = new Toolgate({
    url: name === "down" ? await closedPort() : url,
    apiKey: "tg_bench",
    model: { name: "bench" },
    tools,
    reporter: { maxBuffer: 100_000, onError: () => {} },
  });
  const reporter = reporting.reporter!;
  const record = reporter.record.bind(reporter);
  const recorded: number[] = [];
  reporter.record = (event: ToolgateEvent) => {
    const t = performance.now();
    record(event);
    recorded.push(performance.now() - t);
  };
  const gated = reporting.run();
  const without: number[] = [];
  const withReporter: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    let t = performance.now();
    await base.handle([call(i)]);
    const a = performance.now() - t;
    t = performance.now();
    await gated.handle([call(i)]);
    const b = performance.now() - t;
    if (i >= WARMUP) {
      without.push(a);
      withReporter.push(b);
    }
  }
  const t = performance.now();
  const stats = await reporting.shutdown({ timeoutMs: 500 });
  const shutdownMs = performance.now() - t;
  for (const res of held) res.destroy();
  held.clear();
  console.log(`${name.padEnd(8)} Reporter.record:            ${ms(recorded.slice(WARMUP))}`);
  console.log(`${name.padEnd(8)} dispatch without reporter:  ${ms(without)}`);
  console.log(`${name.padEnd(8)} dispatch with reporter:     ${ms(withReporter)}`);
  console.log(`${name.padEnd(8)} shutdown(500 ms) took ${shutdownMs.toFixed(0)} ms; ${JSON.stringify(stats)}`);
  // a wrong answer fails the run (npm run bench:smoke): what each case must keep or count
  const total = WARMUP + CALLS;
  const kept = (stats?.sent ?? 0) + (stats?.dropped ?? 0) + (stats?.buffered ?? 0);
  if (recorded.length !== total || kept !== total)
    throw new Error(`${name}: ${recorded.length} recorded, ${kept} sent, dropped or buffered, of ${total} calls`);
  if (name === "healthy" && stats?.sent !== total) throw new Error(`healthy: sent ${stats?.sent} of ${total}`);
  if (name === "401" && stats?.sent !== 0) throw new Error(`401: sent ${stats?.sent}, the key was refused`);
}

console.log(`${CALLS} calls per case (after ${WARMUP} warm-up), Node ${process.version}`);
for (const name of ["healthy", "down", "slow", "503", "401"] as const) await measure(name);
server.closeAllConnections();
server.close();

// npm run bench:mcp [-- --calls N --smoke]   (or BENCH_CALLS; default 2,000 per case; --smoke: 20)
//
// What `toolgate mcp` adds to a tools/call: the real SDK client calls @modelcontextprotocol/server-everything's
// `echo` over stdio once directly and once through the gateway (the SDK's CLI from its sources), the
// two interleaved call by call so that the machine's load falls on both alike; then the same over
// Streamable HTTP (server-everything's HTTP mode, directly and through `toolgate mcp --listen`,
// whose answers are SSE streams). Valid calls are
// forwarded; invalid ones ({"message": 5}) the server refuses itself on the direct path and the gateway
// refuses on its own. Toolgate "up" is a local HTTP server that accepts every batch at once; "down"
// is a port nothing listens on. Prints p50/p99 per path and the difference (the gateway's added latency),
// and the CPU time the gateway's process used per call (Linux: from /proc), which a loaded machine
// inflates less than it does the latency.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { option } from "./options";
import { everythingOverHttp, httpGateway, type HttpGatewayProcess } from "../sdk/test/mcp-processes";

const CALLS = option("calls", "BENCH_CALLS", 2000, 20);
const WARMUP = Math.min(200, CALLS);
const require = createRequire(import.meta.url);
const everything = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const cli = path.resolve(import.meta.dirname, "../sdk/src/cli.ts");

async function connectHttp(url: string) {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.listTools();
  return client;
}

/** CPU time (user + system) the process has used so far, in ms; null without /proc. */
function cpuMs(pid: number | null): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms (USER_HZ)
  } catch {
    return null;
  }
}

async function connect(gateway: string[] | null, env: Record<string, string> = {}) {
  const args = gateway ? ["--import", "tsx", cli, "mcp", ...gateway, "--", process.execPath, everything] : [everything];
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { PATH: process.env.PATH ?? "", ...env }, stderr: "ignore" });
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  await client.listTools();
  return { client, pid: transport.pid };
}

let received = 0;
const ingest = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    const events = req.url?.includes("ingest.batch") ? ((JSON.parse(body) as { events?: unknown[] }).events?.length ?? 0) : 0;
    received += events;
    const data = req.url?.includes("tools.register") ? { tools: [] } : { accepted: events, duplicates: 0, rejected: [] };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ result: { data } }));
  });
});
await new Promise<void>((resolve) => ingest.listen(0, "127.0.0.1", resolve));
const upUrl = `http://127.0.0.1:${(ingest.address() as AddressInfo).port}`;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (n: number) => `${n.toFixed(3)} ms`;

const up = { TOOLGATE_URL: upUrl, TOOLGATE_API_KEY: "tg_bench" };
const down = { TOOLGATE_URL: "http://127.0.0.1:9", TOOLGATE_API_KEY: "tg_bench" };
const stdioDirect = (await connect(null)).client;
const everythingHttp = await everythingOverHttp();
const gateways: HttpGatewayProcess[] = [await httpGateway(everythingHttp.url, [], up), await httpGateway(everythingHttp.url, [], down)];
const httpDirect = await connectHttp(everythingHttp.url);
const cases = [
  { name: "stdio, Toolgate up", direct: stdioDirect, ...(await connect([], up)) },
  { name: "stdio, Toolgate down", direct: stdioDirect, ...(await connect([], down)) },
  { name: "Streamable HTTP, Toolgate up", direct: httpDirect, client: await connectHttp(`${gateways[0]!.url}mcp`), pid: gateways[0]!.pid },
  { name: "Streamable HTTP, Toolgate down", direct: httpDirect, client: await connectHttp(`${gateways[1]!.url}mcp`), pid: gateways[1]!.pid },
];

console.log(`bench:mcp: ${CALLS} calls per case after ${WARMUP} warm-up, Node ${process.version}`);
for (const { name, direct, client, pid } of cases) {
  for (const valid of [true, false]) {
    const args = valid ? { message: "hello" } : { message: 5 };
    const times = { direct: [] as number[], gateway: [] as number[] };
    let cpuAtStart: number | null = null;
    for (let i = 0; i < WARMUP + CALLS; i++) {
      if (i === WARMUP) cpuAtStart = cpuMs(pid);
      let t = performance.now();
      const directAnswer = await direct.callTool({ name: "echo", arguments: args });
      const d = performance.now() - t;
      t = performance.now();
      const answer = await client.callTool({ name: "echo", arguments: args });
      const g = performance.now() - t;
      // a wrong answer fails the run (npm run bench:smoke): a valid call is forwarded unchanged, an invalid one refused
      if (valid ? JSON.stringify(answer) !== JSON.stringify(directAnswer) : answer.isError !== true) {
        throw new Error(`${name}: the gateway answered ${JSON.stringify(answer).slice(0, 300)} (directly: ${JSON.stringify(directAnswer).slice(0, 300)})`);
      }
      if (i >= WARMUP) {
        times.direct.push(d);
        times.gateway.push(g);
      }
    }
    const cpuAtEnd = cpuMs(pid);
    const cpu = cpuAtStart === null || cpuAtEnd === null ? "" : `; gateway CPU ${ms((cpuAtEnd - cpuAtStart) / CALLS)} per call`;
    const [d50, d99, g50, g99] = [quantile(times.direct, 0.5), quantile(times.direct, 0.99), quantile(times.gateway, 0.5), quantile(times.gateway, 0.99)];
    console.log(
      `${name}, ${valid ? "valid (forwarded)" : "invalid (refused by the gateway)"}: direct p50 ${ms(d50)} p99 ${ms(d99)}; through the gateway p50 ${ms(g50)} p99 ${ms(g99)}; added p50 ${ms(g50 - d50)} p99 ${ms(g99 - d99)}${cpu}`,
    );
  }
}
for (const client of new Set(cases.flatMap((c) => [c.direct, c.client]))) await client.close();
for (const gateway of gateways) await gateway.stop();
await everythingHttp.stop();
ingest.close();
console.log(`events received by the "up" Toolgate: ${received}`);

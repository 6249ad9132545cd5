// npm run bench:sdk [-- --calls N --smoke]   (or BENCH_CALLS; default 20,000; --smoke: 200)
//
// What the SDK's dispatcher adds to a tool call: the same OpenAI-shaped calls are handled once by
// parsing the arguments and calling the handler directly, and once through Toolgate.run().handle()
// (normalising the call, classifying it with the shared classifier, running the handler under a
// timeout, building the event and queueing it for the reporter), interleaved in one run. The
// reporter's transport answers at once (no network: this measures the SDK, not the server).
// Prints p50/p99 per call for both and for refused calls; docs/PERFORMANCE.md records the figures.
import { Toolgate, type ToolgateEvent } from "../sdk/src/index";
import { option } from "./options";

const CALLS = option("calls", "BENCH_CALLS", 20_000, 200);
const WARMUP = Math.min(2000, CALLS);

const parameters = {
  type: "object",
  properties: {
    loannumber: { type: "string", pattern: "^[0-9]+$" },
    months: { type: "integer", minimum: 1, maximum: 36 },
    channel: { type: "string", enum: ["email", "sms", "post"] },
  },
  required: ["loannumber"],
  additionalProperties: false,
};
const handler = (args: { loannumber: string; months?: number }) => ({ loannumber: args.loannumber, balance: 1200, months: args.months ?? 1 });

let sentBatches = 0;
const ok = (body: string) => {
  sentBatches++;
  const events = (JSON.parse(body) as { events?: ToolgateEvent[] }).events?.length ?? 0;
  return Response.json({ result: { data: { accepted: events, duplicates: 0, rejected: [] } } });
};
const toolgate = new Toolgate({
  url: "http://127.0.0.1:9",
  apiKey: "tg_bench",
  model: { name: "bench" },
  tools: [{ name: "getloan", parameters, handler }],
  reporter: { fetch: (async (_url: string, init: RequestInit) => ok(String(init.body))) as unknown as typeof fetch, maxBuffer: 100_000 },
});
const run = toolgate.run({ runId: "bench" });

const call = (i: number, valid = true) => ({
  id: `call_${i}`,
  type: "function" as const,
  function: { name: "getloan", arguments: valid ? `{"loannumber":"${1000 + (i % 9000)}","months":${1 + (i % 36)}}` : `{"loannumber":${1000 + (i % 9000)}}` },
});

const direct: number[] = [];
const dispatched: number[] = [];
const refused: number[] = [];
for (let i = 0; i < WARMUP + CALLS; i++) {
  const c = call(i);
  let t = performance.now();
  const result = handler(JSON.parse(c.function.arguments) as { loannumber: string });
  JSON.stringify(result);
  const d = performance.now() - t;

  t = performance.now();
  const [answered] = await run.handle([c]);
  const g = performance.now() - t;

  t = performance.now();
  const [refusal] = await run.handle([call(i, false)]);
  const r = performance.now() - t;
  // a wrong answer fails the run (npm run bench:smoke): the handler's result for the valid call, a refusal naming the argument for the other
  const content = (m: unknown) => (m as { content?: unknown }).content;
  if (content(answered) !== JSON.stringify(result) || !String(content(refusal)).includes("loannumber")) {
    throw new Error(`call ${i}: the dispatcher answered ${JSON.stringify(answered)} and ${JSON.stringify(refusal)}`);
  }
  if (i >= WARMUP) {
    direct.push(d);
    dispatched.push(g);
    refused.push(r);
  }
}
await toolgate.shutdown();

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
const row = (name: string, values: number[]) =>
  `${name.padEnd(34)} p50 ${us(quantile(values, 0.5)).padStart(10)}   p99 ${us(quantile(values, 0.99)).padStart(10)}`;
console.log(`${CALLS} calls of each kind (after ${WARMUP} warm-up), Node ${process.version}`);
console.log(row("handler called directly", direct));
console.log(row("through the dispatcher (valid)", dispatched));
console.log(row("through the dispatcher (refused)", refused));
console.log(
  `added by the dispatcher per valid call: p50 ${us(quantile(dispatched, 0.5) - quantile(direct, 0.5))}, p99 ${us(quantile(dispatched, 0.99) - quantile(direct, 0.99))}`,
);
const stats = toolgate.stats();
console.log(`reporter: ${JSON.stringify(stats)}, ${sentBatches} batches`);
if (stats?.sent !== 2 * (WARMUP + CALLS)) throw new Error(`the reporter sent ${stats?.sent} events for ${2 * (WARMUP + CALLS)} calls`);

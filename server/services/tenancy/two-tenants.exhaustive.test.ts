import { expect, it } from "vitest";
import { otlpBodies } from "../../../bench/otlp-spans";
import { generateEvents } from "../../../bench/events";
import { makeProject } from "../../../test/fixtures";
import { LOAN_TOOLS, makeEvent } from "../../../test/events";
import { httpAppForTests } from "../../../test/http-app";
import { SESSION_COOKIE } from "../auth/sessions";

// Two tenants on one instance, over real HTTP: tenant A saturates every heavy operation at
// once (ingest batches into long runs, OTLP exports, tools.register with new schemas,
// tools.dryRun, metrics.summary over 399 days, CSV exports), tenant B sends one-event batches.
// B must never see a 503 or wait behind A; A is held to its share (429 with Retry-After).
// B's latencies are printed (docs/failures-and-limits.md records them), not asserted.

process.env.TOOLGATE_PROJECT_HEAVY_CONCURRENCY = "2";
process.env.TOOLGATE_PROJECT_SHARE_WAIT_MS = "300";

const server = httpAppForTests();
const LOOPS_PER_OPERATION = 2;
const B_REQUESTS = 40;

type Answer = { operation: string; status: number; retryAfter: string | null; text: string };

it("one tenant saturating every heavy operation leaves another's one-event ingest answered, without 503", async () => {
  const a = await makeProject();
  const b = await makeProject();
  const aIngest = (await a.key("flood")).key;
  const aRead = (await a.key("ci", "read")).key;
  const bIngest = (await b.key()).key;
  const { token } = await a.asOwner();
  const base = server.app.url;

  const trpc = (path: string, key: string, input: unknown) =>
    fetch(`${base}/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(input),
    });
  const runs = Array.from({ length: 4 }, (_, r) => `a-run-${r}-${a.project.slug}`);
  const batch = (n: number) =>
    Array.from({ length: 1_000 }, (_, i) =>
      makeEvent({ runId: runs[i % runs.length], step: n * 1_000 + i, arguments: i % 3 ? { loannumber: 12 } : { loannumber: "4471" } }),
    );
  const otlp = otlpBodies(generateEvents(300, 7), 300).bodies[0]!;
  const from = new Date(Date.now() - 399 * 86_400_000).toISOString();
  const to = new Date().toISOString();

  expect((await trpc("tools.register", aIngest, { tools: LOAN_TOOLS })).status).toBe(200);
  expect((await trpc("ingest.batch", aIngest, { events: batch(0) })).status).toBe(200);

  const operations: Record<string, (n: number) => Promise<Response>> = {
    "ingest.batch": (n) => trpc("ingest.batch", aIngest, { events: batch(n) }),
    "OTLP export": () =>
      fetch(`${base}/v1/traces`, { method: "POST", headers: { "content-type": "application/x-protobuf", authorization: `Bearer ${aIngest}` }, body: otlp }),
    "tools.register": (n) => {
      const [getloan] = LOAN_TOOLS;
      const parameters = { ...getloan!.parameters, properties: { ...(getloan!.parameters.properties as object), [`extra${n}`]: { type: "string" } } };
      return trpc("tools.register", aIngest, { tools: [{ ...getloan, parameters }] });
    },
    "tools.dryRun": () =>
      trpc("tools.dryRun", aRead, {
        tool: "getloan",
        parameters: { type: "object", properties: { loannumber: { type: "string", pattern: "^[0-9]{4}$" } }, required: ["loannumber"] },
        range: { from, to },
      }),
    "metrics.summary": () => trpc("metrics.summary", aRead, { range: { from, to }, runIdPrefix: "a-run" }),
    "CSV export": () => fetch(`${base}/api/projects/${a.project.slug}/calls.csv`, { headers: { cookie: `${SESSION_COOKIE}=${token}` } }),
  };

  let flooding = true;
  const answers: Answer[] = [];
  const flood = Object.entries(operations).flatMap(([operation, send]) =>
    Array.from({ length: LOOPS_PER_OPERATION }, async (_, loop) => {
      for (let n = 1 + loop * 1_000; flooding; n++) {
        const response = await send(n);
        answers.push({ operation, status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() });
      }
    }),
  );

  // B, while A floods: one-event batches, one after the other
  await new Promise((r) => setTimeout(r, 500));
  const latencies: number[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < B_REQUESTS; i++) {
    const t = performance.now();
    const response = await trpc("ingest.batch", bIngest, { events: [makeEvent()] });
    latencies.push(performance.now() - t);
    statuses.push(response.status);
    const body = (await response.json()) as { result?: { data: { accepted: number } } };
    expect(body.result?.data.accepted).toBe(1);
  }
  flooding = false;
  await Promise.all(flood);

  expect(statuses.every((s) => s === 200)).toBe(true);
  const timedOut = (x: Answer) => x.status === 503 && /TOOLGATE_(LOCK|STATEMENT)_TIMEOUT_MS/.test(x.text) && Number(x.retryAfter) >= 1;
  const sorted = [...latencies].sort((x, y) => x - y);
  const p = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!);
  const byOperation = Object.keys(operations).map(
    (op) => `${op} ${answers.filter((x) => x.operation === op && x.status === 200).length}/${answers.filter((x) => x.operation === op).length}`,
  );
  const timeouts = answers.filter(timedOut).length;
  console.log(
    `[two tenants] B: ${B_REQUESTS} one-event ingests, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${Math.round(sorted.at(-1)!)} ms; A answered 200/all: ${byOperation.join(", ")}; A timed out: ${timeouts}`,
  );
  // A was held to its share: refused with 429 and Retry-After beyond it. Its own requests may
  // also wait on each other's rows (its batches and exports write the same runs) past the
  // lock or statement timeout: that is a 503 saying so, never a 500 or a hang.
  const refused = answers.filter((x) => x.status === 429);
  expect(answers.filter((x) => x.status !== 200 && x.status !== 429 && !timedOut(x)).map((x) => `${x.operation} ${x.status} ${x.text.slice(0, 200)}`)).toEqual(
    [],
  );
  expect(refused.length).toBeGreaterThan(0);
  expect(refused.every((x) => Number(x.retryAfter) >= 1)).toBe(true);
  expect(refused.some((x) => x.text.includes("TOOLGATE_PROJECT_HEAVY_CONCURRENCY"))).toBe(true);
}, 180_000);

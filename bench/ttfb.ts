// npm run bench:ttfb [-- --requests N --warmups W --pages overview,tools --save-html DIR --cpu-prof]
//
// Server time of every page on demo data. Starts the app the way `npm start` does, on a
// database of its own, creates the admin and a project through /setup's procedure, loads the
// demo data (30 days, the "Load demo data" button's loader) and fires the demo's alert rule
// once, so that there is an incident to open. Then, for each page, W warm-up requests and N
// timed ones, one at a time, as the signed-in admin: TTFB (request sent → response headers)
// and the whole answer (→ last byte of the HTML). Prints the medians and p90s per page.
// docs/PERFORMANCE.md records the figures; the issue's bar is "no page's TTFB grows by more
// than 20 %".
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../server/db/embedded";
import { cleanupOnExit, startApp, stopProcess, trpc, waitForHealth } from "../scripts/lib/running-app";
import { createFreshDatabase, startTestServer } from "../scripts/lib/test-database";
import { option } from "./options";
import { cpuSeconds, postgresCpuSeconds } from "./processes";

// --smoke: one warm-up and two timed requests per page; a page that does not answer 200 still fails the run
const REQUESTS = option("requests", "BENCH_REQUESTS", 20, 2);
const WARMUPS = option("warmups", "BENCH_WARMUPS", 3, 1);
const SLUG = "demo";
/** Only the pages whose names (as printed) start with one of these, comma-separated: re-measure a few with more requests. */
const ONLY = flagValue("--pages")
  ?.split(",")
  .map((name) => name.trim().toLowerCase());
/** Writes each page's last answer to DIR/<page>.html: what a page's bytes are made of. */
const SAVE_HTML = flagValue("--save-html");
/** The app writes a V8 CPU profile of the run (under the temporary folder; open it in Chrome DevTools) when it stops. */
const CPU_PROFILE = process.argv.includes("--cpu-prof");

function flagValue(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  return at > 0 ? process.argv[at + 1] : undefined;
}

const { steps: cleanups, cleanup } = cleanupOnExit();

const log = (message: string) => console.log(`[bench] ${message}`);
const ms = (n: number) => n.toFixed(0).padStart(6);

/** The q-quantile of the values (nearest rank). */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** One GET: milliseconds to the response headers and to the last byte; fails on anything but 200. */
async function timeRequest(url: string, cookie: string) {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie }, redirect: "manual" });
  const ttfb = performance.now() - started;
  const body = await response.arrayBuffer();
  const total = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status} (expected 200)`);
  return { ttfb, total, bytes: body.byteLength, body };
}

async function main() {
  log(`${REQUESTS} timed requests per page after ${WARMUPS} warm-ups; 1-minute load average now ${os.loadavg()[0]!.toFixed(1)}`);
  const server = await startTestServer();
  cleanups.push(() => server.stop());
  const database = await createFreshDatabase(server, "toolgate_bench_ttfb");
  cleanups.push(() => database.drop());

  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "toolgate-bench-"));
  await chmod(dataDir, 0o755);
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const profileDir = path.join(os.tmpdir(), `toolgate-ttfb-profile-${new Date().toISOString().replace(/[:.]/g, "-")}`);
  const app = await startApp(
    {
      ...process.env,
      DATABASE_URL: database.url,
      PORT: String(port),
      TOOLGATE_DATA_DIR: dataDir, // start.ts keeps its pid file there: never clash with a running `npm start`
      TOOLGATE_ALERT_EVALUATOR: "off", // nothing on a timer during the measurement
      NEXT_TELEMETRY_DISABLED: "1",
    },
    CPU_PROFILE ? profileDir : undefined,
  );
  if (CPU_PROFILE) cleanups.push(async () => log(`CPU profile in ${profileDir} (written when the app stopped)`));
  cleanups.push(() => stopProcess(app));
  let exited = false;
  app.once("exit", () => (exited = true));
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(base, { exited: () => exited });
  log(`app up on ${base}`);

  // The demo project, its incident, and the ids of one call and its run.
  const { cookie } = await trpc(base, "mutation", "auth.setup", {
    email: "bench@toolgate.test",
    password: "benchmark only, not a secret",
    name: "Bench",
    projectName: "Demo",
    projectSlug: SLUG,
  });
  let t = performance.now();
  await trpc(base, "mutation", "demo.load", { project: SLUG }, cookie);
  log(`demo data loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await trpc(base, "mutation", "alerts.evaluateNow", { project: SLUG }, cookie);
  type Row = { id: string; runId: string };
  const { data: list } = await trpc<{ calls: Row[] }>(
    base,
    "query",
    "calls.list",
    { project: SLUG, filter: { valid: "invalid", tool: "getloan" }, limit: 1 },
    cookie,
  );
  const call = list.calls[0];
  const { data: incidents } = await trpc<{ id: string }[]>(base, "query", "alerts.incidents", { project: SLUG }, cookie);
  if (!call || !incidents[0])
    throw new Error(`the demo data gave ${list.calls.length} invalid getloan calls and ${incidents.length} incidents; expected at least one of each`);

  const p = `/p/${SLUG}`;
  const pages: [string, string][] = [
    ["overview", p],
    ["tools", `${p}/tools`],
    ["tool (getloan)", `${p}/tools/getloan`],
    ["models", `${p}/models`],
    ["inflation", `${p}/inflation`],
    ["errors", `${p}/errors`],
    ["calls explorer", `${p}/calls`],
    ["call", `${p}/calls/${encodeURIComponent(call.id)}`],
    ["run", `${p}/runs/${encodeURIComponent(call.runId)}`],
    ["incidents", `${p}/alerts`],
    ["incident", `${p}/alerts/${incidents[0].id}`],
    ["alert rules", `${p}/alerts/rules`],
    ["settings", `${p}/settings`],
    ["settings: keys", `${p}/settings/keys`],
    ["settings: connect", `${p}/settings/connect`],
    ["settings: members", `${p}/settings/members`],
    ["settings: webhooks", `${p}/settings/webhooks`],
    ["sign-in (signed out)", "/login"],
  ];

  if (SAVE_HTML) await mkdir(SAVE_HTML, { recursive: true });
  const results: { name: string; path: string; ttfb: number[]; total: number[]; bytes: number; appCpu: number; pgCpu?: number }[] = [];
  t = performance.now();
  for (const [name, path] of pages) {
    if (ONLY && !ONLY.some((only) => name.startsWith(only))) continue;
    const signedIn = path === "/login" ? "" : cookie;
    // the first request apart: a page whose derived reads are stored answers (docs/rollups.md) computes and stores them then
    const pgBeforeFirst = postgresCpuSeconds();
    const first = await timeRequest(base + path, signedIn);
    const pgFirst = postgresCpuSeconds();
    const firstPg = pgFirst === undefined || pgBeforeFirst === undefined ? "?" : (1000 * (pgFirst - pgBeforeFirst)).toFixed(0);
    log(`${name}: first request TTFB ${first.ttfb.toFixed(0)} ms, PostgreSQL ${firstPg} ms`);
    for (let i = 1; i < WARMUPS; i++) await timeRequest(base + path, signedIn);
    const row = { name, path, ttfb: [] as number[], total: [] as number[], bytes: 0, appCpu: 0, pgCpu: undefined as number | undefined };
    const cpuBefore = { app: cpuSeconds(app.pid!), pg: postgresCpuSeconds() };
    for (let i = 0; i < REQUESTS; i++) {
      const r = await timeRequest(base + path, signedIn);
      row.ttfb.push(r.ttfb);
      row.total.push(r.total);
      row.bytes = r.bytes;
      if (SAVE_HTML && i === REQUESTS - 1) await writeFile(`${SAVE_HTML}/${name.replace(/[^a-z0-9]+/gi, "-")}.html`, Buffer.from(r.body));
    }
    // CPU per request (app tree and PostgreSQL): what a page costs, much less sensitive to the machine's load than its times
    row.appCpu = (1000 * (cpuSeconds(app.pid!) - cpuBefore.app)) / REQUESTS;
    const pgAfter = postgresCpuSeconds();
    if (pgAfter !== undefined && cpuBefore.pg !== undefined) row.pgCpu = (1000 * (pgAfter - cpuBefore.pg)) / REQUESTS;
    results.push(row);
  }
  log(`measured in ${((performance.now() - t) / 1000).toFixed(1)} s; 1-minute load average now ${os.loadavg()[0]!.toFixed(1)}`);

  console.log(`\npage                  TTFB p50    p90   whole p50    p90     KB   CPU app     PG`);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(20)} ${ms(quantile(r.ttfb, 0.5))} ${ms(quantile(r.ttfb, 0.9))}   ${ms(quantile(r.total, 0.5))} ${ms(quantile(r.total, 0.9))} ${(r.bytes / 1024).toFixed(0).padStart(6)}   ${ms(r.appCpu)} ${r.pgCpu === undefined ? "     ?" : ms(r.pgCpu)}`,
    );
  }
  console.log(`(milliseconds; ${REQUESTS} requests per page, one at a time; CPU: milliseconds per request of the app's processes and of PostgreSQL's)`);
}

main()
  .then(
    () => cleanup(),
    async (error: Error) => {
      console.error(`[bench] failed: ${error.message}`);
      await cleanup();
      process.exit(1);
    },
  )
  .then(() => process.exit(0));

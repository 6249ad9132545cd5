import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createFreshDatabase } from "../scripts/lib/test-database";
import { env } from "../server/env";
import { pool, prisma } from "../server/db/client";
import { SESSION_COOKIE, createSession } from "../server/services/auth/sessions";
import { DELIVERY_ID_HEADER } from "../contracts/alerts";
import { GETLOAN_INVALID_RULE, invalidBurst, LOAN_TOOLS } from "./events";
import { waitFor } from "./wait";
import { makeProject, withKey } from "./fixtures";

// Two app instances on one database of their own (the run's shared database has other test
// files' workers on it, which could take this test's jobs): each a separate Node process with
// the app's route handler and background worker (test/app-instance.ts).
const server = {
  urlFor: (database: string) => Object.assign(new URL(inject("postgresAdminUrl")), { pathname: `/${database}` }).toString(),
  stop: async () => {},
};
const database = await createFreshDatabase(server, "instances_test");
process.env.DATABASE_URL = database.url;

/** Per API key, shared by all instances (a token bucket in PostgreSQL). */
const RATE_PER_MINUTE = 6;

type Instance = { name: string; port: number; process: ChildProcess; output: string[] };

function startInstance(name: string): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/app-instance.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      NODE_ENV: "test",
      TOOLGATE_WORKER: "on",
      TOOLGATE_ALERT_EVALUATOR: "off", // this test evaluates through the API ("Evaluate now")
      TOOLGATE_WEBHOOK_BACKOFF_MS: "1000",
      TOOLGATE_WEBHOOK_ALLOW_PRIVATE: "true", // the receiver is on 127.0.0.1
      TOOLGATE_API_RATE_PER_MINUTE: String(RATE_PER_MINUTE),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${name} did not start:\n${output.join("")}`)), 60_000);
    child.stdout!.on("data", (d: Buffer) => {
      output.push(d.toString());
      const port = /listening (\d+)/.exec(output.join(""))?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ name, port: Number(port), process: child, output });
      }
    });
    child.stderr!.on("data", (d: Buffer) => output.push(d.toString()));
    child.on("exit", (code) => reject(new Error(`instance ${name} exited (${code}):\n${output.join("")}`)));
  });
}

async function call(instance: Instance, procedure: string, input: unknown, headers: Record<string, string>) {
  const response = await fetch(`http://127.0.0.1:${instance.port}/api/trpc/${procedure}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(input),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`${procedure} on ${instance.name}: ${response.status} ${JSON.stringify(body)}`);
  return body.result.data;
}

/** A webhook receiver on 127.0.0.1 that answers 500 `failures` times, then 200. */
function receiver(failures: number) {
  const received: { deliveryId: string }[] = [];
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push({ deliveryId: String(req.headers[DELIVERY_ID_HEADER.toLowerCase()]) });
      res.statusCode = received.length <= failures ? 500 : 200;
      res.end();
    });
  });
  return new Promise<{ url: string; received: typeof received; close: () => void }>((resolve) =>
    srv.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/hook`, received, close: () => srv.close() })),
  );
}

describe("two app instances on one database", () => {
  let a: Instance;
  let b: Instance;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    expect(env().DATABASE_URL).toBe(database.url); // this file's own database, not the shared one
    [a, b] = await Promise.all([startInstance("A"), startInstance("B")]);
    hook = await receiver(2);
  }, 90_000);
  afterAll(async () => {
    for (const i of [a, b]) i?.process.kill("SIGKILL");
    hook?.close();
    await prisma().$disconnect();
    await pool().end();
    await database.drop();
  });

  it("shares one API key's rate limit between the instances", async () => {
    const p = await makeProject();
    const key = (await p.key()).key;
    const statuses: { instance: string; status: number }[] = [];
    for (let i = 0; i < 2 * RATE_PER_MINUTE; i++) {
      const instance = i % 2 ? b : a;
      const response = await fetch(`http://127.0.0.1:${instance.port}/api/trpc/system.whoami`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      statuses.push({ instance: instance.name, status: response.status });
    }
    const allowed = statuses.filter((s) => s.status === 200).length;
    // limits per instance would let all 12 through; one bucket lets 6 (7 if a token refilled meanwhile)
    expect(allowed).toBeGreaterThanOrEqual(RATE_PER_MINUTE);
    expect(allowed).toBeLessThanOrEqual(RATE_PER_MINUTE + 1);
    expect(statuses.filter((s) => s.status === 429).map((s) => s.instance)).toEqual(expect.arrayContaining(["A", "B"]));
    expect(statuses.every((s) => s.status === 200 || s.status === 429)).toBe(true);
  });

  it("ingests through both (each id stored once), fires one incident, notifies once, and the survivor finishes a delivery", async () => {
    const p = await makeProject();
    const key = (await p.key()).key;
    await withKey(key).tools.register({ tools: LOAN_TOOLS });
    const owner = await p.asOwner();
    const endpoint = await owner.webhooks.create({ project: p.project.slug, name: "ops", url: hook.url });
    await owner.alerts.createRule({ project: p.project.slug, rule: GETLOAN_INVALID_RULE });
    const events = invalidBurst();

    // the same events to both instances at once: each call stored once
    const bearer = { authorization: `Bearer ${key}` };
    const results = await Promise.all([a, b].map((i) => call(i, "ingest.batch", { events }, bearer)));
    expect(results.reduce((n, r) => n + r.accepted, 0)).toBe(events.length);
    expect(results.reduce((n, r) => n + r.duplicates, 0)).toBe(events.length);
    expect(await prisma().toolCall.count({ where: { projectId: p.project.id } })).toBe(events.length);

    // "Evaluate now" on both at once: one incident, one notification
    const cookie = { cookie: `${SESSION_COOKIE}=${(await createSession(p.owner.id)).token}` };
    const reports = await Promise.all([a, b].map((i) => call(i, "alerts.evaluateNow", { project: p.project.slug }, cookie)));
    expect(reports.reduce((n, r) => n + r.fired, 0)).toBe(1);
    const incidents = await prisma().incident.findMany({ where: { projectId: p.project.id }, select: { id: true } });
    expect(incidents).toHaveLength(1);
    const id = incidents[0]!.id;
    const job = async () =>
      (await pool().query("SELECT state FROM pgboss.job WHERE name = 'webhook-delivery' AND data->>'incidentId' = $1", [id])).rows.map((r) => r.state);

    // the first attempt fails; kill the instance that made it while the job waits for its retry
    await waitFor(async () => (await job())[0] === "retry", "the first attempt to fail");
    expect(await job()).toHaveLength(1);
    const first = `attempt 1`;
    const deliverer = [a, b].find((i) => i.output.join("").includes(first))!;
    const survivor = deliverer === a ? b : a;
    deliverer.process.kill("SIGKILL");

    await waitFor(async () => (await job())[0] === "completed", "the survivor to finish the delivery", 45_000);
    const deliveries = await prisma().webhookDelivery.findMany({
      where: { incidentId: id },
      orderBy: { at: "asc" },
      select: { attempt: true, statusCode: true, endpointId: true },
    });
    expect(deliveries.map((d) => [d.attempt, d.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(deliveries.every((d) => d.endpointId === endpoint.id)).toBe(true);
    expect(survivor.output.join("")).toMatch(/attempt 2[\s\S]*attempt 3/);
    // one delivery id on every attempt: a receiver that dedupes on it processes the incident once
    expect(hook.received).toHaveLength(3);
    expect(new Set(hook.received.map((r) => r.deliveryId)).size).toBe(1);
    const timeline = await prisma().incidentEvent.findMany({ where: { incidentId: id }, select: { kind: true } });
    expect(timeline.map((e) => e.kind).sort()).toEqual(["fired", "notified"]);
  });
});

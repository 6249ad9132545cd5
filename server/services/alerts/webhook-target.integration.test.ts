import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { makeProject } from "../../../test/fixtures";
import { prisma } from "../../db/client";
import { webhookAddressVerdict } from "../../domain/webhook-targets";
import { postWebhook, type Resolver } from "./webhook-target";
import { deliver } from "./webhooks";

// This file checks the default: internal targets refused (the test env allows them for the
// other webhook tests). Set before server/env.ts first reads the environment.
process.env.TOOLGATE_WEBHOOK_ALLOW_PRIVATE = "false";

// No traffic ever goes to a private address here: names resolve through a stub, and the only
// server that is ever connected to is this file's receiver on 127.0.0.1.
const INTERNAL: Record<string, string[]> = {
  "intranet.example": ["10.0.0.7"],
  "metadata.example": ["169.254.169.254"],
  "six.example": ["::1"],
  "ula.example": ["fd00::5"],
  "cgnat.example": ["100.64.1.1"],
  "mapped.example": ["::ffff:192.168.0.1"],
  "split.example": ["93.184.216.34", "10.0.0.1"],
};
const stubResolver: Resolver = async (hostname) => {
  const addresses = INTERNAL[hostname] ?? (hostname === "receiver.test" ? ["127.0.0.1"] : undefined);
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
  return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

/** The real rule, except that this file's own receiver on 127.0.0.1 may be reached. */
const receiverOnly = (address: string) => (address === "127.0.0.1" ? { allowed: true as const } : webhookAddressVerdict(address));

let receiver: http.Server;
let port: number;
const seen: { url: string; host: string | undefined; method: string }[] = [];
let redirectTo: (url: string) => string | undefined = () => undefined;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    seen.push({ url: req.url!, host: req.headers.host, method: req.method! });
    const location = redirectTo(req.url!);
    res.writeHead(location ? 302 : 204, location ? { location } : {});
    res.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => receiver.close());
afterEach(() => {
  seen.length = 0;
  redirectTo = () => undefined;
  vi.restoreAllMocks();
});

const post = (url: string, verdict = receiverOnly, resolve = stubResolver) =>
  postWebhook(url, { "Content-Type": "application/json" }, "{}", AbortSignal.timeout(5000), { resolve, verdict, allowPrivate: false });

function watchRequests() {
  return [vi.spyOn(http, "request"), vi.spyOn(https, "request")] as const;
}

describe("webhook targets", () => {
  it.each([
    ["http://intranet.example/hook", /10\.0\.0\.7 is a private/],
    ["https://metadata.example/latest/meta-data/", /169\.254\.169\.254 is a link-local/],
    ["http://six.example:8080/", /::1 is a loopback/],
    ["http://ula.example/", /unique-local/],
    ["http://cgnat.example/", /carrier-grade NAT/],
    ["http://mapped.example/", /192\.168\.0\.1 is a private/],
    ["http://split.example/", /10\.0\.0\.1 is a private/],
    ["http://127.0.0.1:9/", /loopback/],
    ["http://[::1]:9/", /loopback/],
    ["http://[::ffff:169.254.169.254]/", /link-local/],
    ["http://0.0.0.0:9/", /unspecified/],
  ])("%s is refused before any connection", async (url, reason) => {
    const requests = watchRequests();
    const refusal = post(url, webhookAddressVerdict);
    await expect(refusal).rejects.toThrow(reason);
    await expect(refusal).rejects.toThrow(/TOOLGATE_WEBHOOK_ALLOW_PRIVATE=true/);
    for (const spy of requests) expect(spy).not.toHaveBeenCalled();
  });

  it("connects to the address that was checked (one lookup, no second one to rebind), with the URL's host name", async () => {
    let lookups = 0;
    const rebinding: Resolver = async (hostname) => (lookups++ === 0 ? stubResolver(hostname) : [{ address: "10.9.9.9", family: 4 }]);
    expect(await post(`http://receiver.test:${port}/hook`, receiverOnly, rebinding)).toBe(204);
    expect(lookups).toBe(1);
    expect(seen).toEqual([{ url: "/hook", host: `receiver.test:${port}`, method: "POST" }]);
  });

  it("re-checks every redirect: a hop to an internal address is refused before connecting to it", async () => {
    redirectTo = (url) => (url === "/hook" ? `http://receiver.test:${port}/second` : url === "/second" ? "http://metadata.example/latest" : undefined);
    const [httpRequest] = watchRequests();
    await expect(post(`http://receiver.test:${port}/hook`)).rejects.toThrow(/169\.254\.169\.254 is a link-local/);
    expect(seen.map((s) => s.url)).toEqual(["/hook", "/second"]);
    expect(httpRequest).toHaveBeenCalledTimes(2);
  });

  it("follows at most 3 redirects", async () => {
    redirectTo = (url) => `/loop${Number(url.replace(/\D/g, "") || 0) + 1}`;
    await expect(post(`http://receiver.test:${port}/hook`)).rejects.toThrow(/redirected more than 3 times/);
    expect(seen).toHaveLength(4);
    redirectTo = (url) => (url === "/hook" ? "/final" : undefined);
    seen.length = 0;
    expect(await post(`http://receiver.test:${port}/hook`)).toBe(204);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /hook", "GET /final"]);
  });
});

describe("webhooks API with internal targets refused (the default)", () => {
  it("creating a webhook and 'Send test' to an internal address are refused with the reason, and nothing is sent", async () => {
    const p = await makeProject();
    const owner = await p.asOwner();
    const requests = watchRequests();
    await expect(owner.webhooks.create({ project: p.project.slug, name: "metadata", url: "http://169.254.169.254/latest/meta-data/" })).rejects.toThrow(
      /169\.254\.169\.254 is a link-local.*TOOLGATE_WEBHOOK_ALLOW_PRIVATE=true/,
    );
    await expect(owner.webhooks.create({ project: p.project.slug, name: "local", url: `http://127.0.0.1:${port}/hook` })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/127\.0\.0\.1 is a loopback/),
    });
    expect(await owner.webhooks.list({ project: p.project.slug })).toEqual([]);

    // an endpoint stored while internal targets were allowed
    const stored = await prisma().webhookEndpoint.create({
      data: { projectId: p.project.id, name: "old", url: `http://127.0.0.1:${port}/hook`, secret: "whsec_x" },
    });
    await expect(owner.webhooks.sendTest({ project: p.project.slug, id: stored.id })).rejects.toThrow(/127\.0\.0\.1 is a loopback/);
    for (const spy of requests) expect(spy).not.toHaveBeenCalled();
    expect(seen).toHaveLength(0);
  });

  it("an incident delivery to a refused target is logged once with the reason and not retried; an unresolvable host is retried", async () => {
    const p = await makeProject();
    const endpoint = await prisma().webhookEndpoint.create({
      data: { projectId: p.project.id, name: "m", url: "http://metadata.example/latest", secret: "whsec_x" },
    });
    const requests = watchRequests();
    const options = { attempts: 3, backoffMs: 1, target: { resolve: stubResolver, allowPrivate: false } };
    expect(await deliver(endpoint, "incident.fired", {}, null, options)).toBe(false);
    const log = await prisma().webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(log).toEqual([expect.objectContaining({ attempt: 1, statusCode: null, error: expect.stringMatching(/169\.254\.169\.254 is a link-local/) })]);
    for (const spy of requests) expect(spy).not.toHaveBeenCalled();

    await prisma().webhookEndpoint.update({ where: { id: endpoint.id }, data: { url: "http://nowhere.example/" } });
    expect(await deliver({ ...endpoint, url: "http://nowhere.example/" }, "incident.fired", {}, null, options)).toBe(false);
    expect(await prisma().webhookDelivery.count({ where: { endpointId: endpoint.id, error: { contains: "could not be resolved" } } })).toBe(3);
  });

  it("the incident page's delivery log shows webhook URLs whole to admins only", async () => {
    const p = await makeProject();
    const slack = "https://hooks.slack.com/services/T000/B000/secret-token";
    const rule = await prisma().alertRule.create({
      data: { projectId: p.project.id, name: "r", metric: "invalid_rate", condition: "above", threshold: 0.1, windowMinutes: 15 },
    });
    const now = new Date();
    const incident = await prisma().incident.create({
      data: {
        projectId: p.project.id,
        ruleId: rule.id,
        state: "firing",
        severity: "warning",
        value: 0.5,
        threshold: 0.1,
        calls: 60,
        summary: "s",
        windowStart: now,
        firedAt: now,
      },
    });
    const endpoint = await prisma().webhookEndpoint.create({ data: { projectId: p.project.id, name: "slack", url: slack, secret: "whsec_x" } });
    await prisma().webhookDelivery.create({ data: { endpointId: endpoint.id, incidentId: incident.id, event: "incident.fired", attempt: 1, statusCode: 200 } });

    const urlAs = async (caller: Awaited<ReturnType<typeof p.asOwner>>) =>
      (await caller.alerts.incident({ project: p.project.slug, id: incident.id })).deliveries.map((d) => d.endpoint.url);
    expect(await urlAs(await p.asOwner())).toEqual([slack]);
    expect(await urlAs(await p.member("admin"))).toEqual([slack]);
    expect(await urlAs(await p.member("member"))).toEqual(["https://hooks.slack.com/…"]);
    expect(await urlAs(await p.member("viewer"))).toEqual(["https://hooks.slack.com/…"]);
  });
});

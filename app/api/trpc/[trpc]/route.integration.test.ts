import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeProject, makeUser, signedIn } from "@/test/fixtures";
import { SESSION_COOKIE, userForSession } from "@/server/services/auth/sessions";
import { GET, POST } from "./route";

// Real HTTP on loopback into this route handler (Node's request turned into a fetch Request,
// as Next.js does), so that the browser's headers arrive as they would.
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = `http://${req.headers.host}${req.url}`;
    const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])));
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(url, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: "half",
    } as RequestInit);
    const response = await (req.method === "GET" ? GET : POST)(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const post = (path: string, headers: Record<string, string>, body = "{}") => fetch(`${base}/api/trpc/${path}`, { method: "POST", headers, body });

describe("mutations from other origins", () => {
  it("a same-site page cannot sign a user out; the app's own page can", async () => {
    const { token } = await signedIn((await makeUser()).id);
    const cookie = `${SESSION_COOKIE}=${token}`;
    const json = { cookie, "content-type": "application/json" };

    const sibling = await post("auth.signOut", { ...json, origin: "http://evil.127.0.0.1.nip.test", "sec-fetch-site": "same-site" });
    expect(sibling.status).toBe(403);
    expect((await sibling.json()).error.message).toMatch(/Refused a same-site request.*Sec-Fetch-Site was "same-site"/);
    const foreignOrigin = await post("auth.signOut", { ...json, origin: "http://attacker.example" });
    expect(foreignOrigin.status).toBe(403);
    expect((await foreignOrigin.json()).error.message).toContain('origin "http://attacker.example"');
    expect(await userForSession(token), "still signed in").not.toBeNull();

    const own = await post("auth.signOut", { ...json, origin: base, "sec-fetch-site": "same-origin" });
    expect(own.status).toBe(200);
    expect(await userForSession(token), "signed out").toBeNull();
  });

  it("an Origin matching a client's own X-Forwarded-Host is foreign unless TOOLGATE_TRUST_PROXY says a proxy sets it", async () => {
    const { token } = await signedIn((await makeUser()).id);
    const headers = { cookie: `${SESSION_COOKIE}=${token}`, "content-type": "application/json", origin: "https://evil.example" };
    const spoofed = await post("auth.signOut", { ...headers, "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });
    expect(spoofed.status).toBe(403);
    expect(await userForSession(token), "still signed in").not.toBeNull();
  });

  it("a signed-in form post is refused even without Origin; API-key calls need no Origin and may name any", async () => {
    const p = await makeProject();
    const owner = await signedIn(p.owner.id);
    const form = new FormData();
    form.set("name", "renamed by a form");
    const multipart = await fetch(`${base}/api/trpc/projects.rename`, { method: "POST", headers: { cookie: `${SESSION_COOKIE}=${owner.token}` }, body: form });
    expect(multipart.status).toBe(403);
    expect((await multipart.json()).error.message).toMatch(/Content-Type "multipart\/form-data; boundary=.*application\/json/);
    expect((await owner.projects.get({ project: p.project.slug })).name).toBe(p.project.name);

    const { key } = await p.key();
    for (const origin of [undefined, "http://harness.example"]) {
      const whoami = await post("system.whoami", { authorization: `Bearer ${key}`, "content-type": "application/json", ...(origin ? { origin } : {}) });
      expect(whoami.status).toBe(200);
      expect((await whoami.json()).result.data).toEqual({ project: p.project.slug, scope: "ingest" });
    }
  });
});

describe("a malformed session cookie", () => {
  it("counts as signed out (401, or the public answer), never a 500", async () => {
    const cookie = `${SESSION_COOKIE}=%E0%A4%A`;
    const status = await fetch(`${base}/api/trpc/auth.status`, { headers: { cookie } });
    expect(status.status).toBe(200);
    expect((await status.json()).result.data.user).toBeNull();
    const list = await fetch(`${base}/api/trpc/projects.list`, { headers: { cookie } });
    expect(list.status).toBe(401);
  });
});

describe("a POST without a JSON body", () => {
  it("is refused 415 in tRPC's JSON error shape, as JSON (schemathesis: tRPC answered it as text/plain)", async () => {
    const p = await makeProject();
    const { key } = await p.key("fuzz");
    const res = await fetch(`${base}/api/trpc/system.whoami`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(415);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect((await res.json()).error).toMatchObject({ code: -32015, data: { code: "UNSUPPORTED_MEDIA_TYPE", httpStatus: 415 } });
  });
});

import { createServer, request, type IncomingHttpHeaders, type OutgoingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startHttpGateway, type HttpGateway, type HttpGatewayOptions } from "./mcp-http";

// The HTTP gateway's header handling, on real sockets: a plain node:http upstream that records
// what reaches it, the gateway in this process in front of it, and raw node:http requests (fetch
// refuses to send Connection or Host of the caller's choosing).

type Seen = { method: string; url: string; headers: IncomingHttpHeaders };

let closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

/** An upstream answering every request with `answer` (a JSON-RPC result by default), recording what it saw. */
async function upstream(answer: (seen: Seen) => { status?: number; headers?: OutgoingHttpHeaders; body?: string } = () => ({})) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers };
      seen.push(entry);
      const { status = 200, headers = { "content-type": "application/json" }, body = '{"jsonrpc":"2.0","id":1,"result":{}}' } = answer(entry);
      res.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

async function gatewayTo(url: string, options: Partial<HttpGatewayOptions> = {}): Promise<HttpGateway> {
  const gateway = await startHttpGateway({ host: "127.0.0.1", port: 0, upstream: url, log: () => {}, reporter: null, ...options });
  closing.push(() => gateway.close());
  return gateway;
}

/** One raw request; resolves with the status, the headers and the body. */
function send(url: string, method: string, headers: OutgoingHttpHeaders, body?: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
const jsonPost = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("the HTTP gateway's hop-by-hop headers (RFC 9110 §7.6.1)", () => {
  it("does not pass on a header the request's Connection names, nor one the answer's Connection names", async () => {
    const server = await upstream(() => ({
      headers: { "content-type": "application/json", connection: "keep-alive, X-Upstream-Private", "x-upstream-private": "internal", "x-kept": "yes" },
    }));
    const gateway = await gatewayTo(server.url);
    const answer = await send(
      `${gateway.url}mcp`,
      "POST",
      {
        ...jsonPost,
        connection: "keep-alive, X-Internal-Secret",
        "x-internal-secret": "s3cret",
        "x-ordinary": "kept",
      },
      ping,
    );
    expect(answer.status).toBe(200);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.headers["x-internal-secret"]).toBeUndefined();
    expect(server.seen[0]!.headers["x-ordinary"]).toBe("kept");
    expect(answer.headers["x-upstream-private"]).toBeUndefined();
    expect(answer.headers["x-kept"]).toBe("yes");
  });

  it("drops the named headers on GET and DELETE too, and whatever case and spacing Connection uses", async () => {
    const server = await upstream(() => ({ headers: { "content-type": "text/plain" }, body: "" }));
    const gateway = await gatewayTo(server.url);
    for (const method of ["GET", "DELETE"]) {
      await send(`${gateway.url}mcp`, method, { connection: "close ,  x-a,X-B", "x-a": "1", "x-b": "2", "x-c": "3" });
    }
    expect(server.seen.map((s) => [s.method, s.headers["x-a"], s.headers["x-b"], s.headers["x-c"]])).toEqual([
      ["GET", undefined, undefined, "3"],
      ["DELETE", undefined, undefined, "3"],
    ]);
  });
});

describe("the HTTP gateway's DNS-rebinding protection", () => {
  it("answers 403, as the SDK servers do, to a Host or an Origin that is not loopback, and sends nothing upstream", async () => {
    const server = await upstream();
    const gateway = await gatewayTo(server.url);
    const port = new URL(gateway.url).port;
    const evilHost = await send(`${gateway.url}mcp`, "POST", { ...jsonPost, host: "evil.example.com" }, ping);
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.body)).toMatchObject({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.stringMatching(/^Invalid Host: evil\.example\.com/) },
    });
    const evilOrigin = await send(`${gateway.url}mcp`, "POST", { ...jsonPost, origin: "http://evil.example.com" }, ping);
    expect(evilOrigin.status).toBe(403);
    expect(JSON.parse(evilOrigin.body).error.message).toMatch(/^Invalid Origin: http:\/\/evil\.example\.com/);
    const getStream = await send(`${gateway.url}mcp`, "GET", { host: `evil.example.com:${port}` });
    expect(getStream.status).toBe(403);
    expect(server.seen).toEqual([]);

    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await send(`${gateway.url}mcp`, "POST", { ...jsonPost, host, origin: `http://localhost:5173` }, ping)).status).toBe(200);
    }
    expect(server.seen).toHaveLength(2);
  });

  it("takes other host names and origins when told to, and then only those", async () => {
    const server = await upstream();
    const gateway = await gatewayTo(server.url, { allowedHosts: ["gateway.internal"], allowedOrigins: ["https://app.example.com"] });
    const post = (headers: OutgoingHttpHeaders) => send(`${gateway.url}mcp`, "POST", { ...jsonPost, ...headers }, ping).then((r) => r.status);
    expect(await post({ host: "gateway.internal:8808" })).toBe(200);
    expect(await post({ host: "gateway.internal", origin: "https://app.example.com" })).toBe(200);
    expect(await post({ host: "gateway.internal", origin: "http://app.example.com" })).toBe(403);
    expect(await post({})).toBe(403); // 127.0.0.1 is no longer on the list
  });

  it("passes the client's Origin on to the server, so that the server's own check still sees it; Host names the server", async () => {
    const server = await upstream();
    const gateway = await gatewayTo(server.url);
    await send(`${gateway.url}mcp`, "POST", { ...jsonPost, origin: "http://localhost:3000" }, ping);
    expect(server.seen[0]!.headers.origin).toBe("http://localhost:3000");
    expect(server.seen[0]!.headers.host).toBe(new URL(server.url).host);
  });
});

describe("the HTTP gateway in front of a server behind OAuth", () => {
  it("points WWW-Authenticate and the protected-resource metadata at the gateway, and sends /.well-known and the OAuth endpoints to the server's origin", async () => {
    let origin = "";
    const server = await upstream((seen) => {
      if (seen.url === "/.well-known/oauth-protected-resource/mcp")
        return { body: JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [origin], scopes_supported: ["notes"] }) };
      if (seen.url.startsWith("/token")) return { body: '{"access_token":"at-1","token_type":"Bearer"}' };
      return {
        status: 401,
        headers: {
          "content-type": "application/json",
          "www-authenticate": `Bearer error="invalid_token", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="notes"`,
        },
        body: '{"error":"invalid_token"}',
      };
    });
    origin = new URL(server.url).origin;
    const gateway = await gatewayTo(server.url);
    const own = gateway.url.replace(/\/$/, "");

    const refused = await send(`${own}/mcp`, "POST", { ...jsonPost, authorization: "Bearer expired-token-7" }, ping);
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toBe(
      `Bearer error="invalid_token", resource_metadata="${own}/.well-known/oauth-protected-resource/mcp", scope="notes"`,
    );
    const metadata = await send(`${own}/.well-known/oauth-protected-resource/mcp`, "GET", {});
    expect(JSON.parse(metadata.body)).toEqual({ resource: `${own}/mcp`, authorization_servers: [origin], scopes_supported: ["notes"] });
    const token = await send(
      `${own}/token?x=1`,
      "POST",
      { "content-type": "application/x-www-form-urlencoded", authorization: "Basic Y2xpZW50OnNlY3JldA==" },
      "grant_type=authorization_code&code=c",
    );
    expect(JSON.parse(token.body)).toEqual({ access_token: "at-1", token_type: "Bearer" });

    expect(server.seen.map((s) => [s.method, s.url])).toEqual([
      ["POST", "/mcp"],
      ["GET", "/.well-known/oauth-protected-resource/mcp"],
      ["POST", "/token?x=1"],
    ]);
    expect(server.seen[0]!.headers.authorization).toBe("Bearer expired-token-7");
    expect(server.seen[2]!.headers.authorization).toBe("Basic Y2xpZW50OnNlY3JldA==");
  });
});

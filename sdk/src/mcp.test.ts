import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ToolgateEvent } from "./event";
import { McpGateway, type GatewayOptions } from "./mcp";
import { parseMcpArgs, runMcp } from "./mcp-cli";
import type { Reporter, ToolRegistration } from "./reporter";

const encode = (value: unknown) => new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));
const text = (line: string | Uint8Array) => (typeof line === "string" ? line : new TextDecoder().decode(line));

const echo = { name: "echo", inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false } };

/** A gateway between a recorded client and a scripted server that answers tools/list with `pages`. */
function harness(options: Partial<GatewayOptions> = {}, pages: unknown[][] = [[echo]], listed: Record<string, unknown> = {}) {
  const toClient: string[] = [];
  const toServer: string[] = [];
  const events: ToolgateEvent[] = [];
  let lists = 0;
  const gateway: McpGateway = new McpGateway({
    toClient: (line) => void toClient.push(text(line)),
    toServer: (line) => {
      toServer.push(text(line));
      const message = JSON.parse(text(line)) as { id?: string; method?: string; params?: { cursor?: string } };
      if (message.method === "tools/list" && typeof message.id === "string" && message.id.startsWith("toolgate-")) {
        lists++;
        const index = Number(message.params?.cursor ?? 0);
        const next = index + 1 < pages.length ? { nextCursor: String(index + 1) } : {};
        queueMicrotask(() => gateway.fromServer(encode({ jsonrpc: "2.0", id: message.id, result: { tools: pages[index], ...next, ...listed } })));
      }
    },
    log: () => {},
    reporter: null,
    onEvent: (event) => void events.push(event),
    ...options,
  });
  async function start() {
    gateway.fromClient(encode({ jsonrpc: "2.0", id: 0, method: "initialize", params: { clientInfo: { name: "client", version: "9" } } }));
    gateway.fromServer(
      encode({ jsonrpc: "2.0", id: 0, result: { capabilities: { tools: { listChanged: true } }, serverInfo: { name: "srv", version: "1" } } }),
    );
    gateway.fromClient(encode({ jsonrpc: "2.0", method: "notifications/initialized" }));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const call = (id: number, name: string, args: unknown) =>
    gateway.fromClient(encode({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }));
  return { gateway, toClient, toServer, events, start, call, lists: () => lists };
}

describe("McpGateway", () => {
  it("passes other messages through byte for byte and keeps its own tools/list answers from the client", async () => {
    const h = harness();
    await h.start();
    const odd = '{"jsonrpc":"2.0",  "id":7,"method":"resources/list"}';
    h.gateway.fromClient(encode(odd));
    h.gateway.fromServer(encode("not json at all"));
    expect(h.toServer).toContain(odd);
    expect(h.toClient).toEqual([expect.stringContaining('"serverInfo"'), "not json at all"]);
  });

  it("refuses an invalid call with isError, forwards a valid one, links the correction and records the result", async () => {
    const h = harness();
    await h.start();
    h.call(1, "echo", { message: 5 });
    expect(JSON.parse(h.toClient.at(-1)!)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: expect.stringMatching(/^Error: 'message' must be a string/) }], isError: true },
    });
    expect(h.toServer.some((line) => line.includes('"id":1'))).toBe(false);
    h.call(2, "echo", { message: "hi" });
    expect(JSON.parse(h.toServer.at(-1)!)).toMatchObject({ id: 2, method: "tools/call" });
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "hi" }] } }));
    expect(h.events.map((e) => [e.tool, e.step, e.outcome?.valid, e.result?.status, e.result?.summary])).toEqual([
      ["srv/echo", 0, false, undefined, undefined], // refused: it never ran, so it has no result (its message is the verdict's)
      ["srv/echo", 1, true, "ok", "hi"],
    ]);
    expect(h.events[1]!.correctsId).toBe(h.events[0]!.id);
    expect(h.events[0]!.model).toEqual({ name: "client", version: "9" });
    expect(h.events[0]!.metadata).toMatchObject({ mcp_server: "srv", mcp_client: "client", model_from: "mcp clientInfo" });
  });

  it("answers a call it could not check with an error of its own instead of leaving the client waiting, and forwards nothing", async () => {
    const reporter = { registerTools: () => {}, record: () => void JSON.parse("{") } as unknown as Reporter;
    const h = harness({ reporter });
    await h.start();
    h.call(1, "echo", { message: 5 });
    expect(JSON.parse(h.toClient.at(-1)!)).toMatchObject({
      id: 1,
      error: { code: -32603, message: expect.stringMatching(/^Toolgate could not check this call/) },
    });
    expect(h.toServer.some((line) => line.includes('"tools/call"'))).toBe(false);
  });

  it("answers an unknown tool with a tool result the model reads (isError), listing the tools; a name that is no string is a protocol error", async () => {
    const h = harness();
    await h.start();
    h.call(3, "ech0", {});
    expect(JSON.parse(h.toClient.at(-1)!)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: { content: [{ type: "text", text: "Error: no tool named 'ech0'. Available tools: echo. Did you mean 'echo'?" }], isError: true },
    });
    h.gateway.fromClient(encode({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: 7, arguments: {} } }));
    expect(JSON.parse(h.toClient.at(-1)!)).toMatchObject({ id: 4, error: { code: -32602 } });
    expect(h.events.map((e) => [e.outcome, e.result])).toEqual([
      [{ valid: false, category: "unknown_tool", message: expect.stringMatching(/^Error: no tool named 'ech0'/) }, undefined],
      [{ valid: false, category: "unknown_tool", message: expect.stringMatching(/^Error: /) }, undefined],
    ]);
  });

  it("holds a call that arrives before the tool list, and reads every page", async () => {
    const h = harness({}, [[echo], [{ ...echo, name: "second" }]]);
    h.gateway.fromClient(encode({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }));
    h.gateway.fromClient(encode({ jsonrpc: "2.0", method: "notifications/initialized" }));
    h.call(1, "second", { message: "x" });
    h.gateway.fromClient(encode({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }));
    expect(h.toServer.map((l) => JSON.parse(l).method)).toEqual(["initialize", "notifications/initialized"]);
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 0, result: { capabilities: { tools: {} }, serverInfo: { name: "srv" } } }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(h.toServer.map((l) => JSON.parse(l).method)).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/list",
      "tools/list",
      "tools/call",
      "notifications/cancelled",
    ]);
  });

  it("reads the list again after notifications/tools/list_changed", async () => {
    const h = harness();
    await h.start();
    expect(h.lists()).toBe(1);
    h.gateway.fromServer(encode({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.lists()).toBe(2);
    expect(h.toClient.at(-1)).toContain("list_changed");
  });

  it("names the tools the client is offered (toolSet, by their Toolgate names) with the first call after each new list", async () => {
    const add = { name: "add", inputSchema: { type: "object" } };
    const pages = [[echo, add]];
    const h = harness({}, pages);
    await h.start();
    // refused calls (no message): recorded at once
    h.call(1, "echo", {});
    h.call(2, "echo", {});
    const listChanged = async () => {
      h.gateway.fromServer(encode({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
      await new Promise((resolve) => setTimeout(resolve, 0));
    };
    await listChanged(); // the same list again: nothing new to name
    h.call(3, "echo", {});
    pages[0] = [echo];
    await listChanged();
    h.call(4, "echo", {});
    expect(h.events.map((e) => e.toolSet)).toEqual([["srv/echo", "srv/add"], undefined, undefined, ["srv/echo"]]);
  });

  it("checks a call sent while the list is read again after list_changed against the new list", async () => {
    const pages = [[echo]];
    const h = harness({}, pages);
    await h.start();
    pages[0] = [{ ...echo, inputSchema: { ...echo.inputSchema, properties: { message: { type: "integer" } } } }];
    h.gateway.fromServer(encode({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
    h.call(5, "echo", { message: 7 }); // valid under the new schema only
    h.call(6, "echo", { message: "hi" }); // valid under the old schema only
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.lists()).toBe(2);
    const calls = h.toServer.map((line) => JSON.parse(line) as { id: unknown; method?: string }).filter((m) => m.method === "tools/call");
    expect(calls.map((m) => m.id)).toEqual([5]);
    expect(JSON.parse(h.toClient.at(-1)!)).toMatchObject({ id: 6, result: { isError: true } });
  });

  it("--enforce report forwards an invalid call and records its verdict; off records none", async () => {
    for (const enforce of ["report", "off"] as const) {
      const h = harness({ enforce });
      await h.start();
      h.call(1, "echo", {});
      expect(JSON.parse(h.toServer.at(-1)!)).toMatchObject({ id: 1, method: "tools/call" });
      h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad" } }));
      expect(h.events[0]!.outcome).toEqual(enforce === "report" ? expect.objectContaining({ valid: false, category: "missing_argument" }) : undefined);
      expect(h.events[0]!.result).toMatchObject({ status: "error", summary: "bad" });
    }
  });

  it("gates each tools/call of a batch and forwards the rest as one batch", async () => {
    const h = harness();
    await h.start();
    h.gateway.fromClient(
      encode([
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: {} } },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "ok" } } },
      ]),
    );
    expect(JSON.parse(h.toClient.at(-1)!)).toMatchObject({ id: 1, result: { isError: true } });
    expect(JSON.parse(h.toServer.at(-1)!)).toEqual([{ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "ok" } } }]);
  });

  it("names tools by --namespace, or by their own name with --no-namespace", async () => {
    expect(parseMcpArgs(["--namespace", "fs", "--", "x"]).namespace).toBe("fs");
    expect(parseMcpArgs(["--no-namespace", "--", "x"]).namespace).toBe("");
    expect(parseMcpArgs(["--model", "claude@4.5", "--", "npx", "-y", "srv"])).toMatchObject({
      model: { name: "claude", version: "4.5" },
      command: ["npx", "-y", "srv"],
    });
    expect(() => parseMcpArgs(["--enforce", "maybe", "--", "x"])).toThrow(/--enforce takes strict, report or off/);
    expect(() => parseMcpArgs(["--model", "m"])).toThrow(/No server command given/);
    const h = harness({ namespace: "" });
    await h.start();
    h.call(1, "echo", {});
    expect(h.events[0]!.tool).toBe("echo");
  });

  it("starts the server without Toolgate's credentials, nor the package npx was told to run the gateway from", async () => {
    // the server prints its environment as one line, and exits
    const server = [process.execPath, "-e", "process.stdout.write(JSON.stringify(process.env) + '\\n')"];
    const env = {
      PATH: process.env.PATH,
      TOOLGATE_URL: "http://127.0.0.1:9",
      TOOLGATE_API_KEY: "tg_secret",
      // what `npx -y -p @toolgate/sdk toolgate mcp -- …` puts in the gateway's environment: passed on, the server's
      // own `npx -y <server package>` would look for its command in @toolgate/sdk
      npm_config_package: "@toolgate/sdk",
      npm_config_yes: "true",
      npm_config_registry: "https://registry.example.com/", // the user's own npm settings stay
      MEMORY_FILE_PATH: "/tmp/memory.jsonl",
    };
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
    let out = "";
    io.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    expect(await runMcp(["--", ...server], env, io)).toBe(0);
    const seen = JSON.parse(out) as Record<string, string>;
    expect(seen).toMatchObject({ npm_config_yes: "true", npm_config_registry: "https://registry.example.com/", MEMORY_FILE_PATH: "/tmp/memory.jsonl" });
    expect(["TOOLGATE_API_KEY", "TOOLGATE_URL", "npm_config_package"].filter((name) => name in seen)).toEqual([]);
  });

  it("refuses to start when the API key cannot be sent in a header (the docs' placeholder tg_…), saying why, before starting the server", async () => {
    const server = [process.execPath, "-e", "process.stdout.write('started\\n')"];
    const io = { stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() };
    let out = "";
    let err = "";
    io.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    io.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    expect(await runMcp(["--", ...server], { PATH: process.env.PATH, TOOLGATE_URL: "http://127.0.0.1:9", TOOLGATE_API_KEY: "tg_…" }, io)).toBe(2);
    expect(err).toContain(
      'The Toolgate API key has "…" (U+2026) at character 4, which cannot be sent in an HTTP header. Paste the real key from Settings → API keys',
    );
    expect(out).toBe("");
  });

  it("--listen and --upstream: loopback only unless --allow-non-loopback, and never with a command", () => {
    expect(parseMcpArgs(["--listen", "127.0.0.1:8808", "--upstream", "https://example.com/mcp"])).toMatchObject({
      listen: { host: "127.0.0.1", port: 8808 },
      upstream: "https://example.com/mcp",
      command: [],
    });
    expect(parseMcpArgs(["--listen", "[::1]:0", "--upstream", "http://127.0.0.1:3001/mcp"]).listen).toEqual({ host: "[::1]", port: 0 });
    expect(parseMcpArgs(["--listen=localhost:9", "--upstream=http://127.0.0.1:3001/mcp"]).listen).toEqual({ host: "localhost", port: 9 });
    for (const host of ["0.0.0.0", "192.168.1.20", "[::]", "example.com"]) {
      expect(() => parseMcpArgs(["--listen", `${host}:8808`, "--upstream", "https://example.com/mcp"])).toThrow(/add --allow-non-loopback/);
      expect(parseMcpArgs(["--listen", `${host}:8808`, "--upstream", "https://example.com/mcp", "--allow-non-loopback"]).listen?.port).toBe(8808);
    }
    expect(() => parseMcpArgs(["--listen", "127.0.0.1:1"])).toThrow(/--listen and --upstream go together/);
    expect(() => parseMcpArgs(["--listen", "127.0.0.1", "--upstream", "http://x/mcp"])).toThrow(/--listen takes host:port/);
    expect(() => parseMcpArgs(["--listen", "127.0.0.1:1", "--upstream", "ftp://x/mcp"])).toThrow(/--upstream takes the server's MCP endpoint/);
    expect(() => parseMcpArgs(["--listen", "127.0.0.1:1", "--upstream", "http://x/mcp", "--", "node", "srv.js"])).toThrow(/not both/);
  });

  it("registers each listed schema under the namespaced name with its mcp: source, leaving out those tools.register would refuse", async () => {
    const registered: ToolRegistration[] = [];
    const reporter = { registerTools: (tools: ToolRegistration[]) => void registered.push(...tools), record: () => {} } as unknown as Reporter;
    const tools = [
      echo,
      { ...echo, name: "x".repeat(130) },
      { ...echo, name: "old", inputSchema: { ...echo.inputSchema, $schema: "http://json-schema.org/draft-03/schema#" } },
    ];
    const h = harness({ reporter }, [tools]);
    await h.start();
    expect(registered).toEqual([{ name: "srv/echo", parameters: echo.inputSchema, source: "mcp:srv" }]);
  });

  it("fails open: a call it cannot check is forwarded and recorded unchecked with the reason; --enforce strict refuses it", async () => {
    // a backreference: RE2 cannot run it, so the gateway cannot check the tool's calls
    const huge = { name: "huge", inputSchema: { type: "object", properties: { pick: { type: "string", pattern: "^(a)\\1$" } } } };
    const logs: string[] = [];
    const h = harness({ log: (line) => void logs.push(line) }, [[echo, huge]]);
    await h.start();
    h.call(1, "huge", { pick: "value-1" });
    h.call(2, "huge", { pick: "value-2" });
    expect(h.toServer.filter((line) => line.includes('"huge"'))).toHaveLength(2);
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "done" }] } }));
    expect(h.events[0]!.outcome).toBeUndefined();
    expect(h.events[0]!.metadata!.unchecked).toMatch(/^the server's schema for it cannot be used: /);
    expect(h.events[0]!.result).toMatchObject({ status: "ok", summary: "done" });
    expect(logs.filter((line) => line.startsWith("forwarding calls of 'huge' unchecked"))).toHaveLength(1);

    const strict = harness({ enforce: "strict" }, [[echo, huge]]);
    await strict.start();
    strict.call(1, "huge", { pick: "value-1" });
    expect(strict.toServer.some((line) => line.includes('"huge"'))).toBe(false);
    expect(JSON.parse(strict.toClient.at(-1)!).result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^Error: Toolgate cannot check calls of 'huge': the server's schema .*\(--enforce strict\)\.$/) }],
    });
  });

  it("fails open when the server's tool list cannot be read: calls go on unchecked, saying why", async () => {
    const h = harness();
    h.gateway.fromClient(encode({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }));
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 0, result: { capabilities: {}, serverInfo: { name: "srv" } } }));
    h.call(1, "anything", { a: 1 });
    expect(JSON.parse(h.toServer.at(-1)!)).toMatchObject({ id: 1, method: "tools/call" });
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 1, result: { content: [] } }));
    expect(h.events[0]!.metadata!.unchecked).toBe("the server declared no tools capability");
    // an answer without content says nothing: reported as an empty summary, which Toolgate flags as an empty result
    expect(h.events[0]!.result).toMatchObject({ status: "ok", summary: "" });
  });
});

describe("McpGateway at protocol 2026-07-28 (no handshake, the envelope in each request's _meta)", () => {
  const meta = (client = "py-client") => ({
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": { name: client, version: "2.3.0" },
  });
  const modern = (listed: Record<string, unknown> = { ttlMs: 0 }, pages: unknown[][] = [[echo]]) => {
    const h = harness({}, pages, {
      resultType: "complete",
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "loans", version: "1" } },
      ...listed,
    });
    const call = (id: number, name: string, args: unknown, extra: Record<string, unknown> = {}) =>
      h.gateway.fromClient(encode({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta(), name, arguments: args, ...extra } }));
    const ownLists = () => h.toServer.map((line) => JSON.parse(line)).filter((m) => m.method === "tools/list" && String(m.id).startsWith("toolgate-"));
    return { ...h, call, ownLists };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it("lists the tools itself with the client's envelope before the first call, and records model, server and version from _meta", async () => {
    const h = modern();
    h.call(1, "echo", { message: 5 });
    expect(h.ownLists()).toEqual([{ jsonrpc: "2.0", id: expect.any(String), method: "tools/list", params: { _meta: meta() } }]);
    await settle();
    expect(JSON.parse(h.toClient.at(-1)!)).toMatchObject({ id: 1, result: { resultType: "complete", isError: true } });
    h.call(2, "echo", { message: "hi" });
    expect(h.toServer.map((line) => JSON.parse(line).id)).toEqual([expect.any(String), 2]);
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 2, result: { resultType: "complete", content: [] } }));
    expect(h.events[0]).toMatchObject({ tool: "loans/echo", model: { name: "py-client", version: "2.3.0" } });
    expect(h.events[0]!.metadata).toMatchObject({ mcp_protocol_version: "2026-07-28", mcp_server: "loans", mcp_client: "py-client" });
    expect(h.events[1]!.correctsId).toBe(h.events[0]!.id);
  });

  it("uses the client's own tools/list (every page) and then sends none of its own", async () => {
    const h = modern();
    const list = (id: number, cursor?: string) =>
      h.gateway.fromClient(encode({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: meta(), ...(cursor ? { cursor } : {}) } }));
    list(1);
    h.gateway.fromServer(
      encode({
        jsonrpc: "2.0",
        id: 1,
        result: { tools: [echo], nextCursor: "p2", ttlMs: 60_000, _meta: { "io.modelcontextprotocol/serverInfo": { name: "loans" } } },
      }),
    );
    list(2, "p2");
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 2, result: { tools: [{ ...echo, name: "second" }], ttlMs: 60_000 } }));
    h.call(3, "second", { message: 1 });
    expect(JSON.parse(h.toClient.at(-1)!)).toMatchObject({ id: 3, result: { isError: true } });
    h.call(4, "missing", {});
    expect(JSON.parse(h.toClient.at(-1)!).result.content[0].text).toMatch(/^Error: no tool named 'missing'\. Available tools: second, echo\./);
    expect(h.ownLists()).toEqual([]); // the list is fresh for 60 s: an unknown name does not make the gateway ask again
  });

  it("reads the list again for an unknown name once it is older than its ttlMs, and on list_changed", async () => {
    const h = modern({ ttlMs: 0 }, [[echo]]);
    h.call(1, "echo", { message: "a" });
    await settle();
    h.call(2, "ech0", {});
    expect(h.ownLists()).toHaveLength(2);
    await settle();
    expect(JSON.parse(h.toClient.at(-1)!)).toMatchObject({ id: 2, result: { isError: true } });
    h.gateway.fromServer(encode({ jsonrpc: "2.0", method: "notifications/tools/list_changed" }));
    expect(h.ownLists()).toHaveLength(3);
  });

  it("an initialize the server refuses (a server/discover the client gave up on already settled 2026-07-28) does not rename the server", async () => {
    const h = modern();
    h.gateway.fromClient(encode({ jsonrpc: "2.0", id: 0, method: "server/discover", params: { _meta: meta() } }));
    h.gateway.fromClient(encode({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", clientInfo: { name: "py-agent" } } }));
    h.gateway.fromServer(
      encode({ jsonrpc: "2.0", id: 0, result: { capabilities: { tools: {} }, _meta: { "io.modelcontextprotocol/serverInfo": { name: "loans" } } } }),
    );
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 1, error: { code: -32022, message: "Unsupported protocol version" } }));
    h.call(2, "echo", { message: 1 });
    await settle();
    expect(h.events[0]!.tool).toBe("loans/echo");
  });

  it("records a multi round-trip call (input_required, then the retry with inputResponses) as one call", async () => {
    const h = modern();
    h.call(1, "echo", { message: "hi" });
    await settle();
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 1, result: { resultType: "input_required", requestState: "s1", inputRequests: {} } }));
    expect(h.events).toEqual([]);
    h.call(2, "echo", { message: "hi" }, { inputResponses: {}, requestState: "s1" });
    h.gateway.fromServer(encode({ jsonrpc: "2.0", id: 2, result: { resultType: "complete", content: [{ type: "text", text: "ok" }] } }));
    expect(h.events.map((e) => [e.step, e.outcome?.valid, e.result?.summary])).toEqual([[0, true, "ok"]]);
  });
});

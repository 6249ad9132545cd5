import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it, vi } from "vitest";
import { waitFor } from "../../test/wait";
import { notesServer } from "./mcp-helpers";
import { cli, httpGateway } from "./mcp-processes";

vi.setConfig({ testTimeout: 120_000 });
const hostileServer = path.resolve(import.meta.dirname, "fixtures/hostile-mcp-server.mjs");
const work = mkdtempSync(path.join(tmpdir(), "toolgate-mcp-client-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
/** Toolgate "down": the reporter is on (every event is serialized and queued) and nothing listens. */
const reporterOn = { TOOLGATE_URL: "http://127.0.0.1:9", TOOLGATE_API_KEY: "tg_nothing_listens_here" };

type Answer = { id?: unknown; result?: { content?: { text: string }[]; isError?: boolean }; error?: { code: number; message: string } };

/** `toolgate mcp` in front of the hostile fixture's plain echo server, driven by raw lines on its stdin (no SDK client to tidy them). */
async function rawSession() {
  const log = path.join(work, `forwarded-${Math.random().toString(36).slice(2)}.jsonl`);
  const child = spawn(process.execPath, ["--import", "tsx", cli, "mcp", "--", process.execPath, hostileServer, "plain", log], {
    env: { PATH: process.env.PATH ?? "", ...reporterOn } as unknown as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const answers = new Map<string, Answer>();
  const unanswered: Answer[] = [];
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
    const message = JSON.parse(line) as Answer;
    if (message.id === null || message.id === undefined) unanswered.push(message);
    else answers.set(JSON.stringify(message.id), message);
  });
  const send = (line: string) => child.stdin.write(`${line}\n`);
  const answer = (id: unknown, timeoutMs = 30_000) =>
    waitFor(() => answers.get(JSON.stringify(id)), `the answer to ${JSON.stringify(id)} (the gateway said: ${stderr})`, timeoutMs) as Promise<Answer>;
  const call = (id: number, args: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: args } });
  send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "hostile", version: "1" } },
    }),
  );
  await answer("init");
  send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  const forwarded = () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean) : []);
  const close = async () => {
    const exit = new Promise((resolve) => child.on("exit", resolve));
    child.stdin.end();
    return exit;
  };
  return { send, answer, call, forwarded, unanswered, close, stderr: () => stderr, alive: () => child.exitCode === null };
}

const deep = (levels: number) => `${'{"a":'.repeat(levels)}"x"${"}".repeat(levels)}`;

describe("a hostile client cannot hang the stdio gateway or get an invalid call through", () => {
  it("malformed lines are passed on as they are and the gate keeps working", async () => {
    const s = await rawSession();
    for (const line of ["this is not JSON {", '{"jsonrpc": "2.0", "id": ', "42", "null", '"a string"', "[]", "[1, 2]"]) s.send(line);
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: "not an object" }));
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: { not: "a string" }, arguments: {} } }));
    s.send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: "not an object" } }));
    s.send(s.call(4, { message: 1 }));
    s.send(s.call(5, { message: "hi" }));
    expect((await s.answer(1)).error?.code).toBe(-32602);
    expect((await s.answer(2)).error?.code).toBe(-32602);
    expect((await s.answer(3)).result?.isError).toBe(true);
    expect((await s.answer(4)).result?.isError).toBe(true);
    expect((await s.answer(5)).result?.content?.[0]?.text).toBe("FORWARDED echo");
    await waitFor(() => s.unanswered.length >= 7, "the server's parse errors for the malformed lines");
    expect(s.forwarded()).toEqual(['{"name":"echo","arguments":{"message":"hi"}}']);
    expect(s.alive()).toBe(true);
    await s.close();
  });

  it("arguments nested 100,000 levels deep are refused, not forwarded, and do not stop the session", async () => {
    const s = await rawSession();
    s.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":${deep(100_000)}}}}`);
    s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x","extra":${deep(100_000)}}}}`);
    s.send(s.call(3, { message: "after" }));
    expect((await s.answer(1)).result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Error: 'message' must be a string/) }] });
    expect((await s.answer(2)).result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/'extra' is not an argument of echo/) }] });
    expect((await s.answer(3)).result?.content?.[0]?.text).toBe("FORWARDED echo");
    expect(s.forwarded()).toHaveLength(1);
    await s.close();
  });

  it("a 20 MB message is gated like any other: refused when invalid, forwarded when valid", async () => {
    const s = await rawSession();
    const big = "x".repeat(20 * 1024 * 1024);
    s.send(s.call(1, { message: "hi", padding: big }));
    s.send(s.call(2, { message: big }));
    expect((await s.answer(1)).result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/'padding' is not an argument of echo/) }] });
    expect((await s.answer(2)).result?.content?.[0]?.text).toBe("FORWARDED echo");
    expect(s.forwarded().map((line) => line.length)).toEqual([big.length + 42]);
    await s.close();
  });

  it("a flood of 2,000 calls written at once, half invalid, gets 2,000 answers and forwards only the valid ones", async () => {
    const s = await rawSession();
    const lines: string[] = [];
    for (let id = 0; id < 2000; id++) lines.push(s.call(id, id % 2 === 0 ? { message: `m${id}` } : { message: id }));
    s.send(lines.join("\n"));
    for (let id = 0; id < 2000; id++) {
      const answer = await s.answer(id, 60_000);
      expect(answer.result?.isError === true, `call ${id}`).toBe(id % 2 === 1);
    }
    expect(s.forwarded()).toHaveLength(1000);
    expect(s.forwarded().every((line) => /"message":"m\d+"/.test(line))).toBe(true);
    await s.close();
  });
});

describe("a hostile client cannot hang the HTTP gateway or get an invalid call through", () => {
  it("malformed bodies, an unknown session, a body over the limit, deep nesting and a flood of calls", async () => {
    const notes = await notesServer();
    const gateway = await httpGateway(notes.url, [], reporterOn);
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${gateway.url}mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body,
      });
    const init = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "hostile", version: "1" } },
      }),
    );
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-06-18" };
    await init.text();
    await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), session);
    const call = (id: number, args: string) =>
      post(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"add_note","arguments":${args}}}`, session);

    // not JSON: the server's own answer, passed back
    const malformed = await post("this is not JSON {", session);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error: { code: -32700 } });
    // a session the gateway never saw begin: it cannot gate it, so the client must start again
    const unknown = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add_note", arguments: {} } }), {
      "mcp-session-id": "made-up",
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toMatch(/Session not found: .*Send initialize again/);
    const huge = await post(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_note","arguments":{"title":"${"x".repeat(17 * 1024 * 1024)}"}}}`,
      session,
    );
    expect(huge.status).toBe(413);
    const nested = await call(3, `{"title":"t","body":${deep(100_000)}}`);
    expect(await nested.json()).toMatchObject({
      id: 3,
      result: { isError: true, content: [{ text: expect.stringMatching(/^Error: 'body' must be a string/) }] },
    });

    // a batch (protocol 2025-03-26) whose only request the gate refuses: its answer comes back, the notification goes on
    const batch = await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "add_note", arguments: { title: "t" } } },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } },
      ]),
      { ...session, "mcp-protocol-version": "2025-03-26" },
    );
    expect(await batch.json()).toMatchObject([{ id: 4, result: { isError: true } }]);

    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        call(10 + i, i % 2 === 0 ? `{"title":"n${i}","body":"b"}` : `{"title":${i}}`).then((r) => r.json() as Promise<Answer>),
      ),
    );
    expect(answers.map((a) => a.result?.isError === true)).toEqual(answers.map((_, i) => i % 2 === 1));
    expect(notes.calls).toHaveLength(150);
    expect(notes.calls.every((c) => typeof c.title === "string" && c.body === "b")).toBe(true);
    expect(await gateway.stop()).toBe(0);
    await notes.close();
  });
});

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { makeProject } from "../../test/fixtures";
import { httpAppForTests } from "../../test/http-app";
import { notesServer, storedCalls } from "./mcp-helpers";
import { httpGateway } from "./mcp-processes";
import { waitFor } from "../../test/wait";

const app = httpAppForTests();
vi.setConfig({ testTimeout: 90_000 }); // a real server and the gateway through tsx, on a loaded machine

describe("toolgate mcp --listen: what happened to each forwarded call", () => {
  it("records an answer as ok, isError as a tool error, and a call the client gave up on after its timeout as a timeout", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const notes = await notesServer({ outcomes: true });
    const gateway = await httpGateway(notes.url, [], { TOOLGATE_URL: app.app.url, TOOLGATE_API_KEY: key });
    const client = new Client({ name: "outcome-client", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}mcp`)));

    expect((await client.callTool({ name: "add_note", arguments: { title: "a", body: "b" } })).isError).toBeFalsy();
    const missing = await client.callTool({ name: "find_note", arguments: { title: "nope" } });
    expect(missing.isError).toBe(true);
    // the real client's own request timeout: it sends notifications/cancelled with "Request timed out"
    await expect(client.callTool({ name: "slow_note", arguments: { ms: 3_000 } }, undefined, { timeout: 300 })).rejects.toMatchObject({
      code: ErrorCode.RequestTimeout,
    });
    // the cancellation is sent after the rejection: let it pass through the gateway before closing
    await waitFor(() => notes.seen.some((s) => s.rpcMethods.includes("notifications/cancelled")), "the cancellation at the server");
    await client.close();

    const calls = await storedCalls(p.project.id, 3, `the three calls in Toolgate (the gateway said: ${gateway.stderr()})`);
    expect(await gateway.stop()).toBe(0);
    expect(calls.map((c) => [c.tool, c.valid, c.resultStatus])).toEqual([
      ["notes-server/add_note", true, "ok"],
      ["notes-server/find_note", true, "error"],
      ["notes-server/slow_note", true, "timeout"],
    ]);
    expect(calls[1]!.resultSummary).toBe("Error: no note titled 'nope'. Titles are case-sensitive.");
    expect(calls[2]!.resultSummary).toContain("Request timed out");
    expect(calls[2]!.latencyMs).toBeGreaterThanOrEqual(250);
    const { current } = await (
      await p.asOwner()
    ).metrics.totals({
      project: p.project.slug,
      range: { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(current).toMatchObject({ calls: 3, results: 3, toolErrors: 1, timeouts: 1 });
    await notes.close();
  });
});

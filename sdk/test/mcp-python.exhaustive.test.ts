import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { prisma } from "../../server/db/client";
import type { ToolCall } from "../../server/db/generated/client";
import { makeProject } from "../../test/fixtures";
import { httpAppForTests } from "../../test/http-app";
import { waitFor } from "../../test/wait";
import { cli, httpGateway, type HttpGatewayProcess } from "./mcp-processes";
import { calledBy, mcpPython, peerServer, peerServerOverHttp, runPeerClient, type PeerPlan, type PeerSession } from "./mcp-python";

// The official Python MCP SDK (its client, its high-level MCPServer and its low-level Server, which
// checks no arguments) and FastMCP, from PyPI (test/python/requirements-mcp.txt), through
// `toolgate mcp` at protocol 2026-07-28 (no handshake, stateless HTTP) and 2025-11-25 (the
// initialize handshake, HTTP sessions), over stdio and Streamable HTTP.

const server = httpAppForTests();
vi.setConfig({ testTimeout: 120_000 }); // Python servers, the gateway through tsx and the client, at once, on a loaded machine
const KINDS = { high: "loans-high", low: "loans-low", fastmcp: "loans-fastmcp" } as const;
const VERSIONS = { auto: "2026-07-28", legacy: "2025-11-25" } as const;
const kinds = Object.keys(KINDS) as (keyof typeof KINDS)[];
const modes = Object.keys(VERSIONS) as (keyof typeof VERSIONS)[];

let python: string;
beforeAll(() => {
  python = mcpPython();
}, 300_000);

const REFUSED = "Error: 'amount' must be a whole number, you sent the string \"lots\". Send a whole number instead.";
const UNKNOWN = "Error: no tool named 'getloan'. Available tools: get_loan. Did you mean 'get_loan'?";

/** What the servers answer the valid calls with, directly (the HTTP test compares with a direct session). */
const ANSWERS = ["loan of 1000 EUR approved", "loan of 500 USD approved", "loan of 1 EUR approved"].map((text) => ({ isError: false, text: [text] }));

/** Through the gateway: the valid calls answered as the server answers them, the others by the gate, for the model to read. */
function expectGated(through: PeerSession, version: string) {
  expect(through.protocolVersion).toBe(version);
  expect(through.tools).toEqual(["get_loan"]);
  const [first, refused, corrected, unknown, afterUnknown] = through.results;
  expect([first, corrected, afterUnknown]).toEqual(ANSWERS);
  expect(refused).toEqual({ isError: true, text: [REFUSED] });
  expect(unknown).toEqual({ isError: true, text: [UNKNOWN] });
}

/** The project's calls once `count` are stored, by run, each run in step order. */
async function storedRuns(projectId: string, count: number): Promise<ToolCall[][]> {
  let calls: ToolCall[] = [];
  await waitFor(async () => {
    calls = await prisma().toolCall.findMany({ where: { projectId }, orderBy: [{ runId: "asc" }, { step: "asc" }] });
    return calls.length >= count;
  }, `${count} calls in Toolgate`).catch((error: Error) => {
    const stored = calls.map((c) => [c.runId.slice(0, 8), c.tool, c.step, c.valid, (c.metadata as Record<string, string>).mcp_protocol_version]);
    throw new Error(`${error.message}; stored: ${JSON.stringify(stored)}`);
  });
  await new Promise((resolve) => setTimeout(resolve, 300)); // none more than that arrives
  calls = await prisma().toolCall.findMany({ where: { projectId }, orderBy: [{ runId: "asc" }, { step: "asc" }] });
  expect(calls).toHaveLength(count);
  const runs = new Map<string, ToolCall[]>();
  for (const call of calls) runs.set(call.runId, [...(runs.get(call.runId) ?? []), call]);
  return [...runs.values()];
}

/** Each run holds one session's five calls: tool, verdict, step, model, protocol version and the corrections linked. */
function expectRuns(runs: ToolCall[][], sessions: { server: string; version: string }[]) {
  const seen = runs.map((run) => {
    expect(run.map((c) => [c.step, c.valid, c.category, c.modelName, c.modelVersion])).toEqual([
      [0, true, null, "py-agent", "2.3.0"],
      [1, false, "wrong_type", "py-agent", "2.3.0"],
      [2, true, null, "py-agent", "2.3.0"],
      [3, false, "unknown_tool", "py-agent", "2.3.0"],
      [4, true, null, "py-agent", "2.3.0"],
    ]);
    const server = run[0]!.tool.split("/")[0]!;
    expect(run.map((c) => c.tool)).toEqual([0, 1, 2, 3, 4].map((i) => `${server}/${i === 3 ? "getloan" : "get_loan"}`));
    expect([run[2]!.correctsId, run[4]!.correctsId]).toEqual([run[1]!.id, run[3]!.id]);
    expect([run[0]!.correctsId, run[1]!.correctsId, run[3]!.correctsId]).toEqual([null, null, null]);
    expect(run[1]!.message).toBe(REFUSED);
    const versions = new Set(run.map((c) => (c.metadata as Record<string, string>).mcp_protocol_version));
    expect(versions.size).toBe(1);
    return { server, version: [...versions][0]! };
  });
  const order = (list: { server: string; version: string }[]) => list.map((s) => `${s.server} ${s.version}`).sort();
  expect(order(seen)).toEqual(order(sessions));
}

/** The calls a server got: the valid ones of each session through the gateway, and `direct` ones. */
function expectForwarded(called: { tool: string; arguments: unknown }[] | undefined, sessions: number, direct: { tool: string; arguments: unknown }[] = []) {
  const valid = [
    { tool: "get_loan", arguments: { amount: 1000, currency: "EUR" } },
    { tool: "get_loan", arguments: { amount: 500, currency: "USD" } },
    { tool: "get_loan", arguments: { amount: 1, currency: "EUR" } },
  ];
  const sorted = (list: { tool: string; arguments: unknown }[]) => list.map((c) => JSON.stringify(c)).sort();
  expect(sorted(called ?? [])).toEqual(sorted([...Array.from({ length: sessions }, () => valid).flat(), ...direct]));
}

const all = kinds.flatMap((kind) => modes.map((mode) => ({ server: KINDS[kind], version: VERSIONS[mode] })));

describe("toolgate mcp with the official Python MCP SDK 2.x and FastMCP", () => {
  it("over stdio, at 2026-07-28 and 2025-11-25: valid calls answered as directly, invalid ones refused before the server, every call stored once", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const env = { TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: key };
    const plan: PeerPlan = {};
    for (const kind of kinds) {
      for (const mode of modes) {
        const command = [process.execPath, "--import", "tsx", cli, "mcp", "--", python, peerServer, kind, "stdio", `${kind}-gated`];
        plan[`${kind} ${mode}`] = { mode, target: { command, env } };
      }
    }
    const { sessions, stderr } = await runPeerClient(python, plan);
    for (const kind of kinds) for (const mode of modes) expectGated(sessions[`${kind} ${mode}`]!, VERSIONS[mode]);
    const called = calledBy(stderr);
    for (const kind of kinds) expectForwarded(called[`${kind}-gated`], 2);
    expect(stderr.split("\n").filter((line) => line.startsWith("[toolgate]") && !line.includes("listening on"))).toEqual([]);
    expectRuns(await storedRuns(p.project.id, 30), all);
  });

  describe("over Streamable HTTP: stateless single exchanges at 2026-07-28, sessions at 2025-11-25", () => {
    const servers: Partial<Record<keyof typeof KINDS, { url: string; stderr: () => string; stop: () => Promise<unknown> }>> = {};
    const gateways: Partial<Record<keyof typeof KINDS, HttpGatewayProcess>> = {};
    let project: Awaited<ReturnType<typeof makeProject>>;
    beforeAll(async () => {
      project = await makeProject();
      const { key } = await project.key();
      await Promise.all(
        kinds.map(async (kind) => {
          servers[kind] = await peerServerOverHttp(python, kind, `${kind}-http`);
          gateways[kind] = await httpGateway(servers[kind].url, [], { TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: key });
        }),
      );
    }, 120_000);
    afterAll(async () => {
      await Promise.all(kinds.map(async (kind) => Promise.all([gateways[kind]?.stop(), servers[kind]?.stop()])));
    });

    it("valid calls answered as directly, invalid ones refused before the server, every call stored once in one run per client", async () => {
      const plan: PeerPlan = {};
      for (const kind of kinds) {
        plan[`${kind} direct`] = { mode: "auto", target: servers[kind]!.url };
        for (const mode of modes) plan[`${kind} ${mode}`] = { mode, target: `${gateways[kind]!.url}mcp` };
      }
      const { sessions } = await runPeerClient(python, plan);
      for (const kind of kinds) {
        const direct = sessions[`${kind} direct`]!;
        expect([direct.results[0], direct.results[2], direct.results[4]]).toEqual(ANSWERS);
        for (const mode of modes) expectGated(sessions[`${kind} ${mode}`]!, VERSIONS[mode]);
      }
      // the direct sessions' calls reach the servers as they were sent; the low-level server runs its handler for any of them
      const low = [
        { tool: "get_loan", arguments: { amount: "lots", currency: "EUR" } },
        { tool: "getloan", arguments: { amount: 1, currency: "EUR" } },
      ];
      for (const kind of kinds) expectForwarded(calledBy(servers[kind]!.stderr())[`${kind}-http`], 3, kind === "low" ? low : []);
      expectRuns(await storedRuns(project.project.id, 30), all);
      // every call was checked: no tool list failed, nothing went on unchecked
      for (const kind of kinds) expect(gateways[kind]!.stderr()).not.toMatch(/unchecked|tools\/list/);
    });
  });
});

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
// `toolgate mcp` at protocol 2026-07-28 (no handshake, stateless HTTP; with server/discover, and
// pinned without it) and 2025-11-25 (the initialize handshake; HTTP sessions, and servers run
// stateless), over stdio and Streamable HTTP; and a tool list that changes midway, announced on a
// 2026-07-28 subscriptions/listen stream.

const server = httpAppForTests();
vi.setConfig({ testTimeout: 120_000 }); // Python servers, the gateway through tsx and the client, at once, on a loaded machine
const KINDS = { high: "loans-high", low: "loans-low", fastmcp: "loans-fastmcp" } as const;
/**
 * The client's modes: auto (server/discover, then 2026-07-28), legacy (the initialize handshake), pinned
 * (2026-07-28 named up front: no server/discover, and no tools/list before its calls, so that the gateway
 * must list the tools itself for the first call; the SDK's client lists them on its own once that call is
 * answered, to read the tool's output schema, and the gateway reads that listing too).
 */
const VERSIONS = { auto: "2026-07-28", legacy: "2025-11-25", pinned: "2026-07-28" } as const;
type Mode = keyof typeof VERSIONS;
const kinds = Object.keys(KINDS) as (keyof typeof KINDS)[];
const modes = Object.keys(VERSIONS) as Mode[];

/** A session of the client in `mode` (see VERSIONS). */
function session(mode: Mode, target: PeerPlan[string]["target"]): PeerPlan[string] {
  return mode === "pinned" ? { mode: "2026-07-28", target, list: "last" } : { mode, target };
}

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

/** The (server, version) of each session of `modes` with each kind of server. */
const sessionsOf = (of: Mode[]) => kinds.flatMap((kind) => of.map((mode) => ({ server: KINDS[kind], version: VERSIONS[mode] })));

const stdioGateway = (kind: string, label: string, env: Record<string, string>, flags: string[] = []) => ({
  command: [process.execPath, "--import", "tsx", cli, "mcp", "--", python, peerServer, kind, "stdio", label, ...flags],
  env,
});

type HttpPeer = Awaited<ReturnType<typeof peerServerOverHttp>>;

/**
 * For the describe block it is called in: a peer server of each kind on Streamable HTTP (started with `flags`)
 * and `toolgate mcp --listen` in front of each, reporting to a project of their own (`toolgate`).
 */
function httpPeers<Kind extends keyof typeof KINDS>(of: readonly Kind[], label: (kind: Kind) => string, flags: ("--stateless" | "--changing")[]) {
  const servers: Partial<Record<Kind, HttpPeer>> = {};
  const gateways: Partial<Record<Kind, HttpGatewayProcess>> = {};
  const toolgate = { projectId: "", env: {} as Record<string, string> };
  beforeAll(async () => {
    const project = await makeProject();
    toolgate.projectId = project.project.id;
    toolgate.env = { TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: (await project.key()).key };
    await Promise.all(
      of.map(async (kind) => {
        const peer = await peerServerOverHttp(python, kind, label(kind), flags);
        servers[kind] = peer;
        gateways[kind] = await httpGateway(peer.url, [], toolgate.env);
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.all(of.map(async (kind) => Promise.all([gateways[kind]?.stop(), servers[kind]?.stop()])));
  });
  return { servers, gateways, toolgate };
}

/** What the gateway says on stderr, its start-up line aside: nothing, when every call was checked. */
const gatewayLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("[toolgate]") && !line.includes("listening on"));

describe("toolgate mcp with the official Python MCP SDK 2.x and FastMCP", () => {
  it("over stdio, at 2026-07-28 (with server/discover, and pinned without it) and 2025-11-25: valid calls answered as directly, invalid ones refused before the server, every call stored once", async () => {
    const p = await makeProject();
    const { key } = await p.key();
    const env = { TOOLGATE_URL: server.app.url, TOOLGATE_API_KEY: key };
    const plan: PeerPlan = {};
    for (const kind of kinds) for (const mode of modes) plan[`${kind} ${mode}`] = session(mode, stdioGateway(kind, `${kind}-gated`, env));
    const { sessions, stderr } = await runPeerClient(python, plan);
    for (const kind of kinds) for (const mode of modes) expectGated(sessions[`${kind} ${mode}`]!, VERSIONS[mode]);
    const called = calledBy(stderr);
    for (const kind of kinds) expectForwarded(called[`${kind}-gated`], modes.length);
    expect(gatewayLines(stderr)).toEqual([]);
    expectRuns(await storedRuns(p.project.id, 5 * kinds.length * modes.length), sessionsOf(modes));
  });

  // Against servers that keep sessions, the 2026-07-28 client is the auto one: a pinned one would be the same client
  // to the gateway (same clientInfo, no Authorization), so it goes to the servers run stateless, with the 2025-11-25 one.
  for (const setup of [
    { servers: "servers with sessions", flags: [], modes: ["auto", "legacy"], direct: "auto" },
    { servers: "servers run stateless (no Mcp-Session-Id)", flags: ["--stateless"], modes: ["legacy", "pinned"], direct: "legacy" },
  ] as const) {
    describe(`over Streamable HTTP, ${setup.servers}: ${setup.modes.map((mode) => `${mode} (${VERSIONS[mode]})`).join(" and ")}`, () => {
      const label = (kind: string) => `${kind}-http${setup.flags.join("")}`;
      const { servers, gateways, toolgate } = httpPeers(kinds, label, [...setup.flags]);

      it("valid calls answered as directly, invalid ones refused before the server, every call stored once in one run per client", async () => {
        const plan: PeerPlan = {};
        for (const kind of kinds) {
          plan[`${kind} direct`] = session(setup.direct, servers[kind]!.url);
          for (const mode of setup.modes) plan[`${kind} ${mode}`] = session(mode, `${gateways[kind]!.url}mcp`);
        }
        const { sessions } = await runPeerClient(python, plan);
        for (const kind of kinds) {
          const direct = sessions[`${kind} direct`]!;
          expect(direct.protocolVersion).toBe(VERSIONS[setup.direct]);
          expect([direct.results[0], direct.results[2], direct.results[4]]).toEqual(ANSWERS);
          for (const mode of setup.modes) expectGated(sessions[`${kind} ${mode}`]!, VERSIONS[mode]);
        }
        // the direct sessions' calls reach the servers as they were sent; the low-level server runs its handler for any of them
        const low = [
          { tool: "get_loan", arguments: { amount: "lots", currency: "EUR" } },
          { tool: "getloan", arguments: { amount: 1, currency: "EUR" } },
        ];
        for (const kind of kinds) expectForwarded(calledBy(servers[kind]!.stderr())[label(kind)], 3, kind === "low" ? low : []);
        expectRuns(await storedRuns(toolgate.projectId, 5 * kinds.length * setup.modes.length), sessionsOf([...setup.modes]));
        // every call was checked: no tool list failed, nothing went on unchecked
        for (const kind of kinds) expect(gatewayLines(gateways[kind]!.stderr())).toEqual([]);
      });
    });
  }

  // FastMCP 4.2.3 serves no subscriptions/listen (the SDK's ListenHandler is registered by MCPServer and passed to the
  // low-level Server by hand; FastMCP answers the request "Method not found"), so the two SDK servers alone.
  describe("a tool list that changes midway, announced on a 2026-07-28 subscriptions/listen stream", () => {
    const changing = ["high", "low"] as const;
    const { servers, gateways, toolgate } = httpPeers(changing, (kind) => `${kind}-changing-http`, ["--changing"]);

    it("the client still gets list_changed; the next calls are checked against the new schema, over stdio and HTTP", async () => {
      const plan: PeerPlan = {};
      for (const kind of changing) {
        plan[`${kind} stdio`] = { mode: "auto", target: stdioGateway(kind, `${kind}-changing-stdio`, toolgate.env, ["--changing"]), script: "change" };
        plan[`${kind} http`] = { mode: "auto", target: `${gateways[kind]!.url}mcp`, script: "change" };
      }
      const { sessions, stderr } = await runPeerClient(python, plan);
      const ok = (text: string) => ({ isError: false, text: [text] });
      const refused = (text: string) => ({ isError: true, text: [text] });
      const WHOLE = "Error: 'amount' must be a whole number, you sent the number 2.5. Send a whole number such as 3.";
      const TERM = "Error: 'term_months' is required by get_loan and was not sent. Add 'term_months' (integer).";
      for (const name of Object.keys(plan)) {
        const through = sessions[name]!;
        expect([through.protocolVersion, through.events]).toEqual(["2026-07-28", ["ToolsListChanged"]]);
        // get_loan {1000 EUR}, {2.5 EUR 12 months}; change_loans; the same two again (test/python/mcp_peer_client.py)
        expect(through.results).toEqual([
          ok("loan of 1000 EUR approved"),
          refused(WHOLE), // valid under the new schema only
          ok("get_loan now takes term_months"),
          ok("loan of 2.5 EUR over 12 months approved"),
          refused(TERM), // valid under the old schema only
        ]);
      }
      const reached = [
        { tool: "get_loan", arguments: { amount: 1000, currency: "EUR" } },
        { tool: "change_loans", arguments: {} },
        { tool: "get_loan", arguments: { amount: 2.5, currency: "EUR", term_months: 12 } },
      ];
      for (const kind of changing) {
        expect(calledBy(stderr)[`${kind}-changing-stdio`]).toEqual(reached);
        expect(calledBy(servers[kind]!.stderr())[`${kind}-changing-http`]).toEqual(reached);
      }
      // both schemas of get_loan registered, as two versions of the tool
      const versions: Record<string, { before: string; after: string }> = {};
      for (const kind of changing) {
        const name = `${KINDS[kind]}/get_loan`;
        const definitions = () => prisma().toolDefinition.findMany({ where: { projectId: toolgate.projectId, name } });
        await waitFor(async () => (await definitions()).length >= 2, `two versions of ${name}`);
        const found = await definitions();
        const fields = (v: (typeof found)[number]) =>
          Object.keys((v.parameters as { properties: object }).properties)
            .sort()
            .join(",");
        expect(found.map(fields).sort()).toEqual(["amount,currency", "amount,currency,term_months"]);
        versions[KINDS[kind]] = {
          before: found.find((v) => !fields(v).includes("term"))!.version,
          after: found.find((v) => fields(v).includes("term"))!.version,
        };
      }
      const runs = await storedRuns(toolgate.projectId, 5 * Object.keys(plan).length);
      expect(runs.map((run) => run[0]!.tool.split("/")[0]).sort()).toEqual(["loans-high", "loans-high", "loans-low", "loans-low"]);
      for (const run of runs) {
        expect(run.map((c) => [c.step, c.tool.split("/")[1], c.valid, c.category, c.message, c.modelName])).toEqual([
          [0, "get_loan", true, null, null, "py-agent"],
          [1, "get_loan", false, "wrong_type", WHOLE, "py-agent"],
          [2, "change_loans", true, null, null, "py-agent"],
          [3, "get_loan", true, null, null, "py-agent"],
          [4, "get_loan", false, "missing_argument", TERM, "py-agent"],
        ]);
        expect(run.map((c) => c.correctsId)).toEqual([null, null, null, run[1]!.id, null]);
        // each call names the schema it was checked against, and Toolgate's own check of it agrees
        const { before, after } = versions[run[0]!.tool.split("/")[0]!]!;
        expect([0, 1, 3, 4].map((i) => run[i]!.toolVersion)).toEqual([before, before, after, after]);
        expect(run.map((c) => c.verdictsDiffer)).toEqual([false, false, false, false, false]);
      }
      expect(gatewayLines(stderr)).toEqual([]);
      for (const kind of changing) expect(gatewayLines(gateways[kind]!.stderr())).toEqual([]);
    });
  });
});

import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const sdk = import.meta.dirname;
const root = path.resolve(sdk, "..");
const work = mkdtempSync(path.join(tmpdir(), "toolgate-sdk-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What a harness does after `npm install @toolgate/sdk`: a tarball from `npm pack`, unpacked into node_modules. */
function installTarball(): string {
  execFileSync("npm", ["pack", "--pack-destination", work, "--silent"], { cwd: sdk, stdio: "pipe" });
  const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"))!;
  const app = path.join(work, "app");
  const target = path.join(app, "node_modules", "@toolgate", "sdk");
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["xzf", path.join(work, tarball), "-C", target, "--strip-components=1"]);
  // the runtime dependencies, as npm would install them (no registry needed): the package's own and Ajv's
  const own = Object.keys((JSON.parse(readFileSync(path.join(sdk, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
  for (const dep of [...own, "fast-deep-equal", "json-schema-traverse", "require-from-string", "fast-uri"]) {
    symlinkSync(path.join(root, "node_modules", dep), path.join(app, "node_modules", dep));
  }
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "harness", private: true }));
  return app;
}

let app: string | undefined;
const installed = () => (app ??= installTarball());

/** What npm install does with a package's `bin`: a link in node_modules/.bin. */
function linkBin(dir: string, name: string, target: string): void {
  mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
  if (!existsSync(path.join(dir, "node_modules", ".bin", name))) symlinkSync(target, path.join(dir, "node_modules", ".bin", name));
}

const script = (load: string) => `${load}
const toolgate = new Toolgate({ model: { name: "m" }, tools: [{ name: "getloan", parameters: { type: "object", properties: { loannumber: { type: "string" } }, required: ["loannumber"] }, handler: (a) => "loan " + a.loannumber }] });
toolgate.run().handle([{ id: "a", function: { name: "getloan", arguments: '{"loannumber":"447"}' } }, { type: "tool_use", id: "b", name: "getloan", input: { loannumber: 447 } }])
  .then((r) => console.log(JSON.stringify(r)));`;

const EXIT_SCRIPT = `import { createServer } from "node:http";
import { Toolgate } from "@toolgate/sdk";
let received = 0;
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const events = JSON.parse(body).events ?? [];
    received += events.length;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ result: { data: req.url.includes("ingest") ? { accepted: events.length, duplicates: 0, rejected: [] } : { tools: [] } } }));
  });
});
server.listen(0, "127.0.0.1", async () => {
  server.unref(); // only the reporter's exit flush may keep the process alive
  const toolgate = new Toolgate({ url: "http://127.0.0.1:" + server.address().port, apiKey: "tg_x", model: { name: "m" }, reporter: { flushIntervalMs: 60_000 },
    tools: [{ name: "t", parameters: { type: "object", properties: {} }, handler: () => "ok" }] });
  await toolgate.run().handle([{ id: "a", function: { name: "t", arguments: "{}" } }, { id: "b", function: { name: "u", arguments: "{}" } }]);
  process.on("exit", () => console.log("received " + received + " events"));
});
`;

describe("the npm package", () => {
  it("packs into a tarball whose ESM and CJS entry points work where it is installed", { timeout: 120_000 }, () => {
    const app = installed();
    writeFileSync(path.join(app, "esm.mjs"), script('import { Toolgate } from "@toolgate/sdk";'));
    writeFileSync(path.join(app, "cjs.cjs"), script('const { Toolgate } = require("@toolgate/sdk");'));
    const expected = [
      { role: "tool", tool_call_id: "a", content: "loan 447" },
      { type: "tool_result", tool_use_id: "b", content: "Error: 'loannumber' must be a string, you sent the number 447. Send it as \"447\".", is_error: true },
    ];
    for (const file of ["esm.mjs", "cjs.cjs"]) {
      expect(JSON.parse(execFileSync("node", [file], { cwd: app, encoding: "utf8" }))).toEqual(expected);
    }
    // on Node, events still buffered when the process runs out of work are sent before it exits
    writeFileSync(path.join(app, "exit.mjs"), EXIT_SCRIPT);
    expect(execFileSync("node", ["exit.mjs"], { cwd: app, encoding: "utf8" }).trim()).toBe("received 2 events");
    const files = execFileSync(
      "tar",
      [
        "tzf",
        path.join(
          work,
          readdirSync(work).find((f) => f.endsWith(".tgz"))!,
        ),
      ],
      { encoding: "utf8" },
    );
    expect(files.split("\n").filter(Boolean).sort()).toEqual(
      expect.arrayContaining(["package/dist/index.js", "package/dist/index.cjs", "package/dist/index.d.ts", "package/dist/cli.js", "package/package.json"]),
    );
    expect(files).not.toMatch(/src\//);
    // the CLI is run by the `bin` entry as ESM only: no CommonJS copy of it
    expect(files).not.toContain("package/dist/cli.cjs");
    // the licence travels with the package, the same text as the repository's
    expect(files).toContain("package/LICENSE");
    expect(readFileSync(path.join(sdk, "LICENSE"), "utf8")).toBe(readFileSync(path.join(root, "LICENSE"), "utf8"));
  });

  it("runs `npx toolgate mcp` from the tarball in front of the real filesystem server, and its HTTP mode", { timeout: 120_000 }, () => {
    const dir = installed();
    linkBin(dir, "toolgate", "../@toolgate/sdk/dist/cli.js");
    const data = path.join(work, "data");
    mkdirSync(data);
    const server = path.join(root, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-desktop", version: "1" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write_file", arguments: { path: path.join(data, "a.txt") } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "write_file", arguments: { path: path.join(data, "a.txt"), content: "hi" } } },
    ];
    const out = execFileSync("npx", ["--no-install", "toolgate", "mcp", "--", "node", server, data], {
      cwd: dir,
      input: lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
      encoding: "utf8",
      env: { ...process.env, TOOLGATE_URL: "http://127.0.0.1:9", TOOLGATE_API_KEY: "tg_x" },
    });
    const answers = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean; content: { text: string }[] } });
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
    expect(answers[1]!.result).toEqual({
      content: [{ type: "text", text: "Error: 'content' is required by write_file and was not sent. Add 'content' (string)." }],
      isError: true,
    });
    expect(answers[2]!.result!.content[0]!.text).toMatch(/Successfully wrote/);
    expect(readFileSync(path.join(data, "a.txt"), "utf8")).toBe("hi");

    // the Streamable HTTP mode loads from the tarball too, and refuses to listen beyond loopback unasked
    const remote = spawnSync("npx", ["--no-install", "toolgate", "mcp", "--listen", "0.0.0.0:8808", "--upstream", "http://127.0.0.1:9/mcp"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(remote.status).toBe(2);
    expect(remote.stderr).toContain("add --allow-non-loopback");
  });

  it("runs the README's Claude Desktop block as it is written, npx and all, and the calls reach Toolgate", { timeout: 120_000 }, async () => {
    const dir = installed();
    // npm has both packages installed (the client's machine after a first `npx -y`): npx runs them with no registry
    linkBin(dir, "toolgate", "../@toolgate/sdk/dist/cli.js");
    mkdirSync(path.join(dir, "node_modules", "@modelcontextprotocol"), { recursive: true });
    const filesystem = path.join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem");
    if (!existsSync(filesystem)) symlinkSync(path.join(root, "node_modules", "@modelcontextprotocol", "server-filesystem"), filesystem);
    linkBin(dir, "mcp-server-filesystem", "../@modelcontextprotocol/server-filesystem/dist/index.js");
    const harness = { name: "harness", private: true, dependencies: { "@toolgate/sdk": "*", "@modelcontextprotocol/server-filesystem": "*" } };
    writeFileSync(path.join(dir, "package.json"), JSON.stringify(harness));

    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    const block = /```json\n(\{\s*"mcpServers"[\s\S]*?)```/.exec(readme)![1]!;
    const config = (JSON.parse(block) as { mcpServers: { filesystem: { command: string; args: string[]; env: Record<string, string> } } }).mcpServers
      .filesystem;
    expect(config.args.slice(-1)).toEqual(["/data"]);
    const data = mkdtempSync(path.join(work, "readme-data-"));

    const events: { tool: string }[] = [];
    const toolgate = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const batch = req.url!.includes("ingest") ? ((JSON.parse(body) as { events: { tool: string }[] }).events ?? []) : [];
        events.push(...batch);
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ result: { data: req.url!.includes("ingest") ? { accepted: batch.length, duplicates: 0, rejected: [] } : { tools: [] } } }));
      });
    });
    await new Promise<void>((resolve) => toolgate.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(toolgate.address() as AddressInfo).port}`;
    expect(config.env).toEqual({ TOOLGATE_URL: "http://localhost:3000", TOOLGATE_API_KEY: "tg_…" }); // the two the reader replaces

    // as the client starts it: the block's command, args and env, on a bare environment (and npm kept off the network)
    const child = spawn(config.command, [...config.args.slice(0, -1), data], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? work,
        npm_config_offline: "true",
        ...config.env,
        TOOLGATE_URL: url,
        TOOLGATE_API_KEY: "tg_readme",
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const file = path.join(data, "a.txt");
    for (const line of [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "claude-ai", version: "0.1.0" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write_file", arguments: { path: file } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "write_file", arguments: { path: file, content: "hi" } } },
    ])
      child.stdin.write(`${JSON.stringify(line)}\n`);
    const deadline = Date.now() + 60_000;
    while (out.trim().split("\n").filter(Boolean).length < 3 && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    child.stdin.end();
    expect(await exited).toBe(0);
    toolgate.close();
    const answers = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean; content: { text: string }[] } });
    expect(
      answers.map((a) => a.id),
      `the answers (stderr: ${stderr})`,
    ).toEqual([1, 2, 3]);
    expect(answers[1]!.result!.isError).toBe(true);
    expect(answers[2]!.result!.content[0]!.text).toMatch(/Successfully wrote/);
    expect(readFileSync(file, "utf8")).toBe("hi");
    expect(
      events.map((e) => e.tool),
      `the events Toolgate got (stderr: ${stderr})`,
    ).toEqual(["secure-filesystem-server/write_file", "secure-filesystem-server/write_file"]);
  });
});

describe("`toolgate lint` from the tarball", () => {
  const lint = (dir: string, args: string[], env: Record<string, string> = {}) =>
    spawnSync("npx", ["--no-install", "toolgate", "lint", ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, ...env }, timeout: 90_000 });

  const DEFINITIONS = [
    {
      type: "function",
      function: {
        name: "get_loan",
        description: "Returns the loan's balance and status. Use it when the user names a loan number.",
        parameters: { type: "object", properties: { loannumber: { type: "string", description: "The loan number." } }, required: ["loannumber", "loan_id"] },
      },
    },
  ];

  it("lints a definitions file: findings, score, --json and the exit codes of --fail-on", { timeout: 180_000 }, () => {
    const dir = installed();
    linkBin(dir, "toolgate", "../@toolgate/sdk/dist/cli.js");
    const file = path.join(dir, "tools.json");
    writeFileSync(file, JSON.stringify(DEFINITIONS));
    const human = lint(dir, ["tools.json"]);
    expect(human.status, human.stderr).toBe(1); // an error (required_not_property) at the default --fail-on error
    expect(human.stdout).toContain("toolgate lint: 1 tool from tools.json; score 80/100");
    expect(human.stdout).toContain("✖ error required_not_property: The schema requires `loan_id`, which is not a property");
    const json = lint(dir, ["tools.json", "--json", "--fail-on", "never"]);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout) as { score: number; tools: { tool: string; score: number; findings: { kind: string }[] }[] };
    expect(report.score).toBe(80);
    expect(report.tools[0]!.findings.map((f) => f.kind)).toEqual(["required_not_property"]);
    writeFileSync(file, JSON.stringify([{ ...DEFINITIONS[0], function: { ...DEFINITIONS[0]!.function, parameters: { type: "object", properties: {} } } }]));
    expect(lint(dir, ["tools.json"]).status).toBe(0);
    writeFileSync(file, "{not json");
    const bad = lint(dir, ["tools.json"]);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toContain("tools.json: Error: the definitions are not valid JSON");
    expect(lint(dir, ["tools.json", "--fail-on", "sometimes"]).stdout).toContain('--fail-on takes error, warning, info or never, got "sometimes".');
  });

  it("lints a real MCP server from npm, started over stdio", { timeout: 180_000 }, () => {
    const dir = installed();
    linkBin(dir, "toolgate", "../@toolgate/sdk/dist/cli.js");
    const server = path.join(root, "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js");
    const env = { MEMORY_FILE_PATH: path.join(work, "memory.json") };
    const warnings = lint(dir, ["--json", "--fail-on", "warning", "--", "node", server], env);
    expect(warnings.status, warnings.stderr).toBe(1);
    const report = JSON.parse(warnings.stdout) as { score: number; tools: { tool: string; findings: { kind: string; path: string }[] }[] };
    expect(report.tools).toHaveLength(9);
    expect(
      report.tools
        .find((t) => t.tool === "create_entities")!
        .findings.filter((f) => f.kind === "undescribed_parameter")
        .map((f) => f.path),
    ).toEqual(["entities"]);
    expect(lint(dir, ["--fail-on", "error", "--", "node", server], env).status).toBe(0);
    const gone = lint(dir, ["--", "node", "-e", "process.exit(3)"]);
    expect(gone.status).toBe(2);
    expect(gone.stdout).toContain("exited (code 3) before answering tools/list");
  });

  it("lints a running Toolgate's registered tools with a read key; an ingest key is refused", { timeout: 180_000 }, async () => {
    const dir = installed();
    linkBin(dir, "toolgate", "../@toolgate/sdk/dist/cli.js");
    const { startHttpApp } = await import("../test/http-app");
    const { makeProject, withKey } = await import("../test/fixtures");
    const app = await startHttpApp();
    try {
      const p = await makeProject();
      const ingest = (await p.key("harness", "ingest")).key;
      const read = (await p.key("ci", "read")).key;
      await withKey(ingest).tools.register({ tools: DEFINITIONS });
      const result = spawn("npx", ["--no-install", "toolgate", "lint", "--project", "--json"], {
        cwd: dir,
        env: { ...process.env, TOOLGATE_URL: app.url, TOOLGATE_API_KEY: read },
      });
      let out = "";
      result.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      const status = await new Promise<number | null>((resolve) => result.on("exit", resolve));
      expect(status, out).toBe(1);
      const report = JSON.parse(out) as { source: string; tools: { tool: string; findings: { kind: string }[] }[] };
      expect(report.source).toBe("the project's registered tools");
      expect(report.tools.map((t) => [t.tool, t.findings.map((f) => f.kind)])).toEqual([["get_loan", ["required_not_property"]]]);
      const refused = spawn("npx", ["--no-install", "toolgate", "lint", "--project", "--url", app.url, "--api-key", ingest], { cwd: dir });
      let said = "";
      refused.stdout.on("data", (chunk: Buffer) => (said += chunk.toString()));
      expect(await new Promise<number | null>((resolve) => refused.on("exit", resolve))).toBe(2);
      expect(said).toMatch(/Toolgate answered HTTP 403: .*read/);
    } finally {
      await app.stop();
    }
  });
});

describe("`toolgate mcp-server` from the tarball", () => {
  it(
    "serves Toolgate's MCP server over stdio to the MCP SDK client: the tools of /api/mcp, answers on demo data, nothing of another project",
    { timeout: 240_000 },
    async () => {
      const dir = installed();
      linkBin(dir, "toolgate", "../@toolgate/sdk/dist/cli.js");
      const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
      const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
      const { startHttpApp } = await import("../test/http-app");
      const { makeProject } = await import("../test/fixtures");
      const { loadDemoData } = await import("../server/services/demo/load-demo");
      const { prisma } = await import("../server/db/client");
      const app = await startHttpApp();
      const clients: InstanceType<typeof Client>[] = [];
      try {
        const demo = await makeProject();
        await loadDemoData(demo.project, { now: new Date(), days: 1, runsPerDay: 40 });
        const call = await prisma().toolCall.findFirstOrThrow({ where: { projectId: demo.project.id, tool: "getloan", valid: false }, select: { id: true } });
        const readKey = (await demo.key("agent", "read")).key;
        const otherKey = (await (await makeProject()).key("agent", "read")).key;
        /** As an MCP client starts it (docs/agents.md): the package's bin through npx, the key in the environment, npm kept off the network. */
        const overStdio = async (apiKey: string) => {
          const transport = new StdioClientTransport({
            command: "npx",
            args: ["--no-install", "toolgate", "mcp-server"],
            cwd: dir,
            env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? work, npm_config_offline: "true", TOOLGATE_URL: app.url, TOOLGATE_API_KEY: apiKey },
            stderr: "pipe",
          });
          let stderr = "";
          transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
          const client = new Client({ name: "packed-agent-test", version: "1.0.0" });
          await client.connect(transport).catch((error: Error) => {
            throw new Error(`${error.message} (stderr: ${stderr})`);
          });
          clients.push(client);
          return client;
        };
        const text = async (client: InstanceType<typeof Client>, name: string, args: Record<string, unknown>) => {
          const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
          return { isError: result.isError === true, text: result.content.map((c) => c.text).join("\n") };
        };

        const client = await overStdio(readKey);
        expect(client.getServerVersion()?.name).toBe("toolgate");
        const direct = new Client({ name: "packed-agent-test-http", version: "1.0.0" });
        await direct.connect(
          new StreamableHTTPClientTransport(new URL(`${app.url}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${readKey}` } } }),
        );
        clients.push(direct);
        const tools = (await client.listTools()).tools;
        expect(tools.map((t) => t.name)).toContain("failing_tools");
        expect(tools).toEqual((await direct.listTools()).tools); // the same tools, schemas and all, as /api/mcp
        const failing = await text(client, "failing_tools", { days: 2 });
        expect(failing.isError, failing.text).toBe(false);
        expect(failing.text).toMatch(/^Project proj-\S+, last 2 days: \d+ calls, \d+ invalid/);
        expect(failing.text).toContain(`${app.url}/p/${demo.project.slug}/tools/getloan`);
        expect(await text(client, "get_call", { id: call.id })).toMatchObject({ isError: false, text: expect.stringContaining(`Call ${call.id}: getloan`) });

        const other = await overStdio(otherKey);
        expect((await text(other, "failing_tools", { days: 2 })).text).toContain("No calls in this window.");
        expect(await text(other, "get_call", { id: call.id })).toEqual({ isError: true, text: `NOT_FOUND: No call "${call.id}" in this project.` });
      } finally {
        await Promise.all(clients.map((c) => c.close()));
        await app.stop();
      }
    },
  );
});

import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

  it("runs `npx toolgate mcp` from the tarball in front of the real filesystem server, as the README's config block does", { timeout: 120_000 }, () => {
    const dir = installed();
    mkdirSync(path.join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync("../@toolgate/sdk/dist/cli.js", path.join(dir, "node_modules", ".bin", "toolgate")); // what npm install does with `bin`
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
});

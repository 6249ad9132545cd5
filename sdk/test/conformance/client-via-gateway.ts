import { spawn } from "node:child_process";
import path from "node:path";

// The client command of the client scenarios through the gateway: the conformance suite runs it
// with its scenario server's URL as the last argument; it puts `toolgate mcp --listen` in front of
// that server and runs the suite's reference client against the gateway (same path), then stops
// the gateway. The gateway's stderr goes to this command's, which the suite keeps per scenario.

const here = import.meta.dirname;
const cli = path.resolve(here, "../../src/cli.ts");
const client = path.resolve(here, "vendor/examples/clients/typescript/everything-client.ts");
const upstream = new URL(process.argv.at(-1)!);

const gateway = spawn(process.execPath, ["--import", "tsx", cli, "mcp", "--listen", "127.0.0.1:0", "--upstream", upstream.href], {
  stdio: ["ignore", "ignore", "pipe"],
});
let stderr = "";
const url = await new Promise<string>((resolve, reject) => {
  gateway.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const match = /listening on (http:\/\/\S+?)\/, forwarding/.exec(stderr);
    if (match) resolve(match[1]!);
  });
  gateway.on("exit", (code) => reject(new Error(`toolgate mcp exited with ${code}: ${stderr}`)));
});
const run = spawn(process.execPath, ["--import", "tsx", client, `${url}${upstream.pathname === "/" ? "" : upstream.pathname}`], { stdio: "inherit" });
const code = await new Promise<number>((resolve) => run.on("exit", (exit) => resolve(exit ?? 1)));
gateway.kill();
process.stderr.write(stderr);
process.exit(code);

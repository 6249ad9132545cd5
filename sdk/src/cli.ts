#!/usr/bin/env node
import { runAgentServer } from "./agent-server";
import { runCheck } from "./check";
import { runLint } from "./lint-cli";
import { runMcp } from "./mcp-cli";

const args = process.argv.slice(2);
const run =
  args[0] === "mcp"
    ? runMcp(args.slice(1), process.env, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, signals: true })
    : args[0] === "mcp-server"
      ? runAgentServer(args.slice(1), process.env, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr })
      : args[0] === "lint"
        ? runLint(args.slice(1), process.env, (line) => console.log(line))
        : runCheck(args, process.env, (line) => console.log(line));
run.then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);

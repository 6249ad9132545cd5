/**
 * `toolgate lint`: the definition lint (isomorphic/definition-lint.ts, the rules the server's
 * schema doctor runs) on a definitions file, a running MCP server over stdio, or a project's
 * registered tools through the read API; a score per tool and for the set; exit 1 when a finding
 * is at or above `--fail-on`. docs/definition-lint.md.
 */

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import {
  findingDiff,
  LINT_RULES,
  lintTools,
  scoreTools,
  SEVERITIES,
  type LintFinding,
  type LintInput,
  type LintSeverity,
} from "../../isomorphic/definition-lint";
import { readPastedTools } from "../../isomorphic/pasted-tools";
import { normalizeToolInput } from "../../isomorphic/tool-schema";
import { ApiKeyError, authorizationHeader } from "./api-key";

const LINT_USAGE = `Usage: toolgate lint [options] <file>                 tool definitions in a file: OpenAI, Anthropic, an MCP
                                                      tools/list result, or a JSON Schema (with --name)
       toolgate lint [options] -- <command> [args…]   the tools of an MCP server, started over stdio
       toolgate lint [options] --project              the project's registered tools, through the read API

  --json                          the findings and scores as JSON
  --fail-on <error|warning|info|never>
                                  exit 1 when a finding is at this severity or above (default: error)
  --name <tool>                   the tool's name, for a file holding a bare JSON Schema
  --url <url>, --api-key <key>    for --project; default: TOOLGATE_URL, TOOLGATE_API_KEY (a key with the read scope)

Exit codes: 0 no finding at --fail-on or above, 1 some, 2 the definitions could not be read.`;

class UsageError extends Error {}

type Options = {
  file?: string;
  command: string[];
  project: boolean;
  json: boolean;
  failOn: LintSeverity | "never";
  name?: string;
  url?: string;
  apiKey?: string;
};

function parse(args: string[]): Options {
  const dash = args.indexOf("--");
  const own = dash === -1 ? args : args.slice(0, dash);
  const options: Options = { command: dash === -1 ? [] : args.slice(dash + 1), project: false, json: false, failOn: "error" };
  for (let i = 0; i < own.length; i++) {
    const arg = own[i]!;
    if (arg === "--json") options.json = true;
    else if (arg === "--project") options.project = true;
    else if (!arg.startsWith("--")) {
      if (options.file) throw new UsageError(`Give one file, got "${options.file}" and "${arg}".`);
      options.file = arg;
    } else {
      const match = /^--(fail-on|name|url|api-key)(?:=(.*))?$/.exec(arg);
      if (!match) throw new UsageError(`Unknown argument "${arg}".`);
      const value = match[2] ?? own[++i];
      if (!value) throw new UsageError(`--${match[1]} needs a value.`);
      if (match[1] === "fail-on") {
        if (value !== "never" && !SEVERITIES.includes(value as LintSeverity))
          throw new UsageError(`--fail-on takes error, warning, info or never, got "${value}".`);
        options.failOn = value as Options["failOn"];
      } else if (match[1] === "name") options.name = value;
      else if (match[1] === "url") options.url = value;
      else options.apiKey = value;
    }
  }
  const sources = [options.file !== undefined, options.command.length > 0, options.project].filter(Boolean).length;
  if (sources !== 1)
    throw new UsageError(sources ? "Give one of: a file, -- <command>, or --project." : "Nothing to lint: give a file, -- <command>, or --project.");
  return options;
}

/** Definitions as the Tools page reads them (readPastedTools, then normalizeToolInput each). */
function readDefinitions(text: string, name: string | undefined, from: string): LintInput[] {
  const read = readPastedTools(text, name);
  if (!read.ok) throw new UsageError(`${from}: ${read.message}`);
  return read.tools.map((tool, i) => {
    const one = normalizeToolInput(tool);
    if (!one.ok) throw new UsageError(`${from}, tool ${i + 1}: ${one.message}`);
    return one.tool;
  });
}

/** The tools of an MCP server: started with `command`, initialized, asked tools/list (every page), then stopped. */
async function toolsOfServer(command: string[], timeoutMs = 60_000): Promise<unknown[]> {
  const child = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const waiting = new Map<number, (message: { result?: Record<string, unknown>; error?: { message?: string } }) => void>();
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let at;
    while ((at = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, at).trim();
      buffer = buffer.slice(at + 1);
      let message: { id?: unknown; method?: unknown; result?: Record<string, unknown>; error?: { message?: string } };
      try {
        message = JSON.parse(line);
      } catch {
        continue; // a server's stray log line
      }
      if (typeof message.id === "number" && message.method === undefined) waiting.get(message.id)?.(message);
    }
  });
  const exited = new Promise<never>((_, reject) => {
    child.on("error", (error) => reject(new UsageError(`Cannot start "${command.join(" ")}": ${error.message}`)));
    child.on("exit", (code) =>
      reject(
        new UsageError(
          `The MCP server "${command.join(" ")}" exited (code ${code}) before answering tools/list.${stderr ? ` Its last output: ${stderr.trim()}` : ""}`,
        ),
      ),
    );
  });
  let nextId = 1;
  const request = (method: string, params: object) => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve, reject) =>
      waiting.set(id, (m) =>
        m.error ? reject(new UsageError(`The MCP server refused ${method}: ${m.error.message ?? JSON.stringify(m.error)}`)) : resolve(m.result ?? {}),
      ),
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return Promise.race([answer, exited]);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UsageError(`The MCP server "${command.join(" ")}" did not answer tools/list within ${timeoutMs / 1000} s.`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      (async () => {
        await request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "toolgate-lint", version: "1" } });
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
        const tools: unknown[] = [];
        let cursor: unknown;
        do {
          const page = await request("tools/list", cursor ? { cursor } : {});
          if (!Array.isArray(page.tools)) throw new UsageError(`The MCP server's tools/list answer has no "tools" list: ${JSON.stringify(page).slice(0, 200)}`);
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (typeof cursor === "string" && cursor);
        return tools;
      })(),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
    exited.catch(() => {});
    child.removeAllListeners("exit");
    child.stdin.end();
    child.kill();
  }
}

async function toolsOfProject(options: Options, env: Record<string, string | undefined>, fetchImpl: typeof fetch): Promise<LintInput[]> {
  const url = (options.url ?? env.TOOLGATE_URL ?? "").replace(/\/+$/, "");
  const key = options.apiKey ?? env.TOOLGATE_API_KEY;
  if (!url || !key)
    throw new UsageError("Set TOOLGATE_URL and TOOLGATE_API_KEY (a key with the read scope: Settings → API keys), or pass --url and --api-key.");
  let authorization: string;
  try {
    authorization = authorizationHeader(key);
  } catch (error) {
    if (error instanceof ApiKeyError) throw new UsageError(error.message);
    throw error;
  }
  let response: Response;
  try {
    response = await fetchImpl(`${url}/api/trpc/tools.definitions`, { headers: { authorization }, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new UsageError(`Cannot reach Toolgate at ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const body = (await response.json().catch(() => ({}))) as { result?: { data?: { tools?: LintInput[] } }; error?: { message?: string } };
  if (!response.ok || !body.result?.data?.tools)
    throw new UsageError(`Toolgate answered HTTP ${response.status}: ${body.error?.message ?? response.statusText}`);
  return body.result.data.tools;
}

/** The change of a finding as two lines: the part of the tool it changes, before and after (none when the fix needs the author's words). */
const MARK: Record<LintSeverity, string> = { error: "✖", warning: "▲", info: "·" };

function human(results: { tool: string; findings: LintFinding[] }[], print: (line: string) => void, source: string) {
  const { score, tools } = scoreTools(results);
  print(`toolgate lint: ${results.length} tool${results.length === 1 ? "" : "s"} from ${source}; score ${score}/100`);
  results.forEach((r, i) => {
    const scored = tools[i]!;
    print("");
    print(
      `${r.tool}  ${scored.score}/100${scored.lines.length ? `  (${scored.lines.map((l) => `−${l.points} ${l.kind}${l.count > 1 ? ` ×${l.count}` : ""}`).join(", ")})` : ""}`,
    );
    for (const f of r.findings) {
      print(`  ${MARK[f.severity]} ${f.severity} ${f.kind}${f.path ? ` at ${f.path}` : ""}: ${f.title}`);
      print(`      ${f.evidence}`);
      print(`      Fix: ${f.change}`);
      for (const line of findingDiff(f)) print(`      ${line}`);
    }
  });
  const counts = SEVERITIES.map((s) => `${results.reduce((n, r) => n + r.findings.filter((f) => f.severity === s).length, 0)} ${s}`);
  print("");
  print(`${counts.join(", ")}. Rules: ${Object.keys(LINT_RULES).length}; docs/definition-lint.md explains each and the score.`);
}

export async function runLint(
  args: string[],
  env: Record<string, string | undefined>,
  print: (line: string) => void,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  let options: Options;
  let tools: LintInput[];
  let source: string;
  try {
    if (args.includes("--help") || args.includes("-h")) {
      print(LINT_USAGE);
      return 0;
    }
    options = parse(args);
    if (options.file !== undefined) {
      let text: string;
      try {
        text = readFileSync(options.file, "utf8");
      } catch (error) {
        throw new UsageError(`Cannot read ${options.file}: ${(error as Error).message}`);
      }
      tools = readDefinitions(text, options.name, options.file);
      source = options.file;
    } else if (options.command.length) {
      source = options.command.join(" ");
      tools = readDefinitions(JSON.stringify({ tools: await toolsOfServer(options.command) }), undefined, source);
    } else {
      tools = await toolsOfProject(options, env, fetchImpl);
      source = "the project's registered tools";
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    print(`${error.message}\n\n${LINT_USAGE}`);
    return 2;
  }
  const results = lintTools(tools);
  if (options.json) {
    const { score, tools: scored } = scoreTools(results);
    print(
      JSON.stringify(
        { source, score, tools: results.map((r, i) => ({ tool: r.tool, score: scored[i]!.score, deductions: scored[i]!.lines, findings: r.findings })) },
        null,
        2,
      ),
    );
  } else {
    human(results, print, source);
  }
  if (options.failOn === "never") return 0;
  const limit = SEVERITIES.indexOf(options.failOn);
  return results.some((r) => r.findings.some((f) => SEVERITIES.indexOf(f.severity) <= limit)) ? 1 : 0;
}

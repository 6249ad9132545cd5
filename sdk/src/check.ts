/**
 * `toolgate check`: a CI gate on the figures Toolgate holds. Reads `metrics.summary` with a `read`
 * API key and fails (exit 1) when the invalid rate (or attempts per success) is over the limit,
 * printing the tools and messages that fail most. Exit 2: usage, configuration or network error.
 */

import { ApiKeyError, authorizationHeader } from "./api-key";
import { formatNumber, formatPercent } from "../../contracts/format-number";

const CHECK_USAGE = `Usage: toolgate check --max-invalid-rate <5% | 0.05> [options]

  --since <2h | 30m | 7d>        the last hours, minutes or days (default 24h)
  --from <iso> --to <iso>        or an explicit range
  --model <name[@version]>       only this model (and version)
  --tool <name>                  only this tool
  --run-prefix <prefix>          only runs whose id starts with it (one evaluation run)
  --max-attempts-per-success <n> also fail above this many attempts per successful call
  --min-calls <n>                fail when fewer calls matched (default 1: no evidence is no pass)
  --url <url>, --api-key <key>   default: TOOLGATE_URL, TOOLGATE_API_KEY (a key with the read scope)`;

type Options = Record<string, string>;
type Summary = {
  range: { from: string; to: string };
  totals: { calls: number; invalid: number; invalidRate: number | null; attemptsPerSuccess: number | null };
  tools: { tool: string; calls: number; invalid: number; invalidRate: number | null; topCategory: string | null }[];
  messages: { count: number; example: string }[];
};

class UsageError extends Error {}

const FLAGS = ["since", "from", "to", "model", "tool", "run-prefix", "max-invalid-rate", "max-attempts-per-success", "min-calls", "url", "api-key"];

function parse(args: string[]): Options {
  const options: Options = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match || !FLAGS.includes(match[1]!)) throw new UsageError(`Unknown argument "${arg}".`);
    const value = match[2] ?? args[++i];
    if (value === undefined) throw new UsageError(`--${match[1]} needs a value.`);
    options[match[1]!] = value;
  }
  return options;
}

/** "5%" → 0.05, "0.05" → 0.05. */
export function parseRate(text: string): number {
  const percent = text.endsWith("%");
  const value = Number(percent ? text.slice(0, -1) : text) / (percent ? 100 : 1);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new UsageError(`--max-invalid-rate must be a rate such as 5% or 0.05, got "${text}".`);
  return value;
}

/** "2h" → 7,200,000 ms. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([smhd])$/.exec(text);
  if (!match) throw new UsageError(`--since must be a duration such as 90m, 2h or 7d, got "${text}".`);
  return Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "s" | "m" | "h" | "d"];
}

/** The check prints rates to the hundredth of a percent: "20.00%". */
const pct = (rate: number | null) => formatPercent(rate, { digits: 2 });

export async function runCheck(
  args: string[],
  env: Record<string, string | undefined>,
  print: (line: string) => void,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  let options: Options;
  let maxRate: number;
  try {
    if (args[0] !== "check")
      throw new UsageError(
        `${args[0] ? `Unknown command "${args[0]}".` : "No command given."} Commands: check (below), lint (toolgate lint --help), mcp (toolgate mcp --help), mcp-server (Toolgate's own MCP server for coding agents, docs/agents.md).`,
      );
    options = parse(args.slice(1));
    if (!options["max-invalid-rate"]) throw new UsageError("Missing --max-invalid-rate.");
    maxRate = parseRate(options["max-invalid-rate"]);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    print(`${error.message}\n\n${CHECK_USAGE}`);
    return 2;
  }
  const url = (options.url ?? env.TOOLGATE_URL ?? "").replace(/\/+$/, "");
  const key = options["api-key"] ?? env.TOOLGATE_API_KEY;
  if (!url || !key) {
    print("Set TOOLGATE_URL and TOOLGATE_API_KEY (a key with the read scope: Settings → API keys), or pass --url and --api-key.");
    return 2;
  }

  let authorization: string;
  try {
    authorization = authorizationHeader(key);
  } catch (error) {
    if (!(error instanceof ApiKeyError)) throw error;
    print(error.message);
    return 2;
  }

  let range: { from: string; to: string } | undefined;
  try {
    if (options.from || options.to) {
      if (!options.from || !options.to) throw new UsageError("--from and --to go together.");
      range = { from: options.from, to: options.to };
    } else {
      const to = Date.now();
      range = { from: new Date(to - parseDuration(options.since ?? "24h")).toISOString(), to: new Date(to).toISOString() };
    }
  } catch (error) {
    print(`${(error as Error).message}\n\n${CHECK_USAGE}`);
    return 2;
  }
  const [model, modelVersion] = options.model ? options.model.split("@", 2) : [];
  const input = {
    range,
    ...(model ? { model } : {}),
    ...(modelVersion ? { modelVersion } : {}),
    ...(options.tool ? { tool: options.tool } : {}),
    ...(options["run-prefix"] ? { runIdPrefix: options["run-prefix"] } : {}),
  };

  let summary: Summary;
  try {
    const response = await fetchImpl(`${url}/api/trpc/metrics.summary?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { authorization },
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await response.json().catch(() => ({}))) as { result?: { data?: Summary }; error?: { message?: string } };
    if (!response.ok || !body.result?.data) {
      print(`Toolgate answered HTTP ${response.status}: ${body.error?.message ?? response.statusText}`);
      return 2;
    }
    summary = body.result.data;
  } catch (error) {
    print(`Cannot reach Toolgate at ${url}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }

  const { totals } = summary;
  const what = [options.model, options.tool, options["run-prefix"] ? `runs ${options["run-prefix"]}*` : ""].filter(Boolean).join(", ") || "all calls";
  print(`Toolgate check: ${what}, ${summary.range.from} to ${summary.range.to}`);
  print(
    `  ${totals.calls} calls, ${totals.invalid} invalid: invalid rate ${pct(totals.invalidRate)} (limit ${pct(maxRate)}), attempts per success ${formatNumber(totals.attemptsPerSuccess)}`,
  );

  const failures: string[] = [];
  const minCalls = Number(options["min-calls"] ?? 1);
  if (totals.calls < minCalls)
    failures.push(`only ${totals.calls} calls matched (at least ${minCalls} needed): check the filters and that the run reported its events`);
  if (totals.invalidRate !== null && totals.invalidRate > maxRate) failures.push(`invalid rate ${pct(totals.invalidRate)} is over ${pct(maxRate)}`);
  const maxAttempts = options["max-attempts-per-success"] ? Number(options["max-attempts-per-success"]) : undefined;
  if (maxAttempts !== undefined && (totals.attemptsPerSuccess === null || totals.attemptsPerSuccess > maxAttempts)) {
    failures.push(
      totals.attemptsPerSuccess === null
        ? `no call succeeded, so attempts per success has no bound (limit ${maxAttempts})`
        : `attempts per success ${formatNumber(totals.attemptsPerSuccess)} is over ${maxAttempts}`,
    );
  }

  const failing = summary.tools.filter((t) => t.invalid > 0).sort((a, b) => b.invalid - a.invalid || a.tool.localeCompare(b.tool));
  if (failing.length) {
    print("  Top failing tools:");
    for (const t of failing.slice(0, 5))
      print(`    ${t.tool}: ${t.invalid} of ${t.calls} invalid (${pct(t.invalidRate)}), mostly ${t.topCategory ?? "uncategorized"}`);
  }
  if (summary.messages.length) {
    print("  Top messages:");
    for (const m of summary.messages.slice(0, 5)) print(`    ${m.count}× ${m.example}`);
  }
  print(failures.length ? `FAIL: ${failures.join("; ")}.` : "PASS");
  return failures.length ? 1 : 0;
}

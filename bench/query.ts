// npm run bench:query [-- --calls N --runs R --raw-runs K --keep --reuse DATABASE --skip-raw --smoke]
//
// Dashboard query latency at scale. Loads N tool calls (default 10 million) of one project,
// spread over the 30 days up to now, into a database of its own (rows generated here and
// streamed with COPY, rollups built from them by rebuildRollups), then times every dashboard
// query through the real service functions: p50/p95/max over R runs after 2 warm-ups. Next
// to each, the same figure computed the plain way over the raw tool_calls table (charts) or
// the same query with its indexes switched off (drill-downs), checked to give the same
// answer. Goal: every dashboard query under 50 ms at p95 on a quiet machine (issue 33; 150 ms
// before). docs/PERFORMANCE.md records the figures.
//
// --keep leaves the loaded database in place (its name is printed); with TEST_DATABASE_URL
// pointing at a server that outlives the run, --reuse NAME measures it again without
// reloading (pending migrations are applied first, e.g. a new index).
import { readFile } from "node:fs/promises";
import os from "node:os";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { groupByTemplate, schemaNames } from "../server/domain/message-templates";
import { latencyBucketSql, latencySummary } from "../isomorphic/latency-histogram";
import { statusesOf } from "../isomorphic/outcome";
import { runOrderSql } from "../server/domain/run-order";
import { attemptFailed, findSpirals, type SpiralCall } from "../server/domain/spirals";
import { applyMigrations } from "../server/db/migrate";
import { ROLLUPS_FROM_CALLS, rebuildRollups } from "../server/services/rollups/rebuild";
import { markRunsWithFailuresStale } from "../server/services/metrics/spirals-kept";
import { createFreshDatabase, startTestServer, type TestServer } from "../scripts/lib/test-database";
import { option, textOption } from "./options";

// ---------------------------------------------------------------------------------------------
// Options: flags win over environment variables, which win over the defaults.

const args = process.argv.slice(2);
// --smoke: 20,000 calls and a few runs, seconds; still fails when a dashboard query answers otherwise than its plain query
const CALLS = option("calls", "BENCH_CALLS", 10_000_000, 20_000);
const RUNS = option("runs", "BENCH_RUNS", 30, 3);
/** The raw aggregates read millions of rows: fewer repetitions (p95 of 5 runs is their maximum). */
const RAW_RUNS = option("raw-runs", "BENCH_RAW_RUNS", 5, 1);
const WARMUPS = 2;
const RAW_WARMUPS = 1;
const KEEP = args.includes("--keep");
const SKIP_RAW = args.includes("--skip-raw");
const REUSE = textOption("reuse", "BENCH_REUSE");
const GOAL_MS = 50;
/** Timed dry runs of 100,000 calls (after one warm-up run). */
const DRY_RUNS = 3;
const DAYS = 30;

// ---------------------------------------------------------------------------------------------
// The data: one project, 50 tools with Zipf-like volumes, 6 model versions (one model changes
// version on day 20), runs of ~6 calls, ~6% invalid over every category, most invalid calls
// retried at once (correction_id = the retry), tokens and cost.

/** A small seeded PRNG (mulberry32), so every run loads the same rows. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOOL_NAMES = [
  "search_docs",
  "get_customer",
  "create_ticket",
  "update_ticket",
  "send_email",
  "list_orders",
  "get_order",
  "refund_order",
  "get_weather",
  "run_sql",
  "read_file",
  "write_file",
  "list_files",
  "web_search",
  "fetch_url",
  "getloan",
  "listopenloans",
  "create_invoice",
  "get_invoice",
  "schedule_meeting",
  "list_calendar",
  "translate_text",
  "summarize",
  "get_stock_price",
  "convert_currency",
  "create_user",
  "delete_user",
  "reset_password",
  "get_user",
  "search_products",
  "add_to_cart",
  "checkout",
  "track_shipment",
  "create_issue",
  "comment_issue",
  "merge_pull_request",
  "run_tests",
  "deploy_service",
  "rollback_deploy",
  "query_metrics",
  "page_oncall",
  "create_alert",
  "get_logs",
  "open_pr",
  "lint_code",
  "format_code",
  "geocode",
  "get_directions",
  "book_flight",
  "cancel_booking",
];
const PARAMS = ["id", "query", "loannumber", "status", "email", "limit", "path", "date", "amount", "currency", "city", "name"];
const CATEGORIES = [
  "malformed_arguments",
  "unknown_tool",
  "extra_argument",
  "missing_argument",
  "wrong_type",
  "invalid_choice",
  "out_of_range",
  "not_allowed",
] as const;
type Category = (typeof CATEGORIES)[number];
/** How often each category happens overall (the tool's own favourite comes on top). */
const CATEGORY_WEIGHTS = [8, 5, 10, 25, 20, 12, 15, 5];

/** [provider, name, version, share of runs, invalid-rate factor]; claude-sonnet-4-5 moves to a new version on day 20. */
const MODELS: [string | null, string, string | null, number, number][] = [
  ["anthropic", "claude-sonnet-4-5", "20250929", 0.3, 1.0],
  ["anthropic", "claude-sonnet-4-5", "20251120", 0.3, 1.4],
  ["anthropic", "claude-haiku-4-5", "20251001", 0.2, 1.3],
  ["openai", "gpt-4.1", "2025-04-14", 0.2, 0.8],
  ["openai", "gpt-4.1-mini", null, 0.15, 1.5],
  ["google", "gemini-2.5-pro", null, 0.15, 0.7],
];
const PRICES: Record<string, [number, number]> = {
  "claude-sonnet-4-5": [3, 15],
  "claude-haiku-4-5": [1, 5],
  "gpt-4.1": [2, 8],
  "gpt-4.1-mini": [0.4, 1.6],
  "gemini-2.5-pro": [1.25, 10],
};
const VERSION_SWITCH_DAY = 20;
const AGENTS = ["loan-assistant", "collections-bot", "support-triage", "release-captain"];
const ENVIRONMENTS = ["production", "production", "production", "staging"];

const COPY_COLUMNS = [
  "project_id",
  "id",
  "run_id",
  "step",
  "timestamp",
  "model_provider",
  "model_name",
  "model_version",
  "tool",
  "arguments",
  "valid",
  "category",
  "message",
  "harness_valid",
  "harness_category",
  "harness_message",
  "checked_valid",
  "checked_category",
  "checked_message",
  "checked_path",
  "checked_version",
  "result_status",
  "latency_ms",
  "corrects_id",
  "correction_id",
  "input_tokens",
  "output_tokens",
  "cost_usd",
  "tool_version",
  "metadata",
  "pattern",
  "recovered",
];

type Tool = { name: string; weight: number; params: string[]; invalidFactor: number; categories: number[]; messages: string[][]; version: string };

function makeTools(random: () => number): Tool[] {
  const hex = () =>
    Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  return TOOL_NAMES.map((name, rank) => {
    const params = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => PARAMS[Math.floor(random() * PARAMS.length)]!))];
    const favourite = Math.floor(random() * CATEGORIES.length);
    const categories = CATEGORY_WEIGHTS.map((w, i) => w + (i === favourite ? 60 : 0));
    const p = params[0]!;
    // A few messages per category, in the house style (what, sent, fix); some tools answer unhelpfully.
    const unhelpful = random() < 0.1;
    const messages = CATEGORIES.map((category): string[] => {
      if (unhelpful && category !== "not_allowed") return ["Error 422", "invalid request"];
      switch (category) {
        case "malformed_arguments":
          return [4, 17, 31].map((n) => `Error: the arguments are not valid JSON (unexpected token at position ${n}); send one JSON object.`);
        case "unknown_tool":
          return [`${name}s`, name.replace(/_/g, ""), `${name}_v2`].map((w) => `Error: there is no tool '${w}'; did you mean '${name}'?`);
        case "extra_argument":
          return ["customer_name", "verbose"].map((x) => `Error: ${name} takes no argument '${x}'; its arguments are ${params.join(", ")}.`);
        case "missing_argument":
          return params.map((q) => `Error: '${q}' is required: call ${name} again with ${q}.`);
        case "wrong_type":
          return ["a number", "a boolean", "an array"].map((t) => `Error: '${p}' must be a string, you sent ${t}.`);
        case "invalid_choice":
          return ["pending", "Open"].map((v) => `Error: '${p}' must be one of 'open', 'closed', 'overdue'; you sent '${v}'.`);
        case "out_of_range":
          return [1, 2, 3, 12].map((n) => `Error: '${p}' must be 4 to 8 characters, you sent ${n}.`);
        case "not_allowed":
          return [`Error: ${name} needs approval for this account; ask a supervisor.`];
      }
    });
    return { name, weight: 1 / (rank + 1), params, invalidFactor: 0.25 + 2.5 * random() ** 2, categories, messages, version: hex() };
  });
}

/** Index into `weights`, chosen with probability proportional to its weight (cumulative table). */
function picker(weights: number[], random: () => number) {
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  const cumulative = weights.map((w) => (sum += w / total));
  return () => {
    const r = random();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

type Call = { id: string; tool: Tool; invalid: boolean; category: number; retryOf: string | null; correction: string | null };

/** COPY text-format chunks for `count` calls in time order, ending just before `end`. */
function* generateRows(projectId: string, count: number, end: number) {
  const random = prng(2026);
  const tools = makeTools(random);
  const pickTool = picker(
    tools.map((t) => t.weight),
    random,
  );
  const categoryPickers = tools.map((t) => picker(t.categories, random));
  const span = DAYS * 86_400_000 - 15 * 60_000; // runs start no later than 15 minutes before the end
  const start = end - DAYS * 86_400_000;
  const switchAt = start + VERSION_SWITCH_DAY * 86_400_000;
  const pickOld = picker(
    MODELS.map((m, i) => (i === 1 ? 0 : m[3])),
    random,
  );
  const pickNew = picker(
    MODELS.map((m, i) => (i === 0 ? 0 : m[3])),
    random,
  );
  // Scale the invalid rate so that the mix comes to about 6%.
  const meanFactor =
    (tools.reduce((a, t) => a + t.weight * t.invalidFactor, 0) / tools.reduce((a, t) => a + t.weight, 0)) *
    (MODELS.reduce((a, m) => a + m[3] * m[4], 0) / MODELS.reduce((a, m) => a + m[3], 0));
  const baseRate = 0.06 / meanFactor / 1.25; // retries add invalid calls of their own
  const metadata = AGENTS.flatMap((agent) => ENVIRONMENTS.map((environment) => JSON.stringify({ agent, environment })));
  const hex = () =>
    Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const N = "\\N";

  let emitted = 0;
  let seq = 0;
  let lines: string[] = [];
  for (let run = 0; emitted < count; run++) {
    let time = start + Math.floor((emitted / count) * span) + Math.floor(random() * 60_000);
    const modelIndex = (time < switchAt ? pickOld : pickNew)();
    const [provider, modelName, version, , modelFactor] = MODELS[modelIndex]!;
    const [inPrice, outPrice] = PRICES[modelName]!;
    const runId = `run_${hex()}${run.toString(36)}`;
    const meta = metadata[Math.floor(random() * metadata.length)]!;
    // The run's calls first, so that an invalid call knows the id of its retry.
    const calls: Call[] = [];
    const planned = int(3, 9);
    for (let step = 0; step < planned || calls[calls.length - 1]?.correction === "next"; step++) {
      const previous = calls[calls.length - 1];
      const retry = previous?.correction === "next";
      const tool = retry ? previous!.tool : tools[pickTool()]!;
      const rate = baseRate * tool.invalidFactor * modelFactor * (retry ? 4 : 1);
      const invalid = random() < Math.min(rate, 0.6);
      const id = `toolu_${hex()}${(seq++).toString(36)}`;
      if (retry) previous!.correction = id;
      const depth = retry ? 1 + calls.filter((c) => c.retryOf).length : 0;
      calls.push({
        id,
        tool,
        invalid,
        category: invalid ? categoryPickers[tools.indexOf(tool)]!() : -1,
        retryOf: retry ? previous!.id : null,
        // most invalid calls are retried right away (at most 3 times in a row)
        correction: invalid && depth < 3 && random() < 0.9 ? "next" : null,
      });
    }
    if (emitted + calls.length > count) {
      calls.length = count - emitted; // the last run stops short: its last call has no retry
      calls[calls.length - 1]!.correction = null;
    }

    let context = int(800, 4000);
    for (let step = 0; step < calls.length; step++) {
      const c = calls[step]!;
      time += int(1_000, 30_000);
      const category: Category | undefined = c.invalid ? CATEGORIES[c.category] : undefined;
      const param = c.tool.params[0]!;
      const value = int(1000, 99_999_999);
      const args = category === "malformed_arguments" ? `"{${param}: ${value}"` : category === "missing_argument" ? "{}" : `{"${param}":"${value}"}`;
      const messages = category ? c.tool.messages[c.category]! : undefined;
      const variant = messages ? Math.floor(random() * messages.length) : -1;
      const message = messages ? messages[variant]! : N;
      const harness = category === "not_allowed";
      const input = context + int(0, 400);
      const output = int(20, 400);
      context += int(150, 900);
      const cost = (input * inPrice + output * outPrice) / 1e6;
      const status = c.invalid ? "error" : random() < 0.95 ? "ok" : random() < 0.8 ? "error" : "not_found";
      lines.push(
        [
          projectId,
          c.id,
          runId,
          step,
          new Date(time).toISOString(),
          provider ?? N,
          modelName,
          version ?? N,
          c.tool.name,
          args,
          c.invalid ? "f" : "t",
          category ?? N,
          message,
          harness ? "f" : N,
          harness ? "not_allowed" : N,
          harness ? message : N,
          harness ? "t" : c.invalid ? "f" : "t",
          harness || !category ? N : category,
          harness || !category ? N : message,
          category && !harness ? param : N,
          c.tool.version,
          status,
          int(20, 1500),
          c.retryOf && random() < 0.5 ? c.retryOf : N,
          c.correction ?? N,
          input,
          output,
          cost.toPrecision(6),
          c.tool.version,
          meta,
          category ? benchPattern(category, c.tool, variant) : N,
          // the stored rule (tool_calls.recovered): the correction, the run's next call, is not itself invalid
          c.correction && !calls[step + 1]!.invalid ? "t" : "f",
        ].join("\t"),
      );
    }
    emitted += calls.length;
    if (lines.length >= 2000 || emitted >= count) {
      yield lines.join("\n") + "\n";
      lines = [];
    }
  }
}

/** The failure pattern ingestion would store (server/domain/failure-patterns.ts), tab-separated (escaped for COPY). */
function benchPattern(category: Category, tool: Tool, variant: number): string {
  const p = tool.params[0]!;
  const pick = (items: string[]) => items[variant % items.length]!;
  const [path, kind] = ((): [string, string] => {
    switch (category) {
      case "unknown_tool":
        return ["", pick([`${tool.name}s`, tool.name.replace(/_/g, ""), `${tool.name}_v2`])];
      case "extra_argument":
        return [pick(["customer_name", "verbose"]), ""];
      case "missing_argument":
        return [pick(tool.params), ""];
      case "wrong_type":
        return [p, pick(["integer", "boolean", "array"])];
      case "invalid_choice":
        return [p, pick(['"pending"', '"Open"'])];
      case "out_of_range":
        return [p, "minLength"];
      default:
        return ["", ""];
    }
  })();
  return [category, path, kind].join("\\t");
}

// ---------------------------------------------------------------------------------------------
// Loading: COPY into the table without its indexes (built afterwards, as a restore does), then
// the rollups in one INSERT … SELECT, then VACUUM ANALYZE.

const fmt = (n: number, digits = 0) => n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const log = (message: string) => console.log(`[bench] ${message}`);
const seconds = (since: number) => (performance.now() - since) / 1000;

async function load(url: string, count: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET maintenance_work_mem = '1GB'; SET work_mem = '256MB'; SET synchronous_commit = off");
    const {
      rows: [project],
    } = await client.query<{ id: string }>("INSERT INTO projects (id, slug, name) VALUES (gen_random_uuid(), 'bench-query', 'bench-query') RETURNING id");
    const projectId = project!.id;

    // Secondary indexes and the primary key come off during the load and are rebuilt after it.
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS def FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
        WHERE x.indrelid = 'tool_calls'::regclass AND NOT x.indisprimary`,
    );
    const {
      rows: [pk],
    } = await client.query<{ name: string; def: string }>(
      "SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'tool_calls'::regclass AND contype = 'p'",
    );
    for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
    if (pk) await client.query(`ALTER TABLE tool_calls DROP CONSTRAINT "${pk.name}"`);

    const end = Date.now();
    const {
      rows: [role],
    } = await client.query<{ rolsuper: boolean }>("SELECT rolsuper FROM pg_roles WHERE rolname = current_user");
    let t = performance.now();
    // FREEZE (the table is emptied in the same transaction): rows land frozen and all-visible.
    // replica role: the project foreign key is not checked row by row (one project, known to exist).
    await client.query("BEGIN");
    if (role?.rolsuper) await client.query("SET LOCAL session_replication_role = replica");
    await client.query("TRUNCATE tool_calls");
    const sink = client.query(copyFrom(`COPY tool_calls (${COPY_COLUMNS.join(", ")}) FROM STDIN WITH (FREEZE)`));
    await pipeline(Readable.from(generateRows(projectId, count, end)), sink);
    await client.query("COMMIT");
    const copySeconds = seconds(t);
    if (sink.rowCount !== count) throw new Error(`COPY wrote ${sink.rowCount} rows, expected ${count}`);
    log(`COPY: ${fmt(count)} rows in ${fmt(copySeconds, 1)} s (${fmt(count / copySeconds)} rows/s, generated here and streamed)`);

    t = performance.now();
    if (pk) await client.query(`ALTER TABLE tool_calls ADD CONSTRAINT "${pk.name}" ${pk.def}`);
    for (const index of indexes) await client.query(index.def);
    const indexSeconds = seconds(t);
    log(`indexes: primary key + ${indexes.length} indexes rebuilt in ${fmt(indexSeconds, 1)} s`);

    t = performance.now();
    const written = await rebuildRollups(client, projectId);
    const rollupSeconds = seconds(t);
    const rollupRows = written.call_rollups_hourly ?? 0;
    log(
      `rollups in ${fmt(rollupSeconds, 1)} s: ${Object.entries(written)
        .map(([table, rows]) => `${table} ${fmt(rows)} rows`)
        .join(", ")}`,
    );

    // COPY wrote no marks: every run with a failure is marked, and the worker's refresh keeps them (measureAll)
    await markRunsWithFailuresStale(client, projectId);

    t = performance.now();
    for (const table of ["tool_calls", ...Object.keys(written)]) await client.query(`VACUUM (ANALYZE) ${table}`);
    const vacuumSeconds = seconds(t);
    log(`VACUUM ANALYZE in ${fmt(vacuumSeconds, 1)} s`);
    const total = copySeconds + indexSeconds + rollupSeconds + vacuumSeconds;
    log(`load: ${fmt(count)} calls in ${fmt(total, 1)} s (${fmt(count / total)} rows/s overall)`);
    return { copySeconds, indexSeconds, rollupSeconds, vacuumSeconds, total, rollupRows };
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring.

type Stats = { p50: number; p95: number; max: number; n: number };
/** Nearest-rank percentiles. */
function stats(ms: number[]): Stats {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1]!, n: sorted.length };
}

/** CPU time (user + system, ms) of the given processes so far, from /proc; null when none can be read (a remote server). */
async function cpuMs(pids: number[]): Promise<number | null> {
  let ticks = 0;
  let read = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
    if (stat === null) continue; // gone, or not on this machine
    read++;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  }
  return read ? (ticks * 1000) / CLOCK_TICKS : null;
}
const CLOCK_TICKS = 100;

/**
 * Wall time per run, and the PostgreSQL backends' CPU time per run (mean over the runs): the
 * CPU figure depends less on what else the machine runs than the wall time.
 */
async function measure<T>(
  run: () => Promise<T>,
  warmups: number,
  runs: number,
  backends?: () => Promise<number[]>,
): Promise<{ stats: Stats; result: T; cpuPerRun: number | null }> {
  let result = undefined as T;
  for (let i = 0; i < warmups; i++) result = await run();
  const pids = backends ? await backends() : [];
  const cpuBefore = pids.length ? await cpuMs(pids) : null;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = await run();
    times.push(performance.now() - t);
  }
  const cpuAfter = pids.length ? await cpuMs(pids) : null;
  const cpuPerRun = cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / runs : null;
  return { stats: stats(times), result, cpuPerRun };
}

type Case = {
  name: string;
  /** what the dashboard reads: the hourly rollups, or raw calls through an index */
  reads: "rollup" | "index";
  run: () => Promise<unknown>;
  /** the same answer, plainly: an aggregate over raw calls, or the query with its indexes off */
  plain: () => Promise<unknown>;
  /** both answers reduced to something comparable */
  norm: (result: unknown) => unknown;
  /** rows in the answer */
  size: (result: unknown) => number;
};

type Agg = {
  calls: number;
  invalid: number;
  corrected: number;
  costUsd?: number;
  inputTokens?: number;
  outputTokens?: number;
  cost_usd?: number;
  input_tokens?: number;
  output_tokens?: number;
};
const aggKey = (a: Agg) =>
  [a.calls, a.invalid, a.corrected, a.inputTokens ?? a.input_tokens, a.outputTokens ?? a.output_tokens, a.costUsd ?? a.cost_usd ?? 0].map(Number).join(",");
const sortedLines = (lines: string[]) => lines.sort().join("\n");
/** Equal answers: the same text, except that numbers may differ in their last digits (sums of floats in another order). */
function sameAnswer(a: string, b: string) {
  const split = (s: string) => s.split(/([|,\n])/);
  const x = split(a);
  const y = split(b);
  return (
    x.length === y.length &&
    x.every((token, i) => {
      const other = y[i]!;
      if (token === other) return true;
      const [m, n] = [Number(token), Number(other)];
      return token !== "" && other !== "" && Number.isFinite(m) && Number.isFinite(n) && Math.abs(m - n) <= 1e-9 * Math.max(Math.abs(m), Math.abs(n));
    })
  );
}

/** Aggregates over raw calls, as the rollups hold them (whole UTC hours from the range's first hour). */
const RAW_TOTALS = `count(*)::float8 AS calls, (count(*) FILTER (WHERE valid = false))::float8 AS invalid,
  (count(*) FILTER (WHERE valid = false AND correction_id IS NOT NULL))::float8 AS corrected,
  coalesce(sum(cost_usd), 0)::float8 AS cost_usd, coalesce(sum(input_tokens), 0)::float8 AS input_tokens,
  coalesce(sum(output_tokens), 0)::float8 AS output_tokens`;
const RAW_RANGE = "project_id = $1 AND timestamp >= date_trunc('hour', $2::timestamptz, 'UTC') AND timestamp < $3";
const RAW_KEY = {
  tool: "tool",
  modelVersion: "model_name || CASE WHEN coalesce(model_version, '') = '' THEN '' ELSE ' ' || model_version END",
  category: "coalesce(category, '')",
};

async function main() {
  log(`${fmt(CALLS)} calls over ${DAYS} days; ${RUNS} runs per query after ${WARMUPS} warm-ups (plain: ${RAW_RUNS} after ${RAW_WARMUPS})`);

  // 1. A database of its own, loaded (or one loaded before, with --reuse).
  const server: TestServer = await startTestServer();
  let drop: (() => Promise<void>) | undefined;
  let url: string;
  let loadFigures: Awaited<ReturnType<typeof load>> | undefined;
  try {
    if (REUSE) {
      url = server.urlFor(REUSE);
      const applied = await applyMigrations(url);
      log(`reusing database ${REUSE}${applied.length ? `; applied ${applied.join(", ")}` : ""}`);
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      if (applied.length) for (const table of ["tool_calls", ...ROLLUPS_FROM_CALLS.map((r) => r.table)]) await c.query(`VACUUM (ANALYZE) ${table}`);
      await c.end();
    } else {
      const database = await createFreshDatabase(server, "toolgate_bench_query");
      url = database.url;
      if (KEEP) log(`database ${database.name} is kept (--keep): measure it again with TEST_DATABASE_URL=… --reuse ${database.name}`);
      else drop = database.drop;
      loadFigures = await load(url, CALLS);
    }
    process.env.DATABASE_URL = url;
    await measureAll(url, loadFigures);
  } finally {
    if (drop) await drop().catch((e: Error) => console.error(`clean-up: ${e.message}`));
    await server.stop();
  }
}

async function measureAll(url: string, loadFigures: Awaited<ReturnType<typeof load>> | undefined) {
  const { pool, prisma } = await import("../server/db/client");
  const rollups = await import("../server/services/metrics/call-figures");
  const callList = await import("../server/services/calls/call-list");
  const { errorMessages } = await import("../server/services/metrics/error-messages");
  const { windowCounts } = await import("../server/services/alerts/evaluator");
  const { failurePatterns } = await import("../server/services/tools/patterns");
  const { readSpirals } = await import("../server/services/metrics/spirals");
  const { refreshKeptSpirals } = await import("../server/services/metrics/spirals-kept");
  const dryRuns = await import("../server/services/tools/dry-run");

  const plainClient = new pg.Client({ connectionString: url });
  await plainClient.connect();
  /** The drill-downs' baseline: the same query with index scans off (a plain scan of the raw calls). */
  const noIndexClient = new pg.Client({ connectionString: url });
  await noIndexClient.connect();
  await noIndexClient.query("SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off");
  const {
    rows: [noIndex],
  } = await noIndexClient.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  /** The app pool's backends: every session on the database but the two baseline clients. */
  const poolBackends = async () =>
    (
      await plainClient.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND pid <> $1",
        [noIndex!.pid],
      )
    ).rows.map((r) => r.pid);

  const {
    rows: [facts],
  } = await plainClient.query<{ project_id: string; calls: number; invalid: number; runs_end: Date; version: string; rollup_rows: number; daily_rows: number }>(
    `SELECT project_id, count(*)::float8 AS calls, (count(*) FILTER (WHERE valid = false))::float8 AS invalid, max(timestamp) AS runs_end,
            current_setting('server_version') AS version, (SELECT count(*)::float8 FROM call_rollups_hourly) AS rollup_rows,
            (SELECT count(*)::float8 FROM call_rollups_daily) AS daily_rows
       FROM tool_calls GROUP BY project_id`,
  );
  if (!facts) throw new Error("no calls in the database");
  const projectId = facts.project_id;
  // "Now" is the end of the data, so that a reused database gives the same windows.
  const now = new Date(facts.runs_end.getTime() + 1);
  const ago = (ms: number) => ({ from: new Date(now.getTime() - ms), to: now });
  const H = 3_600_000;
  const D = 24 * H;
  // A run from the middle of the data for the run timeline.
  const {
    rows: [sample],
  } = await plainClient.query<{ run_id: string }>("SELECT run_id FROM tool_calls WHERE project_id = $1 AND timestamp >= $2 ORDER BY timestamp LIMIT 1", [
    projectId,
    new Date(now.getTime() - 12 * D),
  ]);
  const sampleRun = sample!.run_id;
  // the runs marked stale (all of a new load's runs with a failure, or those a migration marked) kept as the worker does
  const keepStart = performance.now();
  const kept = await refreshKeptSpirals({ projectId, budgetMs: Infinity });
  if (kept.runs) {
    log(`kept spirals: ${fmt(kept.runs)} runs kept in ${fmt(seconds(keepStart), 1)} s`);
    // as autovacuum would after such a pass: the marks table holds a dead row per run kept
    await plainClient.query("VACUUM (ANALYZE) spiral_attempts, spiral_stale_runs");
  }
  // A mid-volume tool (rank 10 of 50) for the filtered page; the new claude-sonnet-4-5 version for the model comparison.
  const { rows: ranked } = await plainClient.query<{ tool: string }>(
    "SELECT tool FROM call_rollups_hourly WHERE project_id = $1 GROUP BY tool ORDER BY sum(calls) DESC LIMIT 10",
    [projectId],
  );
  const sampleTool = ranked[ranked.length - 1]!.tool;
  const compareModel = { model: "claude-sonnet-4-5", version: "20251120" };

  log(
    `data: ${fmt(facts.calls)} calls (${fmt((100 * facts.invalid) / facts.calls, 1)}% invalid), ${fmt(facts.rollup_rows)} hourly and ${fmt(facts.daily_rows)} daily rollup rows; ` +
      `now = ${now.toISOString()}; run ${sampleRun}, tool ${sampleTool}`,
  );

  const plain =
    <R extends pg.QueryResultRow>(client: pg.Client, sql: string, params: unknown[]) =>
    async () =>
      (await client.query<R>(sql, params)).rows;
  const aggLines = (rows: (Agg & Record<string, unknown>)[], keys: string[]) =>
    sortedLines(rows.map((r) => [...keys.map((k) => (r[k] instanceof Date ? (r[k] as Date).toISOString() : String(r[k] ?? ""))), aggKey(r)].join("|")));
  const length = (r: unknown) => (Array.isArray(r) ? r.length : 1);

  const totalsCase = (label: string, range: { from: Date; to: Date }): Case => ({
    name: `totals ${label}`,
    reads: "rollup",
    run: () => rollups.totals(projectId, range),
    plain: plain(plainClient, `SELECT ${RAW_TOTALS} FROM tool_calls WHERE ${RAW_RANGE}`, [projectId, range.from, range.to]),
    norm: (r) => aggKey((Array.isArray(r) ? r[0] : r) as Agg),
    size: () => 1,
  });

  const seriesCase = (label: string, range: { from: Date; to: Date }, bucket: "hour" | "day", dimension: "tool" | "modelVersion" | "category"): Case => ({
    name: `series ${dimension} ${label} (${bucket})`,
    reads: "rollup",
    run: () => rollups.series(projectId, range, bucket, dimension),
    plain: plain(
      plainClient,
      `SELECT date_trunc('${bucket}', timestamp, 'UTC') AS bucket, ${RAW_KEY[dimension]} AS key, ${RAW_TOTALS}
         FROM tool_calls WHERE ${RAW_RANGE} ${dimension === "category" ? "AND coalesce(category, '') <> ''" : ""} GROUP BY 1, 2 ORDER BY 1, 2`,
      [projectId, range.from, range.to],
    ),
    norm: (r) => aggLines(r as (Agg & Record<string, unknown>)[], ["bucket", "key"]),
    size: length,
  });

  const d7 = ago(7 * D);
  const d30 = ago(30 * D);
  const h24 = ago(D);
  const listFilter = { from: d7.from.toISOString(), to: now.toISOString() };
  const listColumns = `id, run_id, step, timestamp, model_name, model_version, tool, valid, category, message, verdicts_differ, correction_id`;
  // Each correction looked up by primary key (what the errors page did before its rollups). A
  // LEFT JOIN here was planned as a parallel hash join that grew past 20 GB at 30 days on
  // PostgreSQL 18 (its ~10% NULL correction ids) until the kernel killed it.
  const errorSql = `SELECT coalesce(x.message, '(no message)') AS message, count(*)::int AS count, count(x.correction_id)::int AS followed,
            (count(*) FILTER (WHERE x.correction_id IS NOT NULL AND NOT EXISTS (
               SELECT FROM tool_calls c WHERE c.project_id = x.project_id AND c.id = x.correction_id AND c.valid = false)))::int AS recovered
       FROM tool_calls x
      WHERE x.project_id = $1 AND x.valid = false AND x.timestamp >= date_trunc('hour', $2::timestamptz, 'UTC') AND x.timestamp < $3
      GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 2000`;
  const windowSql = (raw: boolean) =>
    raw
      ? `SELECT count(*)::float8 AS calls, (count(*) FILTER (WHERE valid = false))::float8 AS invalid,
                (count(*) FILTER (WHERE valid = false AND correction_id IS NOT NULL))::float8 AS corrected,
                (count(*) FILTER (WHERE category = $4))::float8 AS category_calls
           FROM tool_calls WHERE project_id = $1 AND timestamp >= $2 AND timestamp < $3`
      : `SELECT count(*)::float8 AS calls, (count(*) FILTER (WHERE valid = false))::float8 AS invalid,
                (count(*) FILTER (WHERE valid = false AND correction_id IS NOT NULL))::float8 AS corrected,
                (count(*) FILTER (WHERE category = $4))::float8 AS category_calls
           FROM tool_calls WHERE project_id = $1 AND timestamp >= date_trunc('hour', $2::timestamptz, 'UTC') AND timestamp < $3`;
  const windowNorm = (r: unknown) => {
    const w = (Array.isArray(r) ? r[0] : r) as { calls: number; invalid: number; corrected: number; categoryCalls?: number; category_calls?: number };
    return [w.calls, w.invalid, w.corrected, w.categoryCalls ?? w.category_calls].join(",");
  };
  const page = (r: unknown) => {
    const rows = Array.isArray(r) ? (r as { id: string }[]).slice(0, 50) : (r as { calls: { id: string }[] }).calls;
    return rows.map((c) => c.id).join(",");
  };

  const cases: Case[] = [
    totalsCase("7d", d7),
    totalsCase("30d", d30),
    seriesCase("24h", h24, "hour", "tool"),
    seriesCase("24h", h24, "hour", "modelVersion"),
    seriesCase("24h", h24, "hour", "category"),
    seriesCase("30d", d30, "day", "tool"),
    seriesCase("30d", d30, "day", "modelVersion"),
    seriesCase("30d", d30, "day", "category"),
    {
      name: "breakdown model 30d",
      reads: "rollup",
      run: () => rollups.breakdown(projectId, d30, "model"),
      plain: plain(
        plainClient,
        `SELECT model_name AS key, coalesce(model_version, '') AS version, ${RAW_TOTALS} FROM tool_calls WHERE ${RAW_RANGE} GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2`,
        [projectId, d30.from, d30.to],
      ),
      norm: (r) => aggLines(r as (Agg & Record<string, unknown>)[], ["key", "version"]),
      size: length,
    },
    {
      name: "toolTable 30d",
      reads: "rollup",
      run: () => rollups.toolTable(projectId, d30),
      plain: plain(
        plainClient,
        `SELECT tool, sum(calls)::float8 AS calls, sum(invalid)::float8 AS invalid, sum(corrected)::float8 AS corrected, sum(cost_usd)::float8 AS cost_usd,
                sum(input_tokens)::float8 AS input_tokens, sum(output_tokens)::float8 AS output_tokens,
                (array_agg(category ORDER BY invalid DESC, category) FILTER (WHERE category <> '' AND invalid > 0))[1] AS top_category
           FROM (SELECT tool, coalesce(category, '') AS category, ${RAW_TOTALS} FROM tool_calls WHERE ${RAW_RANGE} GROUP BY 1, 2) per_category
          GROUP BY 1 ORDER BY 2 DESC, 1`,
        [projectId, d30.from, d30.to],
      ),
      norm: (r) =>
        sortedLines(
          (r as (Agg & { tool: string; topCategory?: string | null; top_category?: string | null })[]).map(
            (x) => `${x.tool}|${("topCategory" in x ? x.topCategory : x.top_category) ?? "none"}|${aggKey(x)}`, // a tool without failures: null either way
          ),
        ),
      size: length,
    },
    {
      // after the gate (issue 33): per tool, the calls that ran with a result, their failed
      // outcomes, and p50/p95/p99 of their latencies from the rollups' histograms
      name: "toolHealth 30d",
      reads: "rollup",
      run: () => rollups.toolTable(projectId, d30),
      plain: async () => {
        const ran = `${RAW_RANGE} AND valid IS DISTINCT FROM false AND result_status IS NOT NULL`;
        const failed = (outcome: Parameters<typeof statusesOf>[0]) =>
          `(count(*) FILTER (WHERE result_status IN (${statusesOf(outcome)
            .map((s) => `'${s}'`)
            .join(", ")})))::float8`;
        const [counts, buckets] = await Promise.all([
          plainClient.query<{ tool: string; results: number; tool_errors: number; not_found: number }>(
            `SELECT tool, count(*)::float8 AS results, ${failed("tool_error")} AS tool_errors, ${failed("not_found")} AS not_found
               FROM tool_calls WHERE ${ran} GROUP BY 1`,
            [projectId, d30.from, d30.to],
          ),
          plainClient.query<{ tool: string; bucket: number; n: number }>(
            `SELECT tool, ${latencyBucketSql("latency_ms")} - 1 AS bucket, count(*)::int AS n
               FROM tool_calls WHERE ${ran} AND latency_ms IS NOT NULL GROUP BY 1, 2`,
            [projectId, d30.from, d30.to],
          ),
        ]);
        const histograms = new Map<string, number[]>();
        for (const b of buckets.rows) {
          const h = histograms.get(b.tool) ?? histograms.set(b.tool, []).get(b.tool)!;
          while (h.length <= b.bucket) h.push(0);
          h[b.bucket] = b.n;
        }
        return counts.rows.map((c) => ({ ...c, latency: latencySummary(histograms.get(c.tool) ?? []) }));
      },
      norm: (r) =>
        sortedLines(
          (
            r as {
              tool: string;
              results: number;
              toolErrors?: number;
              tool_errors?: number;
              notFound?: number;
              not_found?: number;
              latency: ReturnType<typeof latencySummary>;
            }[]
          )
            .filter((x) => x.results > 0)
            .map((x) =>
              [x.tool, x.results, x.toolErrors ?? x.tool_errors, x.notFound ?? x.not_found, x.latency.timed, x.latency.p50, x.latency.p95, x.latency.p99].join(
                "|",
              ),
            ),
        ),
      size: length,
    },
    ...(["tool", "category"] as const).map((dimension): Case => ({
      name: `versionCounts ${dimension} 30d`,
      reads: "rollup",
      run: () => rollups.versionCounts(projectId, d30, compareModel.model, compareModel.version, dimension),
      plain: plain(
        plainClient,
        dimension === "tool"
          ? `SELECT tool AS key, (count(*) FILTER (WHERE valid = false))::float8 AS invalid, count(*)::float8 AS total
                 FROM tool_calls WHERE ${RAW_RANGE} AND model_name = $4 AND model_version = $5 GROUP BY 1`
          : `SELECT category AS key, count(*)::float8 AS invalid,
                      (SELECT count(*)::float8 FROM tool_calls WHERE ${RAW_RANGE} AND model_name = $4 AND model_version = $5) AS total
                 FROM tool_calls WHERE ${RAW_RANGE} AND model_name = $4 AND model_version = $5 AND valid = false AND category <> '' GROUP BY 1`,
        [projectId, d30.from, d30.to, compareModel.model, compareModel.version],
      ),
      norm: (r) => sortedLines((r as { key: string; invalid: number; total: number }[]).map((x) => `${x.key}|${x.invalid}|${x.total}`)),
      size: length,
    })),
    ...(
      [
        ["7d", d7],
        ["30d", d30],
      ] as const
    ).map(([label, range]): Case => ({
      name: `errorMessages ${label}`,
      reads: "rollup",
      run: () => errorMessages(projectId, range),
      plain: async () => {
        const definitions = await plainClient.query("SELECT name, parameters FROM tool_definitions WHERE project_id = $1", [projectId]);
        return groupByTemplate((await plainClient.query(errorSql, [projectId, range.from, range.to])).rows, schemaNames(definitions.rows));
      },
      norm: (r) => JSON.stringify(r),
      size: length,
    })),
    {
      name: "listCalls first page 7d",
      reads: "index",
      run: () => callList.listCalls(projectId, listFilter, undefined, 50),
      plain: plain(
        noIndexClient,
        `SELECT ${listColumns} FROM tool_calls WHERE project_id = $1 AND timestamp >= $2 AND timestamp < $3 ORDER BY timestamp DESC, id DESC LIMIT 51`,
        [projectId, d7.from, d7.to],
      ),
      norm: page,
      size: (r) => (Array.isArray(r) ? Math.min(50, r.length) : (r as { calls: unknown[] }).calls.length),
    },
    {
      name: "listCalls tool + invalid 7d",
      reads: "index",
      run: () => callList.listCalls(projectId, { ...listFilter, tool: sampleTool, valid: "invalid" }, undefined, 50),
      plain: plain(
        noIndexClient,
        `SELECT ${listColumns} FROM tool_calls WHERE project_id = $1 AND timestamp >= $2 AND timestamp < $3 AND tool = $4 AND valid = false
          ORDER BY timestamp DESC, id DESC LIMIT 51`,
        [projectId, d7.from, d7.to, sampleTool],
      ),
      norm: page,
      size: (r) => (Array.isArray(r) ? Math.min(50, r.length) : (r as { calls: unknown[] }).calls.length),
    },
    {
      name: "runTimeline",
      reads: "index",
      run: () => callList.runTimeline(projectId, sampleRun),
      plain: plain(noIndexClient, "SELECT id FROM tool_calls WHERE project_id = $1 AND run_id = $2", [projectId, sampleRun]),
      norm: (r) => sortedLines((Array.isArray(r) ? (r as { id: string }[]) : (r as { calls: { id: string }[] }).calls).map((c) => c.id)),
      size: (r) => (Array.isArray(r) ? r.length : (r as { calls: unknown[] }).calls.length),
    },
    {
      name: "alert window 15 min (raw)",
      reads: "index",
      run: () => windowCounts(projectId, new Date(now.getTime() - 15 * 60_000), now, {}, "missing_argument"),
      plain: plain(noIndexClient, windowSql(true), [projectId, new Date(now.getTime() - 15 * 60_000), now, "missing_argument"]),
      norm: windowNorm,
      size: () => 1,
    },
    {
      name: "alert window 24 h (rollup)",
      reads: "rollup",
      run: () => windowCounts(projectId, h24.from, now, {}, "missing_argument"),
      plain: plain(plainClient, windowSql(false), [projectId, h24.from, now, "missing_argument"]),
      norm: windowNorm,
      size: () => 1,
    },
    ...[
      ["top tool", ranked[0]!.tool],
      ["tool #10", sampleTool],
    ].map(([label, tool]): Case => ({
      name: `patterns 30d ${label}`,
      reads: "index",
      run: () => failurePatterns(projectId, tool!, d30, { names: TOOL_NAMES, parameters: undefined }),
      plain: plain(
        noIndexClient,
        // followed: the model tried again; recovered: that next attempt was not itself invalid.
        // The invalid calls joined by id (ids are unique in a project), not looked up one by one:
        // with index scans off, that lookup was a scan of the whole table for each call.
        `SELECT pattern AS key, count(*)::int AS failures, count(x.correction_id)::int AS followed,
                (count(*) FILTER (WHERE x.correction_id IS NOT NULL AND bad.id IS NULL))::int AS recovered
           FROM tool_calls x LEFT JOIN (SELECT id FROM tool_calls WHERE project_id = $1 AND valid = false) bad ON bad.id = x.correction_id
          WHERE x.project_id = $1 AND x.tool = $2 AND x.valid = false AND x.timestamp >= $3 AND x.timestamp < $4 GROUP BY 1`,
        [projectId, tool, d30.from, d30.to],
      ),
      norm: (r) =>
        sortedLines(
          (r as { key: string; failures: number; followed: number; recovered: number }[]).map((x) => `${x.key}|${x.failures}|${x.followed}|${x.recovered}`),
        ),
      size: length,
    })),
    // Retry spirals of one tool (the tool page's card): the service reads the range's failed
    // attempts and their neighbours; plainly, every call of the runs that hold one, in run order,
    // through the same detector, a failure outside the range breaking a streak as the service's does.
    // (small data sets hold few spirals: their whole 30 days are read)
    ...[
      CALLS < 1_000_000 ? ["30d top tool", d30, ranked[0]!.tool] : ["24h top tool", h24, ranked[0]!.tool],
      CALLS < 1_000_000 ? ["30d tool #10", d30, sampleTool] : ["7d tool #10", d7, sampleTool],
    ].map(([label, range, tool]): Case => {
      const { from, to } = range as { from: Date; to: Date };
      const describe = (spirals: { tool: string; attempts: string[]; endedBy: string | null }[]) =>
        sortedLines(spirals.map((x) => `${x.attempts.join(",")}|${x.endedBy ?? "-"}`));
      return {
        name: `spirals ${label as string}`,
        reads: "index",
        run: async () => (await readSpirals(projectId, { from, to }, { tool: tool as string })).spirals,
        plain: async () => {
          const { rows } = await plainClient.query<{ id: string; run_id: string; tool: string; valid: boolean | null; result_status: string | null; at: Date }>(
            `SELECT id, run_id, tool, valid, result_status, timestamp AS at FROM tool_calls
              WHERE project_id = $1 AND run_id IN (
                SELECT run_id FROM tool_calls WHERE project_id = $1 AND tool = $2 AND timestamp >= $3 AND timestamp < $4
                   AND (valid = false OR result_status IN (${statusesOf("failed")
                     .map((x) => `'${x}'`)
                     .join(", ")})))
              ORDER BY run_id, ${runOrderSql()}`,
            [projectId, tool, from, to],
          );
          const gap: SpiralCall = { id: "", tool: "", valid: true, resultStatus: "ok" };
          const spirals = [];
          for (let i = 0; i < rows.length;) {
            const run: SpiralCall[] = [];
            for (const runId = rows[i]!.run_id; i < rows.length && rows[i]!.run_id === runId; i++) {
              const r = rows[i]!;
              const call = { id: r.id, tool: r.tool, valid: r.valid, resultStatus: r.result_status };
              run.push(attemptFailed(call) && (r.at < from || r.at >= to) ? gap : call);
            }
            spirals.push(...findSpirals(run).filter((x) => x.tool === tool));
          }
          return spirals;
        },
        norm: (r) => describe(r as { tool: string; attempts: string[]; endedBy: string | null }[]),
        size: length,
      };
    }),
  ];

  const loadBefore = os.loadavg();
  const results: { c: Case; dash: Stats; cpu: number | null; plain?: Stats; same?: boolean; rows: number }[] = [];
  for (const c of cases) {
    const dash = await measure(c.run, WARMUPS, RUNS, poolBackends);
    results.push({ c, dash: dash.stats, cpu: dash.cpuPerRun, rows: c.size(dash.result) });
    const cpu = dash.cpuPerRun === null ? "" : `, PostgreSQL CPU ${fmt(dash.cpuPerRun, 1)} ms per run`;
    log(`${c.name}: p50 ${fmt(dash.stats.p50, 1)} ms, p95 ${fmt(dash.stats.p95, 1)} ms${cpu} (${c.size(dash.result)} rows)`);
  }
  const loadAfterDash = os.loadavg();
  if (!SKIP_RAW) {
    for (const r of results) {
      const p = await measure(r.c.plain, RAW_WARMUPS, RAW_RUNS);
      const dashResult = await r.c.run();
      r.plain = p.stats;
      r.same = sameAnswer(String(r.c.norm(dashResult)), String(r.c.norm(p.result)));
      log(`${r.c.name}, plain: p50 ${fmt(p.stats.p50, 1)} ms, p95 ${fmt(p.stats.p95, 1)} ms, same answer: ${r.same ? "yes" : "NO"}`);
      if (!r.same) {
        const a = String(r.c.norm(dashResult)).split("\n");
        const b = String(r.c.norm(p.result)).split("\n");
        const at = a.findIndex((x, i) => !sameAnswer(x, b[i] ?? ""));
        console.error(
          `  first difference, line ${at + 1} of ${a.length} / ${b.length}:\n  dashboard: ${a[at]?.slice(0, 300)}\n  plain:     ${b[at]?.slice(0, 300)}`,
        );
      }
    }
  }
  // A dry run over the newest 100,000 calls of the top tool: wall time, and the heap it holds.
  const dryTool = ranked[0]!.tool;
  const proposed = { type: "object", properties: Object.fromEntries(PARAMS.map((p) => [p, { type: "string", minLength: 4 }])), additionalProperties: false };
  const dryTimes: number[] = [];
  let dryResult: Awaited<ReturnType<typeof dryRuns.dryRun>> | undefined;
  let peakHeap = 0;
  for (let i = 0; i < DRY_RUNS + 1; i++) {
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - heapBefore)), 20);
    const t = performance.now();
    dryResult = await dryRuns.dryRun(projectId, dryTool, { parameters: proposed }, d30, { limit: 100_000, maxMs: 600_000 });
    clearInterval(sampler);
    if (i > 0) dryTimes.push(performance.now() - t); // the first run warms the caches
  }
  const dry = stats(dryTimes);
  const dryLine = `dry run 100,000 calls of ${dryTool}: p50 ${fmt(dry.p50)} ms, max ${fmt(dry.max)} ms over ${DRY_RUNS} runs; ${fmt(dryResult!.scanned)} replayed (${fmt(dryResult!.fixed)} fixed, ${fmt(dryResult!.broken)} broken); heap growth during a run ≤ ${fmt(peakHeap / 1024 ** 2, 1)} MB; RSS ${fmt(process.memoryUsage().rss / 1024 ** 2)} MB`;
  log(dryLine);

  await plainClient.end();
  await noIndexClient.end();
  await prisma().$disconnect();
  await pool().end();

  // The table (Markdown, for docs/PERFORMANCE.md).
  const ms = (x: number) => fmt(x, x < 10 ? 1 : 0);
  const header = [
    "query",
    "reads",
    "rows",
    "p50 ms",
    "p95 ms",
    "max ms",
    "PG CPU ms",
    "plain p50 ms",
    "plain p95 ms",
    "speed-up (p50)",
    "same answer",
    `p95 < ${GOAL_MS} ms`,
  ];
  const table = results.map((r) => [
    r.c.name,
    r.c.reads === "rollup" ? "rollups" : "raw, indexed",
    fmt(r.rows),
    ms(r.dash.p50),
    ms(r.dash.p95),
    ms(r.dash.max),
    r.cpu === null ? "–" : ms(r.cpu),
    r.plain ? ms(r.plain.p50) : "–",
    r.plain ? ms(r.plain.p95) : "–",
    r.plain ? `${fmt(r.plain.p50 / r.dash.p50, r.plain.p50 / r.dash.p50 < 10 ? 1 : 0)}×` : "–",
    r.same === undefined ? "–" : r.same ? "yes" : "NO",
    r.dash.p95 < GOAL_MS ? "PASS" : "FAIL",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  console.log(`\n${line(header)}\n|${widths.map((w, i) => (i < 2 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`);
  for (const row of table) console.log(line(row));

  const cpu = os.cpus();
  const facts2: [string, string][] = [
    [
      "calls",
      `${fmt(facts.calls)} (${fmt((100 * facts.invalid) / facts.calls, 1)}% invalid), ${fmt(facts.rollup_rows)} hourly and ${fmt(facts.daily_rows)} daily rollup rows`,
    ],
    ...(loadFigures
      ? ([
          [
            "load",
            `${fmt(loadFigures.total, 1)} s = COPY ${fmt(loadFigures.copySeconds, 1)} s (${fmt(CALLS / loadFigures.copySeconds)} rows/s) + indexes ${fmt(loadFigures.indexSeconds, 1)} s + rollups ${fmt(loadFigures.rollupSeconds, 1)} s + VACUUM ANALYZE ${fmt(loadFigures.vacuumSeconds, 1)} s; ${fmt(CALLS / loadFigures.total)} rows/s overall`,
          ],
        ] as [string, string][])
      : []),
    [
      "PG CPU",
      "the PostgreSQL backends' CPU time per dashboard query run (user + system, /proc), mean over the runs: moved less by other load than the wall time",
    ],
    [
      "runs",
      `${RUNS} per dashboard query after ${WARMUPS} warm-ups; plain ${SKIP_RAW ? "skipped" : `${RAW_RUNS} after ${RAW_WARMUPS} (their p95 is their maximum)`}`,
    ],
    [
      "load average",
      `${loadBefore.map((l) => l.toFixed(1)).join(" ")} before, ${loadAfterDash.map((l) => l.toFixed(1)).join(" ")} after the dashboard queries`,
    ],
    ["dry run", dryLine],
    ["Node.js", process.version],
    ["PostgreSQL", facts.version],
    ["machine", `${cpu.length} × ${cpu[0]?.model ?? "?"}, ${fmt(os.totalmem() / 1024 ** 3, 1)} GB RAM, ${os.platform()} ${os.release()}`],
    ["date", new Date().toISOString()],
  ];
  const width = Math.max(...facts2.map(([k]) => k.length));
  console.log(`\n${facts2.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join("\n")}\n`);
  const failed = results.filter((r) => r.dash.p95 >= GOAL_MS).length;
  const wrong = results.filter((r) => r.same === false).length;
  if (failed) log(`${failed} dashboard quer${failed === 1 ? "y" : "ies"} over ${GOAL_MS} ms at p95`);
  if (wrong) throw new Error(`${wrong} dashboard quer${wrong === 1 ? "y gives" : "ies give"} another answer than the plain query`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(`[bench] failed: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);

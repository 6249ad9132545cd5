import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { CATEGORY_LABELS, type Category } from "../../contracts/categories";
import { checkedCalls, verdictOf, wilsonInterval } from "../../isomorphic/stats";
import { findingDiff, lintTools, schemaAt, scoreTools, SEVERITIES } from "../../isomorphic/definition-lint";
import { LOOPBACK_HOSTS, originRefusal } from "../../isomorphic/rebinding";
import { likelyTool } from "../../isomorphic/tool-names";
import { whileRequestOpen } from "../db/cancel";
import { env } from "../env";
import { createCaller } from "../routers/root";
import { publicOrigin } from "../services/origins";
import { createContext } from "../trpc/init";
import { DomainError } from "../domain/errors";
import { apiKeyWithinRate } from "../services/auth/api-key-rate";
import type { KeyProject } from "../services/auth/api-keys";
import { errorResponse } from "./error-response";
import { readLimited } from "./read-limited";
import packageJson from "../../package.json" with { type: "json" };
import { formatCount, formatDuration, formatNumber, formatPercent, formatUsd } from "../../contracts/format-number";

// Toolgate for agents: an MCP server over the read API, so that an engineer can ask a coding agent
// "which tools fail most this week, why, and what should I change?". Every tool calls a read-scope
// procedure through the tRPC caller (the key's project and scope are checked there, as for any
// API call; nothing here queries the database) and answers in compact text with links to the pages.
// app/api/mcp/route.ts serves it over Streamable HTTP; `toolgate mcp-server` (the SDK) over stdio.

type Caller = ReturnType<typeof createCaller>;
type Links = { origin: string; project: string };

const DAY_MS = 86_400_000;
const days = (defaultDays: number, what: string) =>
  z.number().int().min(1).max(90).default(defaultDays).describe(`How many days back from now to look at (1–90, default ${defaultDays}): ${what}.`);
const NAME_WORDS = "1 to 200 characters";
const toolName = z.string().min(1).max(200).describe(`The tool's name exactly as registered in Toolgate (as failing_tools lists it), ${NAME_WORDS}.`);
const lastDays = (n: number) => ({ from: new Date(Date.now() - n * DAY_MS).toISOString(), to: new Date().toISOString() });

const label = (category: string | null) => (category ? (CATEGORY_LABELS[category as Category] ?? category) : "none");
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);
const json = (value: unknown, max = 300) => clip(JSON.stringify(value) ?? "undefined", max);
const page = (l: Links, path: string) => `${l.origin}/p/${encodeURIComponent(l.project)}${path}`;
const toolPage = (l: Links, tool: string) => page(l, `/tools/${encodeURIComponent(tool)}`);
const callPage = (l: Links, id: string) => page(l, `/calls/${id === "<id>" ? id : encodeURIComponent(id)}`);
const runPage = (l: Links, runId: string) => page(l, `/runs/${runId === "<runId>" ? runId : encodeURIComponent(runId)}`);

const text = (lines: (string | false | null | undefined)[]): CallToolResult => ({
  content: [{ type: "text", text: lines.filter((l) => typeof l === "string").join("\n") }],
});

/** A refusal of the read API (unknown call, a key of another scope, too many requests) as a tool error the model can read. */
async function answer(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof TRPCError) || error.code === "INTERNAL_SERVER_ERROR") throw error;
    return { isError: true, content: [{ type: "text", text: `${error.code}: ${error.message}` }] };
  }
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The server for one request, answering for the project of the key in `headers` (links point at `origin`). */
export function agentMcpServer(caller: Caller, links: Links): McpServer {
  const server = new McpServer(
    { name: "toolgate", title: "Toolgate", version: packageJson.version },
    {
      instructions:
        `Toolgate monitors the tool calls of AI agents in project "${links.project}": it checks each call against the tool's JSON Schema, ` +
        "sorts failures into categories and records whether the model recovered. Start with failing_tools, then tool_failure_patterns " +
        "for the tool to fix, confusable_tools for tools the models mix up, lint_tool_definitions for what the definitions themselves lack, context_cost for what they cost in every model call, error_messages for what the model was told, get_call / get_run for evidence, and dry_run_schema before " +
        "proposing a schema change. Every tool only reads.",
    },
  );

  server.registerTool(
    "failing_tools",
    {
      title: "Failing tools",
      description:
        "Lists the project's tools with the most invalid calls over the last days: calls, invalid calls, the invalid rate with its 95% " +
        "interval, how many the model corrected, the most common failure category, and a link to each tool's page. Use it first, to " +
        "find which tools fail most; then call tool_failure_patterns for one of them. Not for one call or run (use get_call / get_run).",
      inputSchema: {
        days: days(7, "the window the figures cover"),
        sort: z
          .enum(["invalid_calls", "invalid_rate"])
          .default("invalid_calls")
          .describe(
            "Order: invalid_calls (most failures first, default) or invalid_rate (highest rate first; tools with few calls rank by their rate's low bound).",
          ),
        model: z.string().min(1).max(200).optional().describe(`Only calls of this model name (e.g. acme-large), ${NAME_WORDS}; default: all models.`),
        limit: z.number().int().min(1).max(50).default(10).describe("How many tools to list (1–50, default 10)."),
      },
      annotations: { title: "Failing tools", ...READ_ONLY },
    },
    ({ days: n, sort, model, limit }) =>
      answer(async () => {
        const s = await caller.metrics.summary({ range: lastDays(n), ...(model ? { model } : {}) });
        // rates over checked calls: an unchecked call (no schema, no harness verdict) is neither valid nor invalid
        const rows = s.tools.map((t) => ({ ...t, checked: checkedCalls(t), interval: wilsonInterval(t.invalid, checkedCalls(t)) }));
        rows.sort((a, b) => (sort === "invalid_rate" ? b.interval.low - a.interval.low || b.invalid - a.invalid : b.invalid - a.invalid || b.calls - a.calls));
        const shown = rows.filter((t) => t.calls > 0).slice(0, limit);
        return text([
          `Project ${links.project}, last ${n} day${n === 1 ? "" : "s"}${model ? `, model ${model}` : ""}: ${s.totals.calls} calls, ${s.totals.invalid} invalid (${formatPercent(s.totals.invalidRate)} of checked calls)${s.totals.unchecked ? `, ${s.totals.unchecked} unchecked (no schema, neither valid nor invalid)` : ""}, ${s.totals.corrected} corrected.`,
          shown.length ? `Tools by ${sort === "invalid_rate" ? "invalid rate" : "invalid calls"}:` : "No calls in this window.",
          ...shown.map(
            (t, i) =>
              `${i + 1}. ${t.tool}: ${t.invalid}/${t.checked} checked calls invalid = ${formatPercent(t.invalidRate)} (95% CI ${formatPercent(t.interval.low)}–${formatPercent(t.interval.high)})${t.unchecked ? `, ${t.unchecked} unchecked` : ""}, ` +
              `${t.corrected} corrected, top category: ${label(t.topCategory)}. ${toolPage(links, t.tool)}`,
          ),
          rows.length > shown.length && `(${rows.length - shown.length} more tools not shown; raise limit to see them.)`,
          shown.some((t) => t.invalid > 0) && "Next: tool_failure_patterns with the tool's name says why its calls fail and what to change.",
        ]);
      }),
  );

  server.registerTool(
    "tool_failure_patterns",
    {
      title: "A tool's failure patterns and schema fixes",
      description:
        "Returns, for one tool, its invalid calls grouped by what went wrong where (category, argument path, kind of value sent), each with its " +
        "share of the failures, how often the model recovered on its next call and example call ids; then the changes to the tool's " +
        "newest schema that would prevent them (from the calls, and from a lint of the schema), each with its evidence and the " +
        "changed JSON Schema. Use it to answer why a tool fails and what to change; check a change with dry_run_schema before proposing it.",
      inputSchema: {
        tool: toolName,
        days: days(7, "the window the patterns cover"),
        limit: z.number().int().min(1).max(20).default(5).describe("How many patterns and suggestions to show each (1–20, default 5)."),
      },
      annotations: { title: "Failure patterns and schema fixes", ...READ_ONLY },
    },
    ({ tool, days: n, limit }) =>
      answer(async () => {
        const d = await caller.tools.doctor({ tool, range: lastDays(n) });
        const total = d.patterns.reduce((sum, p) => sum + p.failures, 0);
        return text([
          `Tool ${tool} (schema version ${d.version ?? "none registered"}), last ${n} days: ${total} invalid calls in ${d.patterns.length} pattern${d.patterns.length === 1 ? "" : "s"}. ${toolPage(links, tool)}`,
          d.patterns.length > 0 && "Patterns, largest first:",
          ...d.patterns
            .slice(0, limit)
            .map(
              (p, i) =>
                `${i + 1}. ${p.label}: ${p.failures} calls (${formatPercent(p.share)} of the failures), recovered on the next call ${p.recovered}/${p.followed} (${formatPercent(p.recoveryRate)}).` +
                (p.examples.length ? ` Example calls: ${p.examples.join(", ")}.` : ""),
            ),
          d.patterns.some((p) => p.examples.length) && `Each call's page: ${callPage(links, "<id>")} (or get_call with the id).`,
          d.suggestions.length ? "What to change:" : d.version ? "No schema change suggested." : "Register the tool's JSON Schema to get schema suggestions.",
          ...d.suggestions.slice(0, limit).flatMap((s, i) => {
            const after = s.path ? schemaAt(s.after.parameters, s.path) : undefined;
            return [
              `${i + 1}. ${s.title} [${s.calls ? `${s.severity}, lint supported by ${formatCount(s.calls.supporting)} of ${formatCount(s.calls.of)} calls` : s.source === "calls" ? `from ${formatCount(s.failures)} failed calls` : `${s.severity}, schema lint`}${s.changesVerdicts ? "" : ", description only: no verdict changes"}]`,
              `   Evidence: ${s.evidence}`,
              `   Change: ${s.change}`,
              after
                ? `   Schema at ${s.path} after the change: ${json(after)}`
                : s.after.description !== s.before.description && `   New description: ${json(s.after.description)}`,
              s.unknown && `   Only you know: ${s.unknown}`,
            ];
          }),
        ]);
      }),
  );

  server.registerTool(
    "error_messages",
    {
      title: "Error messages and their recovery",
      description:
        "The error messages the models were sent back for invalid calls, grouped by template, most frequent first, each with how often " +
        "the model's next call was valid (its recovery rate) and an example. A message with a low recovery rate does not tell the model " +
        "how to fix its call: rewrite it or the schema. Use it to judge the messages of one tool or of the whole project.",
      inputSchema: {
        tool: toolName.optional().describe(`Only the messages of this tool (its registered name, ${NAME_WORDS}); default: every tool.`),
        days: days(7, "the window the messages cover"),
        limit: z.number().int().min(1).max(50).default(10).describe("How many message templates to list (1–50, default 10)."),
      },
      annotations: { title: "Error messages", ...READ_ONLY },
    },
    ({ tool, days: n, limit }) =>
      answer(async () => {
        const s = await caller.metrics.summary({ range: lastDays(n), ...(tool ? { tool } : {}) });
        return text([
          `${s.messages.length} message templates sent for invalid calls${tool ? ` of ${tool}` : ""}, last ${n} days. ${tool ? toolPage(links, tool) : page(links, "/errors")}`,
          ...s.messages
            .slice(0, limit)
            .map(
              (m, i) =>
                `${i + 1}. sent ${m.count}×, next call valid ${formatPercent(m.recoveryRate)}: ${json(m.template, 240)}${m.example !== m.template ? ` e.g. ${json(m.example, 240)}` : ""}`,
            ),
        ]);
      }),
  );

  server.registerTool(
    "confusable_tools",
    {
      title: "Tools models mix up",
      description:
        "Returns the pairs of the project's tools that models confuse, ranked: runs where a call to one tool was refused or failed and the model " +
        "switched to the other with the same argument names (more often than after a successful call), unknown tool names about as " +
        "close to either, and descriptions that nearly repeat each other. Each pair comes with example runs and what to change in the names or descriptions. Use it when a tool's " +
        "failures look like the model picked the wrong tool.",
      inputSchema: {
        tool: toolName.optional().describe(`Only the pairs with this tool (its registered name, ${NAME_WORDS}); default: every pair of the project.`),
        days: days(30, "the window of runs read"),
        limit: z.number().int().min(1).max(20).default(5).describe("How many pairs to show (1–20, default 5)."),
      },
      annotations: { title: "Confusable tools", ...READ_ONLY },
    },
    ({ tool, days: n, limit }) =>
      answer(async () => {
        const { pairs, truncated, readLimit } = await caller.tools.confusable({ range: lastDays(n), ...(tool ? { tool } : {}) });
        const read = truncated ? ` (from the newest ${formatCount(readLimit)} calls of the window only)` : "";
        return text([
          pairs.length
            ? `${pairs.length} pair${pairs.length === 1 ? "" : "s"} of tools models mix up${tool ? ` with ${tool}` : ""}, last ${n} days${read}, most evidence first:`
            : `No pair of tools${tool ? ` with ${tool}` : ""} that models mix up in the last ${n} days${read}.`,
          ...pairs
            .slice(0, limit)
            .flatMap((p, i) => [
              `${i + 1}. ${p.tools[0]} ↔ ${p.tools[1]}: ${p.switches} switches after a refused or failed call` +
                (p.ambiguousNames.length ? `, unknown names as close to either: ${p.ambiguousNames.map((u) => `${u.name} (${u.calls}×)`).join(", ")}` : "") +
                (p.descriptionOverlap
                  ? `, descriptions share ${formatPercent(p.descriptionOverlap.score, { digits: 0 })} of their words (${p.descriptionOverlap.sharedWords.join(", ")})`
                  : "") +
                `. ${toolPage(links, p.tools[0])}`,
              ...p.directions.map(
                (d) =>
                  `   ${d.from} → ${d.to}: ${d.switches} runs (${formatPercent(d.switchRate)} of ${d.from}'s failures; after a success ${formatPercent(d.afterSuccessRate)}), shared arguments: ${d.sharedArguments.join(", ")}`,
              ),
              p.runs.length > 0 &&
                `   Runs: ${p.runs.map((r) => `${r.runId} (${r.failedId} → ${r.switchedId})`).join(", ")}; each run's page: ${runPage(links, "<runId>")}`,
              `   Change: ${p.advice}`,
            ]),
        ]);
      }),
  );

  server.registerTool(
    "lint_tool_definitions",
    {
      title: "Lint the tool definitions",
      description:
        "Checks the project's registered tool definitions (the newest version of each) against Toolgate's definition lint: missing or " +
        "vague descriptions, untyped or undescribed parameters, unexplained enums, unstated limits, names or descriptions that overlap " +
        "another tool, deep nesting. Each finding comes with its evidence, the change proposed and the changed JSON Schema or " +
        "description, and each tool with a score out of 100 (the set's score is their mean), worst first. Use it to review definitions " +
        "before models see them; tool_failure_patterns adds what the recorded calls show, and dry_run_schema checks a change.",
      inputSchema: {
        tool: toolName.optional().describe(`Only this tool's findings (its registered name, ${NAME_WORDS}); default: every registered tool.`),
        min_severity: z
          .enum(SEVERITIES)
          .default("warning")
          .describe("The least severe findings to show: error, warning (default: errors and warnings) or info (every finding)."),
        limit: z.number().int().min(1).max(50).default(10).describe("How many tools to show, worst score first (1–50, default 10)."),
      },
      annotations: { title: "Definition lint", ...READ_ONLY },
    },
    ({ tool, min_severity, limit }) =>
      answer(async () => {
        const { tools } = await caller.tools.definitions();
        if (tool && !tools.some((t) => t.name === tool)) {
          const near = likelyTool(
            tool,
            tools.map((t) => t.name),
          );
          return {
            isError: true,
            content: [
              {
                type: "text",
                text:
                  `No registered tool named ${json(tool)}.${near ? ` Did you mean ${near}?` : ""} ` +
                  (tools.length ? `Registered: ${tools.map((t) => t.name).join(", ")}.` : "No tool is registered: register definitions first."),
              },
            ],
          };
        }
        const results = lintTools(tools); // every tool, so that overlaps between tools are found
        const { score, tools: scored } = scoreTools(results);
        const shownSeverities = SEVERITIES.slice(0, SEVERITIES.indexOf(min_severity) + 1) as readonly string[];
        const rows = results
          .map((r, i) => ({ ...r, score: scored[i]!.score, findings: r.findings.filter((f) => shownSeverities.includes(f.severity)) }))
          .filter((r) => (tool ? r.tool === tool : true))
          .sort((a, b) => a.score - b.score || (a.tool < b.tool ? -1 : 1));
        const shown = rows.slice(0, limit);
        return text([
          tool
            ? `Tool ${tool}: definition score ${shown[0]!.score}/100 (the project's ${tools.length} tools: ${score}/100). ${toolPage(links, tool)}`
            : `${tools.length} registered tool${tools.length === 1 ? "" : "s"}, definition score ${score}/100; ${min_severity === "info" ? "every finding" : `findings of severity ${min_severity} and above`}, worst tool first:`,
          ...shown.flatMap((r, i) => [
            !tool && `${i + 1}. ${r.tool}: ${r.score}/100${r.findings.length ? "" : ", nothing at this severity"}. ${toolPage(links, r.tool)}`,
            ...r.findings.flatMap((f) => [
              `   ${f.severity} ${f.kind}${f.path ? ` at ${f.path}` : ""}: ${f.title}. ${f.evidence}`,
              `     Change: ${f.change}${f.unknown ? ` (needs: ${f.unknown})` : ""}`,
              ...findingDiff(f).map((line) => `     ${clip(line, 400)}`),
            ]),
          ]),
          rows.length > shown.length && `(${rows.length - shown.length} more tools not shown; raise limit to see them.)`,
        ]);
      }),
  );

  server.registerTool(
    "context_cost",
    {
      title: "Context cost of the tool definitions",
      description:
        "Returns what the project's tool definitions cost in the model's context: each definition's tokens in every model " +
        "call that carries it (counted with each model family's tokenizer, or an estimate where none is published), the whole set's tokens per call, " +
        "and per day and in USD from the recorded calls and usage, each call counted with the tool set its run recorded or else every " +
        "registered tool (the answer says which), with the tools that cost most for the least use first. Use it to " +
        "decide which descriptions to shorten or which tools to stop offering; lint_tool_definitions says what the text lacks.",
      inputSchema: {
        days: days(7, "the window whose calls and usage are read"),
        limit: z.number().int().min(1).max(50).default(10).describe("How many tools to list, costliest for the least use first (1–50, default 10)."),
      },
      annotations: { title: "Context cost", ...READ_ONLY },
    },
    ({ days: n, limit }) =>
      answer(async () => {
        const c = await caller.tools.contextCost({ range: lastDays(n) });
        const usd = (v: number | null) => (v === null ? "no price (no usage figures)" : formatUsd(v));
        return text([
          `${c.tools.length} registered tool definitions: ${formatCount(c.total.tokens)} tokens in a model call that carries them all (o200k_base), ` +
            `${formatCount(Math.round(c.total.tokensPerDay))} tokens a day over the last ${n} days' calls, ${usd(c.total.usdPerDay)} a day. ${page(links, "/definitions")}`,
          c.basis === "registered"
            ? "Counted as: every call carried the whole registered set (no run recorded which tools it carried)."
            : `Counted as: ${formatCount(c.carried.calls)} of ${formatCount(c.carried.of)} calls with the tool set their run carried (${formatCount(c.carried.sets)} distinct set${c.carried.sets === 1 ? "" : "s"})` +
              (c.basis === "mixed" ? ", the others with the whole registered set" : "") +
              (c.carried.unregistered.length ? `; carried but never registered, not counted: ${c.carried.unregistered.join(", ")}` : "") +
              ".",
          ...c.models.map(
            (m) =>
              `- ${m.model}: ${formatCount(m.setTokens)} tokens a call${c.basis === "mixed" ? ` on average (${formatCount(m.carriedCalls)} calls with their run's set)` : ""} with ${m.tokenizer.encoding}${m.tokenizer.exact ? "" : " (an estimate: no tokenizer of this family runs offline)"}, ` +
              `${formatNumber(m.callsPerDay, { digits: 1 })} calls a day${m.inputShare !== null ? `, ${formatPercent(m.inputShare)} of its input tokens` : ""}, ${usd(m.setUsdPerDay)} a day` +
              (m.price ? ` (input price ${m.price.method === "fit" ? "fitted" : "at most"} ${formatUsd(m.price.usd * 1e6)} per million tokens)` : ""),
          ),
          c.tools.length > 0 && "Tools, costliest for the least use first:",
          ...c.tools
            .slice(0, limit)
            .map(
              (t, i) =>
                `${i + 1}. ${t.name}: ${formatCount(t.tokens)} tokens a call, ${usd(t.usdPerDay)} a day, called ${formatCount(t.uses)} times` +
                (t.usdPerUse !== null ? ` (${formatUsd(t.usdPerUse)} of context per call of it)` : t.uses === 0 ? " (never called)" : "") +
                `. ${toolPage(links, t.name)}`,
            ),
          c.tools.length > limit && `(${c.tools.length - limit} more tools not shown; raise limit to see them.)`,
        ]);
      }),
  );

  server.registerTool(
    "get_call",
    {
      title: "One call",
      description:
        "Returns one recorded tool call by its id: tool, arguments, verdict, category, the message the model was sent, the model's corrected " +
        "call if any, and its place in its run. Use it to look at an example id that another tool listed.",
      inputSchema: {
        id: z.string().min(1).max(128).describe("The call's id (an example id from tool_failure_patterns, or an event id), 1 to 128 characters."),
      },
      annotations: { title: "One call", ...READ_ONLY },
    },
    ({ id }) =>
      answer(async () => {
        const c = await caller.calls.get({ id });
        const verdict = (v: boolean | null, category: string | null) => (verdictOf(v) === "invalid" ? `invalid (${label(category)})` : verdictOf(v));
        return text([
          `Call ${c.id}: ${c.tool} by ${c.modelName}${c.modelVersion ? ` ${c.modelVersion}` : ""} at ${c.timestamp}, ${verdict(c.valid, c.category)}. ${callPage(links, c.id)}`,
          `Arguments: ${json(c.arguments, 1000)}`,
          c.message && `Message sent to the model: ${c.message}${c.checkedPath ? ` (at ${c.checkedPath})` : ""}`,
          c.resultStatus &&
            `Result: ${c.resultStatus}${c.resultSummary ? `: ${c.resultSummary}` : ""}${c.latencyMs !== null ? `, ${formatDuration(c.latencyMs)}` : ""}`,
          c.correction
            ? `Corrected by ${c.correction.id} (${c.correction.tool}, ${verdict(c.correction.valid, c.correction.category)}): ${json(c.correction.arguments, 500)}`
            : c.valid === false && "The model did not correct this call.",
          `Run ${c.runId}, step ${c.step ?? "?"} of ${c.runLength} calls${c.attemptsUntilSuccess !== null ? `, ${c.attemptsUntilSuccess} attempts until it succeeded` : ""}. ${runPage(links, c.runId)}`,
        ]);
      }),
  );

  server.registerTool(
    "get_run",
    {
      title: "One run",
      description:
        "Returns one agent run by its id: its tool calls in order with each verdict and the message the model was sent. Use it to see what a " +
        "model did before and after a failure; for a single call use get_call.",
      inputSchema: {
        runId: z.string().min(1).max(256).describe("The run's id (as get_call shows it, or the harness's run id), 1 to 256 characters."),
        limit: z.number().int().min(1).max(200).default(50).describe("How many calls to show from the start of the run (1–200, default 50)."),
      },
      annotations: { title: "One run", ...READ_ONLY },
    },
    ({ runId, limit }) =>
      answer(async () => {
        const r = await caller.calls.getRun({ runId });
        return text([
          `Run ${r.runId}: ${r.attempts} calls, ${r.invalid} invalid${r.unchecked ? `, ${r.unchecked} unchecked` : ""}. ${runPage(links, r.runId)}`,
          ...r.calls
            .slice(0, limit)
            .map(
              (c, i) =>
                `${i + 1}. ${c.id} ${c.tool} ${json(c.arguments, 200)} → ${verdictOf(c.valid) === "invalid" ? `invalid (${label(c.category)}): ${c.message ?? ""}` : verdictOf(c.valid)}`,
            ),
          r.calls.length > limit && `(${r.calls.length - limit} more calls not shown.)`,
        ]);
      }),
  );

  server.registerTool(
    "dry_run_schema",
    {
      title: "Dry run of a proposed schema",
      description:
        "Replays a tool's recent recorded calls against a proposed JSON Schema (or a registered version) without changing anything, and " +
        "returns how many invalid calls it would fix and how many valid calls it would break, by category, with example call ids. Use it " +
        "before proposing a schema change: a change that breaks calls models already make needs another look.",
      inputSchema: {
        tool: toolName,
        parameters: z
          .record(z.string(), z.unknown())
          .optional()
          .describe("The proposed JSON Schema of the tool's arguments (an object schema). Give this or version, not both."),
        version: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe("A registered schema version of the tool to replay against instead of parameters, 1 to 100 characters."),
        days: days(30, "the window of calls replayed"),
        limit: z.number().int().min(1).max(100_000).default(10_000).describe("At most this many of the newest calls are replayed (1–100,000, default 10,000)."),
      },
      annotations: { title: "Dry run of a schema", ...READ_ONLY },
    },
    ({ tool, parameters, version, days: n, limit }) =>
      answer(async () => {
        if ((parameters === undefined) === (version === undefined))
          return {
            isError: true,
            content: [{ type: "text", text: "Give either parameters (the proposed JSON Schema) or version (a registered version), not both and not neither." }],
          };
        const r = await caller.tools.dryRun({ tool, ...(parameters ? { parameters } : { version: version! }), range: lastDays(n), limit });
        const ids = (list: string[]) => list.join(", ");
        return text([
          r.summary,
          `Replayed ${r.scanned} calls of ${tool} from the last ${n} days${r.complete ? "" : ` (stopped by the ${r.stoppedBy}: not every call was replayed)`}: ${r.fixed} fixed, ${r.broken} broken, ${r.stillInvalid} still invalid, ${r.stillValid} still valid, ${r.recategorised} recategorised.`,
          ...r.byCategory.map((c) => `- ${label(c.category)}: ${c.fixed} fixed, ${c.broken} broken, ${c.stillInvalid} still invalid`),
          r.examples.fixed.length > 0 && `Fixed, e.g.: ${ids(r.examples.fixed)}`,
          r.examples.broken.length > 0 && `Broken, e.g.: ${ids(r.examples.broken)}`,
          `Each call's page: ${callPage(links, "<id>")}. Tool page: ${toolPage(links, tool)}`,
        ]);
      }),
  );

  return server;
}

/** A JSON-RPC error answer before the MCP server reads the request (no key, a key of the wrong scope, a body too large). */
function refusal(status: number, message: string, headers: Record<string, string> = {}) {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32001, message } }, { status, headers });
}

/**
 * POST /api/mcp: one stateless Streamable HTTP exchange (JSON answers, no session, no server-sent
 * stream: GET and DELETE answer 405 as the transport's spec allows). The key in `Authorization`
 * must be a read-scope key; it decides the project every tool answers for. A request with an
 * `Origin` (a browser's) of neither loopback nor TOOLGATE_PUBLIC_URL is refused with 403 first.
 */
export async function serveAgentMcp(req: Request): Promise<Response> {
  // DNS rebinding: a page whose name resolves to this machine sends its own Origin (the transport's spec: 403)
  const configured = env().TOOLGATE_PUBLIC_URL;
  const origins = [...LOOPBACK_HOSTS, ...(configured ? [new URL(configured).origin] : [])];
  const foreign = originRefusal(req.headers.get("origin") ?? undefined, origins);
  if (foreign)
    return refusal(
      403,
      `${foreign}. Toolgate's MCP server answers browsers only from this machine (${LOOPBACK_HOSTS.join(", ")}) or from TOOLGATE_PUBLIC_URL${configured ? ` (${new URL(configured).origin})` : " (not set)"}; MCP clients send no Origin.`,
    );
  if (req.method !== "POST") return new Response(null, { status: 405, headers: { Allow: "POST" } });
  // the key is checked and counted once per HTTP request: the tools' procedure calls below take it from the context
  let key: KeyProject;
  try {
    key = await apiKeyWithinRate(req.headers.get("authorization"));
  } catch (error) {
    if (error instanceof DomainError && error.kind === "unauthorized")
      return refusal(401, `${error.message} Toolgate's MCP server needs Authorization: Bearer <a read-scope API key>.`, { "WWW-Authenticate": "Bearer" });
    return errorResponse(error, "/api/mcp");
  }
  if (key.scope !== "read")
    return refusal(403, `This API key has the ${key.scope} scope; Toolgate's MCP server needs a key of the read scope (Settings → API keys).`);
  const project = key.projectSlug;
  const caller = createCaller(createContext({ headers: req.headers, url: req.url, checkedApiKey: key }));
  const limit = env().TOOLGATE_BODY_LIMIT_BYTES;
  const body = await readLimited(req, limit);
  if (!body) return refusal(413, `Request body over the limit of ${limit} bytes (TOOLGATE_BODY_LIMIT_BYTES).`);
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(body.toString("utf8"));
  } catch {
    return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON." } }, { status: 400 });
  }
  const server = agentMcpServer(caller, { origin: publicOrigin(req.headers), project });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await whileRequestOpen(req.signal, () => transport.handleRequest(req, { parsedBody }));
  } finally {
    await server.close();
  }
}

import { MAX_TOOL_SET } from "../../contracts/request-limits";
import { classifyCall, ToolSchemaError, type Verdict } from "../../isomorphic/classify";
import { isEmptyResult } from "../../isomorphic/outcome";
import { isPlainObject, truncate } from "../../isomorphic/tool-schema";
import { normalizeCalls, toolResult, type NormalizedCall, type ToolResultMessage } from "./calls";
import type { ModelRef, ToolgateEvent, Usage } from "./event";
import { Reporter, type ReporterOptions, type ReporterStats } from "./reporter";
import { defineTool, ToolSet, type AnyToolSpec, type DefinedTool, type ToolSpec } from "./tools";

export interface ToolgateOptions {
  /** The tools, each defined once: name, description, JSON Schema or zod schema, handler. */
  tools: AnyToolSpec[];
  /** The model whose calls these are (each run may name another). */
  model: ModelRef;
  /** Toolgate's address; without it (or `apiKey`) nothing is reported and the dispatcher only validates. */
  url?: string;
  apiKey?: string;
  /** Time a handler may take before its call answers with an error. Default 30,000 ms. */
  timeoutMs?: number;
  /**
   * Put the first 500 characters of each handler result in the event (`result.summary`). Default
   * false: only errors and empty results (which say nothing: isomorphic/outcome.ts) are.
   */
  recordResults?: boolean;
  /**
   * Fail open: run the handler of a call Toolgate cannot check (the tool's schema cannot be evaluated on
   * these arguments), its event recorded unchecked with the reason. Default false: such a call is answered
   * with an error that says why and its handler does not run; the turn's other calls are answered as usual.
   */
  failOpen?: boolean;
  /** Called with every event as it is recorded (logging, tests). */
  onEvent?: (event: ToolgateEvent) => void;
  /** Batching, buffer, retry and error callback of the reporter (see ReporterOptions). */
  reporter?: Omit<ReporterOptions, "url" | "apiKey">;
}

export interface RunOptions {
  /** Default: a random UUID. */
  runId?: string;
  model?: ModelRef;
  metadata?: Record<string, string>;
  /**
   * The names of the tools this run gives the model, when not all of them. Default: every tool of
   * this Toolgate. Sent with the run's first event (`toolSet`): Toolgate counts the run's context
   * cost with these definitions.
   */
  toolSet?: string[];
}

export interface TurnOptions {
  /** The model turn's token usage and cost; recorded on the turn's first call only, so that sums stay right. */
  usage?: Usage;
  model?: ModelRef;
}

export interface CallOutcome {
  call: NormalizedCall;
  /** null when the call could not be checked (`unchecked` says why). */
  verdict: Verdict | null;
  /** invalid, unchecked: the handler did not run; error: it threw or timed out. */
  status: "ok" | "error" | "invalid" | "unchecked";
  /** Why the call could not be checked: its handler ran only with `failOpen` (status ok or error then). */
  unchecked?: string;
  /** The text the model reads. */
  content: string;
  /** What the handler returned (status ok). */
  value?: unknown;
  /** The tool result in the shape of the call's provider. */
  result: ToolResultMessage;
  event: ToolgateEvent;
}

/**
 * The validating dispatcher: checks each tool call the model wrote against the tool's schema with
 * the same classifier as the server, answers an invalid call with the classifier's message instead
 * of running the handler, runs a valid one with a timeout, and records one event per call.
 */
export class Toolgate {
  readonly tools: ToolSet;
  readonly reporter: Reporter | null;
  private readonly options: ToolgateOptions;

  constructor(options: ToolgateOptions) {
    this.options = options;
    this.tools = new ToolSet(options.tools.map((tool) => defineTool(tool as ToolSpec)));
    this.reporter = options.url && options.apiKey ? new Reporter({ ...options.reporter, url: options.url, apiKey: options.apiKey }) : null;
    this.reporter?.registerTools(this.tools.definitions());
  }

  /** One agent run (a conversation, a task): its calls share a run id, count steps and link corrections. */
  run(options: RunOptions = {}): Run {
    return new Run(this, this.options, options);
  }

  stats(): ReporterStats | null {
    return this.reporter?.stats() ?? null;
  }

  flush(options?: { timeoutMs?: number }): Promise<void> {
    return this.reporter?.flush(options) ?? Promise.resolve();
  }

  shutdown(options?: { timeoutMs?: number }): Promise<ReporterStats | null> {
    return this.reporter?.shutdown(options) ?? Promise.resolve(null);
  }

  /** The tools in OpenAI Chat Completions' `tools` shape. */
  openAITools() {
    return this.tools.definitions().map((t) => ({ type: "function" as const, function: t }));
  }

  /** The tools in Anthropic's `tools` shape. */
  anthropicTools() {
    return this.tools.definitions().map(({ parameters, ...rest }) => ({ ...rest, input_schema: parameters }));
  }
}

export class Run {
  readonly runId: string;
  private step = 0;
  /** The model responses dispatched so far: the calls of one share its turn (docs/events.md, "Parallel calls"). */
  private turns = 0;
  /** tool name → the last invalid call of it not yet followed by another call of that tool. */
  private readonly uncorrected = new Map<string, string>();
  /** The previous turn's calls of unknown tools: the next turn's first calls of known tools correct them. */
  private unknownTools: string[] = [];

  constructor(
    private readonly gate: Toolgate,
    private readonly options: ToolgateOptions,
    private readonly run: RunOptions,
  ) {
    this.runId = run.runId ?? crypto.randomUUID();
  }

  /** Handles a turn's tool calls (in parallel) and answers the tool results to send back, in the calls' order and provider shape. */
  async handle(calls: unknown, turn: TurnOptions = {}): Promise<ToolResultMessage[]> {
    return (await this.dispatch(calls, turn)).map((outcome) => outcome.result);
  }

  /** Like `handle`, with each call's verdict, status, value and event. */
  async dispatch(calls: unknown, turn: TurnOptions = {}): Promise<CallOutcome[]> {
    const normalized = normalizeCalls(calls);
    const model = turn.model ?? this.run.model ?? this.options.model;
    const turnNumber = normalized.length ? this.turns++ : this.turns;
    // Verdicts and links first, in the calls' order; a correction answers an earlier turn's message.
    const earlier = new Map(this.uncorrected);
    const planned = normalized.map((call, index) => {
      const check = this.check(call);
      const verdict = check.verdict;
      // the tools the run carries, once: with its first event
      const toolSet = this.step === 0 ? { toolSet: (this.run.toolSet ?? [...this.gate.tools.byName.keys()]).slice(0, MAX_TOOL_SET) } : {};
      const event: ToolgateEvent = {
        id: crypto.randomUUID(),
        runId: this.runId,
        step: this.step++,
        turn: turnNumber,
        timestamp: new Date().toISOString(),
        model,
        tool: call.tool,
        arguments: asWritten(call.arguments),
        // an unchecked call carries no verdict: the server checks it itself, or stores it unchecked with the reason
        ...(verdict
          ? {
              outcome: verdict.valid
                ? { valid: true }
                : { valid: false, ...(verdict.category ? { category: verdict.category } : {}), message: verdict.message ?? "" },
            }
          : {}),
        ...(index === 0 && turn.usage ? { usage: turn.usage } : {}),
        ...toolSet,
        ...(this.run.metadata || check.unchecked
          ? { metadata: { ...this.run.metadata, ...(check.unchecked ? { unchecked: truncate(check.unchecked, 500) } : {}) } }
          : {}),
      };
      const corrects = earlier.get(call.tool);
      if (corrects !== undefined) {
        event.correctsId = corrects;
        earlier.delete(call.tool);
        this.uncorrected.delete(call.tool);
      } else if (this.unknownTools.length > 0 && this.gate.tools.byName.has(call.tool)) {
        event.correctsId = this.unknownTools.shift();
      }
      return { call, event, ...check };
    });
    this.unknownTools = [];
    for (const { call, verdict, event } of planned) {
      if (verdict?.category === "unknown_tool") this.unknownTools.push(event.id);
      else if (verdict && !verdict.valid) this.uncorrected.set(call.tool, event.id);
    }
    return Promise.all(planned.map((p) => this.execute(p)));
  }

  /**
   * The verdict on one call, or why it cannot be given: whatever goes wrong while checking one call
   * never fails the others of its turn. Only a schema that cannot be evaluated (a ToolSchemaError)
   * may run unchecked, with `failOpen`; anything else may come from the arguments, which the model
   * controls, so such a call is always refused.
   */
  private check(call: NormalizedCall): { verdict: Verdict | null; unchecked?: string; mayRun?: boolean } {
    try {
      return { verdict: classifyCall({ tool: call.tool, arguments: call.arguments, registry: this.gate.tools.registry }) };
    } catch (error) {
      if (!(error instanceof ToolSchemaError)) {
        return { verdict: null, unchecked: `checking it failed (${error instanceof Error ? error.message : String(error)})` };
      }
      const prefix = `the schema of ${call.tool}@${this.gate.tools.registry.get(call.tool)?.version ?? ""} `;
      const problem = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
      return { verdict: null, unchecked: `the tool's schema ${problem}`, mayRun: this.options.failOpen === true };
    }
  }

  private async execute({
    call,
    verdict,
    unchecked,
    mayRun,
    event,
  }: {
    call: NormalizedCall;
    verdict: Verdict | null;
    unchecked?: string;
    mayRun?: boolean;
    event: ToolgateEvent;
  }): Promise<CallOutcome> {
    let outcome: Omit<CallOutcome, "result" | "event" | "call" | "verdict" | "unchecked">;
    if (verdict === null && !mayRun) {
      const content =
        `Error: '${call.tool}' was not run: Toolgate cannot check this call, because ${unchecked}. ` +
        `This is a fault in the tool's definition, not a mistake you can correct in the arguments; the tool's developer must fix its JSON Schema ` +
        `(or set failOpen to run such calls unchecked).`;
      outcome = { status: "unchecked", content };
      event.result = { status: "error", latencyMs: 0, summary: truncate(content, 500) };
    } else if (verdict && !verdict.valid) {
      outcome = { status: "invalid", content: verdict.message ?? `Error: the call to '${call.tool}' does not match its schema.` };
    } else {
      const tool = this.gate.tools.byName.get(call.tool)!;
      const timeoutMs = tool.timeoutMs ?? this.options.timeoutMs ?? 30_000;
      const started = performance.now();
      const ran = await runHandler(tool, parsedArguments(call.arguments), { callId: call.callId, runId: this.runId }, timeoutMs);
      const latencyMs = Math.max(0, Math.round(performance.now() - started));
      if (ran.ok) {
        const content = typeof ran.value === "string" ? ran.value : (JSON.stringify(ran.value) ?? "");
        outcome = { status: "ok", content, value: ran.value };
        // an empty result carries nothing to keep private: it is reported whatever recordResults says, so that Toolgate can flag it
        const reported = this.options.recordResults || isEmptyResult({ status: "ok", summary: content });
        event.result = { status: "ok", latencyMs, ...(reported ? { summary: truncate(content, 500) } : {}) };
      } else {
        outcome = { status: "error", content: ran.message };
        event.result = { status: ran.timedOut ? "timeout" : "error", latencyMs, summary: truncate(ran.message, 500) };
      }
    }
    const result = toolResult(call, { isError: outcome.status !== "ok", content: outcome.content, value: outcome.value });
    this.options.onEvent?.(event);
    this.gate.reporter?.record(event);
    return { call, verdict, ...outcome, ...(unchecked ? { unchecked } : {}), result, event };
  }
}

type Ran = { ok: true; value: unknown } | { ok: false; message: string; timedOut?: true };

/** The handler's answer; an exception or a timeout becomes an error message for the model, never a crash. */
async function runHandler(tool: DefinedTool, args: unknown, context: { callId: string; runId: string }, timeoutMs: number): Promise<Ran> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Ran>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      resolve({ ok: false, timedOut: true, message: `Error: ${tool.name} did not answer within ${timeoutMs} ms. Try again later, or with a smaller request.` });
    }, timeoutMs);
  });
  const work = (async (): Promise<Ran> => {
    try {
      return { ok: true, value: await tool.handler(args as never, { ...context, signal: controller.signal }) };
    } catch (error) {
      return { ok: false, message: `Error: ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  })();
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The arguments for the event: the object, or the raw text when the model did not write a JSON object. */
function asWritten(args: unknown): Record<string, unknown> | string {
  if (typeof args === "string") {
    try {
      const parsed: unknown = JSON.parse(args);
      return isPlainObject(parsed) ? parsed : args;
    } catch {
      return args;
    }
  }
  if (isPlainObject(args)) return args;
  return args === undefined ? "" : (JSON.stringify(args) ?? String(args));
}

function parsedArguments(args: unknown): unknown {
  return typeof args === "string" ? JSON.parse(args) : args;
}

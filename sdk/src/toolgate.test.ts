import type { ToolCallPart, ToolResultPart } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { eventSchema } from "../../contracts/event";
import { classifyCall, registryFrom } from "../../isomorphic/classify";
import { overflowingSchema } from "../../test/uncheckable-schema";
import type { ToolgateEvent } from "./event";
import { defineTool } from "./tools";
import { Toolgate } from "./toolgate";

const getLoanSchema = {
  type: "object",
  properties: { loannumber: { type: "string", pattern: "^[0-9]+$" }, detail: { type: "string", enum: ["summary", "full"] } },
  required: ["loannumber"],
  additionalProperties: false,
};

function gate(options: { timeoutMs?: number; handler?: (args: { loannumber: string }) => unknown } = {}) {
  const events: ToolgateEvent[] = [];
  const ran: unknown[] = [];
  const toolgate = new Toolgate({
    model: { provider: "acme", name: "acme-large", version: "2026-11" },
    timeoutMs: options.timeoutMs,
    onEvent: (event) => events.push(event),
    tools: [
      defineTool({
        name: "getloan",
        description: "A loan by its number",
        parameters: getLoanSchema,
        handler: (args) => {
          ran.push(args);
          return options.handler ? options.handler(args as { loannumber: string }) : { loannumber: args.loannumber, balance: 1200 };
        },
      }),
    ],
  });
  // in call order (an event is recorded when its call is answered: refusals before slow handlers)
  const sorted = () => [...events].sort((a, b) => a.step! - b.step!);
  return { toolgate, events: { map: <T>(f: (e: ToolgateEvent) => T) => sorted().map(f), all: sorted }, ran };
}

/** The classifier's own verdict on a call, for comparison with what the dispatcher answered. */
const verdictOf = (tool: string, args: unknown) =>
  classifyCall({ tool, arguments: args, registry: registryFrom([{ name: "getloan", version: "test", parameters: getLoanSchema }]) });

describe("dispatcher: provider shapes", () => {
  it("OpenAI Chat Completions tool_calls: runs a valid call, answers an invalid one with the classifier's message", async () => {
    const { toolgate, ran, events } = gate();
    const results = await toolgate.run().handle({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "getloan", arguments: '{"loannumber":"447"}' } },
        { id: "call_2", type: "function", function: { name: "getloan", arguments: '{"loannumber":447}' } },
      ],
    });
    expect(results).toEqual([
      { role: "tool", tool_call_id: "call_1", content: '{"loannumber":"447","balance":1200}' },
      { role: "tool", tool_call_id: "call_2", content: verdictOf("getloan", '{"loannumber":447}').message },
    ]);
    expect(results[1]).toMatchObject({ content: expect.stringMatching(/loannumber.*string.*447.*Send it as "447"/) });
    expect(ran).toEqual([{ loannumber: "447" }]);
    expect(events.map((e) => e.outcome)).toEqual([
      { valid: true },
      { valid: false, category: "wrong_type", message: verdictOf("getloan", { loannumber: 447 }).message },
    ]);
  });

  it("OpenAI Responses function_call items among other output items", async () => {
    const { toolgate, ran } = gate();
    const results = await toolgate.run().handle({
      output: [
        { type: "reasoning", id: "rs_1", summary: [] },
        { type: "function_call", id: "fc_1", call_id: "call_a", name: "getloan", arguments: '{"loannumber":"12"}' },
        { type: "function_call", id: "fc_2", call_id: "call_b", name: "getloan", arguments: "{loannumber: 12" },
      ],
    });
    expect(results).toEqual([
      { type: "function_call_output", call_id: "call_a", output: '{"loannumber":"12","balance":1200}' },
      { type: "function_call_output", call_id: "call_b", output: verdictOf("getloan", "{loannumber: 12").message },
    ]);
    expect(ran).toHaveLength(1);
  });

  it("Anthropic tool_use blocks of an assistant message: tool_result, with is_error on refusal", async () => {
    const { toolgate, events } = gate();
    const results = await toolgate.run().handle({
      role: "assistant",
      content: [
        { type: "text", text: "Let me look that up." },
        { type: "tool_use", id: "toolu_1", name: "getloan", input: { loannumber: "447", detail: "everything" } },
        { type: "tool_use", id: "toolu_2", name: "get_loan", input: { loannumber: "447" } },
      ],
    });
    expect(results).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: verdictOf("getloan", { loannumber: "447", detail: "everything" }).message, is_error: true },
      { type: "tool_result", tool_use_id: "toolu_2", content: verdictOf("get_loan", { loannumber: "447" }).message, is_error: true },
    ]);
    expect(events.map((e) => e.outcome?.category)).toEqual(["invalid_choice", "unknown_tool"]);
    expect(results[1]).toMatchObject({ content: expect.stringContaining("Did you mean 'getloan'?") });
  });

  it("Vercel AI SDK tool calls (ai v7 ToolCallPart; v5 and v6 have the same shape) answer ToolResultParts", async () => {
    const { toolgate } = gate();
    const calls: ToolCallPart[] = [
      { type: "tool-call", toolCallId: "t1", toolName: "getloan", input: { loannumber: "9" } },
      { type: "tool-call", toolCallId: "t2", toolName: "getloan", input: {} },
    ];
    const results = (await toolgate.run().handle(calls)) as ToolResultPart[];
    expect(results).toEqual([
      { type: "tool-result", toolCallId: "t1", toolName: "getloan", output: { type: "json", value: { loannumber: "9", balance: 1200 } } },
      { type: "tool-result", toolCallId: "t2", toolName: "getloan", output: { type: "error-text", value: verdictOf("getloan", {}).message } },
    ]);
  });

  it("a value that holds no tool call is a harness bug and says what shapes are expected", async () => {
    const { toolgate } = gate();
    await expect(toolgate.run().handle({ name: "getloan" })).rejects.toThrow(/Not a tool call: an object with keys name\. Pass OpenAI tool_calls/);
  });
});

describe("dispatcher: running handlers", () => {
  it("runs the calls of one turn in parallel and answers in the calls' order", async () => {
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const { toolgate } = gate({
      handler: async ({ loannumber }) => {
        if (++started === 3) release();
        await allStarted; // only returns once all three handlers are running at the same time
        return `loan ${loannumber}`;
      },
    });
    const calls = ["1", "2", "3"].map((n) => ({ id: `c${n}`, function: { name: "getloan", arguments: JSON.stringify({ loannumber: n }) } }));
    const results = await toolgate.run().handle(calls);
    expect(results.map((r) => ("content" in r ? r.content : null))).toEqual(["loan 1", "loan 2", "loan 3"]);
  });

  it("a handler's exception becomes an error result for the model and an error event; the other calls go on", async () => {
    const { toolgate, events } = gate({
      handler: ({ loannumber }) => {
        if (loannumber === "0") throw new Error("loan service unavailable");
        return "fine";
      },
    });
    const outcomes = await toolgate.run().dispatch([
      { type: "tool_use", id: "a", name: "getloan", input: { loannumber: "0" } },
      { type: "tool_use", id: "b", name: "getloan", input: { loannumber: "1" } },
    ]);
    expect(outcomes.map((o) => o.result)).toEqual([
      { type: "tool_result", tool_use_id: "a", content: "Error: getloan failed: loan service unavailable", is_error: true },
      { type: "tool_result", tool_use_id: "b", content: "fine" },
    ]);
    expect(events.map((e) => [e.outcome?.valid, e.result?.status, e.result?.summary])).toEqual([
      [true, "error", "Error: getloan failed: loan service unavailable"],
      [true, "ok", undefined],
    ]);
  });

  it("an empty result is reported with its (empty) content even without recordResults, so that Toolgate can flag it; others are not", async () => {
    const { toolgate, events } = gate({ handler: ({ loannumber }) => (loannumber === "0" ? [] : loannumber === "1" ? "  " : { balance: 1 }) });
    await toolgate.run().dispatch(["0", "1", "2"].map((n) => ({ type: "tool_use", id: `c${n}`, name: "getloan", input: { loannumber: n } })));
    expect(events.map((e) => [e.result?.status, e.result?.summary])).toEqual([
      ["ok", "[]"],
      ["ok", "  "],
      ["ok", undefined],
    ]);
  });

  it("a handler past its timeout is answered with an error, recorded as a timeout, and its signal is aborted", async () => {
    let signal: AbortSignal | undefined;
    const toolgate = new Toolgate({
      model: { name: "m" },
      timeoutMs: 20,
      tools: [
        {
          name: "slow",
          parameters: { type: "object", properties: {} },
          handler: (_args, context) => {
            signal = context.signal;
            return new Promise(() => {}); // never settles
          },
        },
      ],
    });
    const [outcome] = await toolgate.run().dispatch({ id: "c", function: { name: "slow", arguments: "{}" } });
    expect(outcome).toMatchObject({ status: "error", content: "Error: slow did not answer within 20 ms. Try again later, or with a smaller request." });
    expect(outcome!.event.result).toMatchObject({
      status: "timeout",
      summary: "Error: slow did not answer within 20 ms. Try again later, or with a smaller request.",
    });
    expect(signal?.aborted).toBe(true);
  });

  it("a zod 4 schema is converted with its own JSON Schema output and types the handler", async () => {
    const toolgate = new Toolgate({
      model: { name: "m" },
      tools: [
        defineTool({
          name: "rate",
          parameters: z.object({ term: z.number().int().min(1).max(30), kind: z.enum(["fixed", "variable"]).default("fixed") }),
          handler: (args) => `${args.term} years, ${args.kind ?? "fixed"}`,
        }),
      ],
    });
    expect(toolgate.tools.byName.get("rate")!.parameters).toMatchObject({ type: "object", required: ["term"] });
    const results = await toolgate.run().handle([
      { id: "1", function: { name: "rate", arguments: '{"term": 10}' } },
      { id: "2", function: { name: "rate", arguments: '{"term": 40}' } },
    ]);
    expect(results).toEqual([
      { role: "tool", tool_call_id: "1", content: "10 years, fixed" },
      { role: "tool", tool_call_id: "2", content: "Error: 'term' must be between 1 and 30, you sent 40." },
    ]);
  });

  it("refuses a tool whose schema is not a JSON Schema for an object, at definition", () => {
    expect(() => defineTool({ name: "bad", parameters: { type: "string" }, handler: () => 1 })).toThrow(
      /Tool 'bad': Error: parameters must describe an object/,
    );
  });
});

describe("dispatcher: events", () => {
  it("one contract-valid event per call: run, steps, turns, model, arguments as written, usage on the turn's first call", async () => {
    const { toolgate, events } = gate();
    const run = toolgate.run({ runId: "run-7", metadata: { user: "u1" } });
    await run.handle(
      [
        { id: "a", function: { name: "getloan", arguments: '{"loannumber":"1"}' } },
        { id: "b", function: { name: "getloan", arguments: "not json" } },
      ],
      { usage: { inputTokens: 120, outputTokens: 30, costUsd: 0.002 } },
    );
    await run.handle([]); // a response without tool calls is no turn of calls
    await run.handle({ id: "c", function: { name: "getloan", arguments: '{"loannumber":"2"}' } }, { model: { name: "acme-small" } });
    for (const event of events.all()) expect(eventSchema.safeParse(event).error).toBeUndefined();
    // the two calls of one response share its turn (docs/events.md, "Parallel calls")
    expect(events.map((e) => [e.runId, e.step, e.turn, e.model.name, e.arguments, e.usage?.inputTokens, e.metadata?.user])).toEqual([
      ["run-7", 0, 0, "acme-large", { loannumber: "1" }, 120, "u1"],
      ["run-7", 1, 0, "acme-large", "not json", undefined, "u1"],
      ["run-7", 2, 1, "acme-small", { loannumber: "2" }, undefined, "u1"],
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(events.all()[0]!.result).toMatchObject({ status: "ok", latencyMs: expect.any(Number) });
    expect(events.all()[1]!.result).toBeUndefined(); // the handler never ran
  });

  it("links the next call of the same tool in a later turn to the invalid call before it, never within one turn", async () => {
    const toolgate = new Toolgate({
      model: { name: "m" },
      tools: ["a", "b"].map((name) => ({ name, parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, handler: () => "ok" })),
    });
    const run = toolgate.run();
    const call = (id: string, name: string, args: object) => ({ type: "tool_use" as const, id, name, input: args });
    const turn1 = await run.dispatch([call("1", "a", {}), call("2", "a", { n: 1 }), call("3", "b", { n: "x" })]);
    const turn2 = await run.dispatch([call("4", "b", { n: "y" }), call("5", "a", { n: 2 })]);
    const turn3 = await run.dispatch([call("6", "b", { n: 3 }), call("7", "b", { n: 4 })]);
    const id = (outcomes: typeof turn1, i: number) => outcomes[i]!.event.id;
    expect(turn1.map((o) => o.event.correctsId)).toEqual([undefined, undefined, undefined]);
    // call 4 (b, invalid again) corrects 3; call 5 (a) corrects 1, not the valid 2
    expect(turn2.map((o) => o.event.correctsId)).toEqual([id(turn1, 2), id(turn1, 0)]);
    // call 6 corrects 4; call 7 in the same turn corrects nothing
    expect(turn3.map((o) => o.event.correctsId)).toEqual([id(turn2, 0), undefined]);
  });

  it("links a call of an unknown tool to the next turn's first call of a known tool (the model renamed it), and no later", async () => {
    const toolgate = new Toolgate({ model: { name: "m" }, tools: [{ name: "getloan", parameters: { type: "object", properties: {} }, handler: () => "ok" }] });
    const run = toolgate.run();
    const call = (id: string, name: string) => ({ type: "tool_use" as const, id, name, input: {} });
    const [unknown] = await run.dispatch([call("1", "get_loan")]);
    const turn2 = await run.dispatch([call("2", "nosuch"), call("3", "getloan"), call("4", "getloan")]);
    const turn3 = await run.dispatch([call("5", "getloan")]);
    expect(turn2.map((o) => o.event.correctsId)).toEqual([undefined, unknown!.event.id, undefined]);
    // the unknown call of turn 2 is corrected by turn 3's call; turn 4 has nothing left to correct
    expect(turn3[0]!.event.correctsId).toBe(turn2[0]!.event.id);
    const turn4 = await run.dispatch([call("6", "getloan")]);
    expect(turn4[0]!.event.correctsId).toBeUndefined();
  });
});

describe("dispatcher: a call Toolgate cannot check", () => {
  function uncheckable(failOpen?: boolean) {
    const events: ToolgateEvent[] = [];
    const ran: string[] = [];
    const toolgate = new Toolgate({
      model: { name: "m" },
      ...(failOpen === undefined ? {} : { failOpen }),
      onEvent: (event) => events.push(event),
      tools: [
        { name: "overflowing", parameters: overflowingSchema, handler: () => (ran.push("overflowing"), "ran") },
        { name: "getloan", parameters: getLoanSchema, handler: (args) => (ran.push(`getloan ${(args as { loannumber: string }).loannumber}`), "loan") },
      ],
    });
    const call = (id: string, name: string, input: object) => ({ type: "tool_use" as const, id, name, input });
    const turn = [
      call("1", "getloan", { loannumber: "1" }),
      call("2", "overflowing", { x: {} }),
      call("3", "getloan", { loannumber: 3 }),
      call("4", "overflowing", {}),
    ];
    return { toolgate, events: () => [...events].sort((a, b) => a.step! - b.step!), ran, turn };
  }

  it("answers that call with an error saying why, never runs it, records it unchecked, and answers the turn's other calls", async () => {
    const { toolgate, events, ran, turn } = uncheckable();
    const outcomes = await toolgate.run().dispatch(turn);
    expect(outcomes.map((o) => o.status)).toEqual(["ok", "unchecked", "invalid", "ok"]);
    expect(ran.sort()).toEqual(["getloan 1", "overflowing"]);
    const refused = outcomes[1]!;
    expect(refused.verdict).toBeNull();
    expect(refused.unchecked).toMatch(/^the tool's schema cannot be evaluated on these arguments: evaluating it recurses without end/);
    expect(refused.content).toMatch(
      /^Error: 'overflowing' was not run: Toolgate cannot check this call, because the tool's schema cannot be evaluated on these arguments: .* the tool's developer must fix its JSON Schema/,
    );
    expect(refused.result).toEqual({ type: "tool_result", tool_use_id: "2", content: refused.content, is_error: true });
    // the event: no verdict (the server checks it itself, or stores it unchecked), the reason, the refusal
    const event = events()[1]!;
    expect(event.outcome).toBeUndefined();
    expect(event.metadata).toEqual({ unchecked: refused.unchecked });
    expect(event.result).toEqual({ status: "error", latencyMs: 0, summary: refused.content });
    expect(outcomes[2]!.verdict).toMatchObject({ valid: false, category: "wrong_type" });
    for (const e of events()) expect(eventSchema.safeParse(e).error).toBeUndefined();
  });

  it("with failOpen, runs it and records it unchecked with the reason", async () => {
    const { toolgate, events, ran, turn } = uncheckable(true);
    const outcomes = await toolgate.run({ metadata: { team: "loans" } }).dispatch(turn);
    expect(outcomes.map((o) => o.status)).toEqual(["ok", "ok", "invalid", "ok"]);
    expect(ran.sort()).toEqual(["getloan 1", "overflowing", "overflowing"]);
    expect(outcomes[1]).toMatchObject({ verdict: null, content: "ran", unchecked: expect.stringMatching(/^the tool's schema cannot be evaluated/) });
    expect(outcomes[3]!.unchecked).toBeUndefined();
    expect(events()[1]).toMatchObject({ metadata: { team: "loans", unchecked: outcomes[1]!.unchecked }, result: { status: "ok" } });
    expect(events()[1]!.outcome).toBeUndefined();
    expect(events()[3]!.metadata).toEqual({ team: "loans" });
  });
});

describe("dispatcher: the tool set a run carries", () => {
  const call = (id: string) => ({ id, type: "function", function: { name: "getloan", arguments: '{"loannumber":"447"}' } });

  it("names every tool of the Toolgate on the run's first event only, or the run's own toolSet; the contract takes it", async () => {
    const { toolgate, events } = gate();
    const run = toolgate.run();
    await run.handle({ role: "assistant", tool_calls: [call("c1"), call("c2")] });
    await run.handle({ role: "assistant", tool_calls: [call("c3")] });
    expect(events.map((e) => e.toolSet)).toEqual([["getloan"], undefined, undefined]);
    for (const event of events.all()) expect(eventSchema.safeParse(event).success).toBe(true);

    const subset = gate();
    await subset.toolgate.run({ toolSet: ["getloan", "searchpayments"] }).handle({ role: "assistant", tool_calls: [call("c4")] });
    expect(subset.events.map((e) => e.toolSet)).toEqual([["getloan", "searchpayments"]]);
  });
});

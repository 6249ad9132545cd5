import { describe, expect, it } from "vitest";
import { readPastedTools } from "./pasted-tools";
import { normalizeToolInput } from "./tool-schema";

const schema = { type: "object", properties: { loannumber: { type: "string" } }, required: ["loannumber"] };
const getloan = { name: "getloan", parameters: schema };

/** What tools.register would store from a paste: each definition through the one normaliser. */
const registered = (text: string, name?: string) => {
  const read = readPastedTools(text, name);
  if (!read.ok) throw new Error(read.message);
  return read.tools.map((t) => {
    const n = normalizeToolInput(t);
    if (!n.ok) throw new Error(n.message);
    return n.tool;
  });
};

describe("readPastedTools", () => {
  it("reads OpenAI (nested and bare), Anthropic and MCP definitions into the same tools", () => {
    const shapes = [
      { type: "function", function: { name: "getloan", parameters: schema } },
      { type: "function", name: "getloan", parameters: schema },
      { name: "getloan", parameters: schema },
      { name: "getloan", input_schema: schema },
      { name: "getloan", inputSchema: schema },
    ];
    for (const shape of shapes) {
      expect(registered(JSON.stringify(shape))).toEqual([getloan]);
      expect(registered(JSON.stringify([shape, shape]))).toEqual([getloan, getloan]);
    }
  });

  it("reads a whole MCP tools/list result, bare or as the JSON-RPC answer, and a request body's tools", () => {
    const list = {
      tools: [
        { name: "getloan", inputSchema: schema },
        { name: "ping", inputSchema: { type: "object" } },
      ],
      nextCursor: "c",
    };
    expect(registered(JSON.stringify(list)).map((t) => t.name)).toEqual(["getloan", "ping"]);
    expect(registered(JSON.stringify({ jsonrpc: "2.0", id: 1, result: list })).map((t) => t.name)).toEqual(["getloan", "ping"]);
    expect(registered(JSON.stringify({ model: "claude", tools: [{ name: "getloan", input_schema: schema }] }))).toEqual([getloan]);
  });

  it("reads a plain JSON Schema under the name given, and says to give one when there is none", () => {
    expect(registered(JSON.stringify(schema), " getloan ")).toEqual([getloan]);
    const refused = readPastedTools(JSON.stringify(schema));
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(/JSON Schema without a tool name \(you sent an object with keys type, properties, required\)\. Type the tool's name/),
    });
  });

  it("refuses what is not definitions, saying what was wrong, what was sent and how to fix it", () => {
    const message = (text: string) => {
      const read = readPastedTools(text);
      return read.ok ? "accepted" : read.message;
    };
    expect(message("  ")).toMatch(/^Error: nothing was pasted\. Paste the tool definitions as JSON, for example/);
    expect(message("{name: getloan}")).toMatch(/^Error: the definitions are not valid JSON \(.+\); you sent "\{name: getloan\}"\. Paste JSON/);
    expect(message("42")).toMatch(/^Error: found no tool definitions in the number 42\. Paste one definition, an array of them or a tools\/list result/);
    expect(message("[]")).toMatch(/^Error: the list of tools is empty/);
    expect(message(JSON.stringify(Array.from({ length: 501 }, (_, i) => ({ ...getloan, name: `t${i}` }))))).toMatch(
      /^Error: 501 definitions at once; at most 500/,
    );
  });

  it("takes anything that only a definition has, so that the normaliser says what is wrong with it", () => {
    // each key on its own: a name without a schema, a nested OpenAI function without its type, a type without a function, a schema key without a name
    for (const definition of [
      { name: "getloan" },
      { function: getloan },
      { type: "function" },
      { parameters: schema },
      { input_schema: schema },
      { inputSchema: schema },
    ]) {
      expect(readPastedTools(JSON.stringify(definition))).toEqual({ ok: true, tools: [definition] });
    }
    expect(normalizeToolInput({ parameters: schema })).toEqual({ ok: false, message: expect.stringMatching(/^Error: 'name' must be a string/) });
  });

  it("recognises a bare schema by its properties, its $schema or its object type, each on its own", () => {
    for (const bare of [{ properties: {} }, { $schema: "https://json-schema.org/draft/2020-12/schema" }, { type: "object" }]) {
      expect(readPastedTools(JSON.stringify(bare), "ping")).toEqual({ ok: true, tools: [{ name: "ping", parameters: bare }] });
    }
    expect(readPastedTools(JSON.stringify({ type: "string" }), "ping")).toEqual({
      ok: false,
      message: expect.stringMatching(/^Error: found no tool definitions in an object with keys type\./),
    });
  });

  it("unwraps only a JSON-RPC answer that holds a result", () => {
    const list = { tools: [getloan] };
    const message = (value: unknown) => {
      const read = readPastedTools(JSON.stringify(value));
      return read.ok ? "accepted" : read.message;
    };
    // a result without the jsonrpc member is no answer: nothing in it is read
    expect(message({ id: 1, result: list })).toMatch(/^Error: found no tool definitions in an object with keys id, result\./);
    // a JSON-RPC error answer is named as sent, not as the result it lacks
    expect(message({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } })).toMatch(
      /^Error: found no tool definitions in an object with keys jsonrpc, id, error\./,
    );
  });

  it("registers exactly as many definitions as tools.register takes at once", () => {
    const tools = Array.from({ length: 500 }, (_, i) => ({ ...getloan, name: `t${i}` }));
    expect(readPastedTools(JSON.stringify(tools))).toEqual({ ok: true, tools });
  });
});

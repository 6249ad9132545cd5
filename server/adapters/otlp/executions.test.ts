import { describe, expect, it } from "vitest";
import { assemble } from "./assemble";
import { pairExecutions } from "./executions";
import type { OtlpSpan } from "./wire";

const TRACE = "0af7651916cd43dd8448eb211c80319c";
const mcpSpan = (kind: number, method: string, more: Partial<OtlpSpan> = {}): OtlpSpan => ({
  traceId: TRACE,
  spanId: `${kind}${method.length}`.padStart(16, "0"),
  parentSpanId: "",
  name: `${method} getloan`,
  kind,
  startNs: 2_000_000_000n,
  endNs: 2_040_000_000n,
  attributes: { "mcp.method.name": method, "mcp.protocol.version": "2026-07-28", "jsonrpc.request.id": "3", "gen_ai.tool.name": "getloan" },
  events: [],
  status: { code: 0, message: "" },
  resource: { "service.name": "loans" },
  scope: "mcp-python-sdk",
  ...more,
});

describe("server-side tool executions", () => {
  it("an MCP server's tools/call span is an execution with its server, protocol version and request id; the client's span and other methods are not", () => {
    const out = assemble([
      mcpSpan(2, "tools/call"),
      mcpSpan(3, "tools/call"),
      mcpSpan(2, "tools/list"),
      mcpSpan(2, "tools/call", {
        spanId: "00000000000000ff",
        attributes: { "mcp.method.name": "tools/call", "error.type": "tool_error" },
        status: { code: 2, message: "" },
      }),
    ]);
    expect(out.rejected).toEqual([]);
    expect(out.notModelCalls).toBe(2);
    expect(out.executions).toEqual([
      expect.objectContaining({ tool: "getloan", status: "ok", latencyMs: 40, server: "loans", protocolVersion: "2026-07-28", requestId: "3" }),
      // the tool named only by the span name, as the conventions write it; isError → error.type tool_error
      expect.objectContaining({ tool: "getloan", status: "error", summary: "tool_error" }),
    ]);
  });

  it("an execute_tool span of a tool runtime with the arguments it ran with, and no tool call id, waits for its call instead of being rejected", () => {
    const out = assemble([
      mcpSpan(1, "x", {
        name: "execute_tool getloan",
        attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "getloan", "gen_ai.tool.call.arguments": '{"loannumber":"4471"}' },
      }),
    ]);
    expect(out.rejected).toEqual([]);
    expect(out.executions).toEqual([expect.objectContaining({ tool: "getloan", arguments: { loannumber: "4471" } })]);
  });

  it("each execution takes the latest call of its tool in its trace written before it started, once", () => {
    const call = (id: string, tool: string, timestampMs: number, traceId = "t") => ({ id, traceId, tool, timestampMs });
    const exec = (key: string, tool: string, startedMs: number, traceId = "t") => ({ key, traceId, tool, startedMs });
    const pairs = pairExecutions(
      [exec("second", "getloan", 300), exec("first", "getloan", 150), exec("other trace", "getloan", 400, "u"), exec("too early", "listloans", 50)],
      [call("a", "getloan", 100), call("b", "getloan", 200), call("c", "getloan", 500), call("d", "listloans", 60), call("e", "getloan", 10, "u")],
      new Set(),
    );
    expect(Object.fromEntries(pairs)).toEqual({ first: "a", second: "b", "other trace": "e" });
    expect(Object.fromEntries(pairExecutions([exec("late", "getloan", 300)], [call("a", "getloan", 100), call("b", "getloan", 200)], new Set(["b"])))).toEqual({
      late: "a",
    });
  });
});

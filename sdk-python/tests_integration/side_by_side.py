"""The Python half of sdk-python/side-by-side.integration.test.ts: one scripted agent conversation through each
client tool loop (``openai_tool_loop``, ``anthropic_tool_loop``) with the real ``openai`` and ``anthropic`` packages,
and the same calls as MCP ``tools/call`` requests to a server of the real ``mcp`` package with ``ToolgateMiddleware``,
reported to a real Toolgate. The TypeScript test sends the same conversation through the TypeScript SDK's
``Run.handle`` and ``withToolgate`` into other projects of the same Toolgate and compares what they stored.

Everything both halves must share comes from the TypeScript test, so that it is written once:
  TOOLGATE_URL, TOOLGATE_API_KEY  the Toolgate and an ingest key of this half's project for the tool loops
  TOOLGATE_MCP_API_KEY            an ingest key of this half's project for the MCP server
  SIDE_BY_SIDE_MODEL_URL          the scripted model on loopback (this half's base URL of it)
  SIDE_BY_SIDE_SETUP              JSON: the tools (name, description, parameters), the model reference, each
                                  conversation's run id and the runs' metadata, the MCP calls and who the MCP
                                  server and client say they are
Prints the reporters' counts as JSON; exits non-zero when a reporter reported an error.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable
from typing import Any, TypedDict

import anthropic
import mcp_types as types
import openai
from mcp import Client
from mcp.server.lowlevel.server import Server

from toolgate import HandlerContext, ReporterError, ReporterStats, Toolgate, define_tool
from toolgate.event import ModelRef
from toolgate.loops import anthropic_tool_loop, openai_tool_loop
from toolgate.mcp import ToolgateMiddleware


class ToolDefinition(TypedDict):
    name: str
    description: str
    parameters: dict[str, Any]


class Loans(TypedDict):
    missing: str
    empty: str
    slow: str


class McpCall(TypedDict):
    name: str
    arguments: dict[str, Any]


class Implementation(TypedDict):
    name: str
    version: str


class Setup(TypedDict):
    tools: list[ToolDefinition]
    model: ModelRef
    runIds: dict[str, str]
    metadata: dict[str, str]
    #: the loan numbers the handlers of both halves treat apart: the lookup fails, finds nothing, never answers
    loans: Loans
    timeoutMs: int
    #: the MCP client's tools/call requests, in order (after one tools/list)
    mcpCalls: list[McpCall]
    #: the MCP server's serverInfo and the client's clientInfo
    mcpServer: Implementation
    mcpClient: Implementation


def handler_of(name: str, loans: Loans) -> Callable[[dict[str, Any], HandlerContext], Any]:
    """The twin of the TypeScript test's handler: echoes the call, or fails, finds nothing or waits until cancelled."""

    def answer(args: dict[str, Any], context: HandlerContext) -> Any:
        loan = args.get("loannumber")
        if loan == loans["missing"]:
            raise LookupError(f"no loan {loan}")
        if loan == loans["empty"]:
            return {"found": []}
        if loan == loans["slow"]:
            context.cancelled.wait(10)  # set when the call runs past its timeout
            return "too late"
        return {"tool": name, **args}

    return answer


def mcp_server(setup: Setup) -> Server[Any]:
    """The twin of the TypeScript test's MCP server: the same tools, and the same answers as the handlers above, as
    MCP results (a lookup that fails answers ``isError``; the slow loan is not asked over MCP, which has no timeout)."""
    tools = [types.Tool(name=t["name"], description=t["description"], input_schema=t["parameters"]) for t in setup["tools"]]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = dict(params.arguments or {})
        loan = args.get("loannumber")
        if loan == setup["loans"]["missing"]:
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"no loan {loan}")], is_error=True)
        answer = {"found": []} if loan == setup["loans"]["empty"] else {"tool": params.name, **args}
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(answer, separators=(",", ":")))])

    return Server(setup["mcpServer"]["name"], version=setup["mcpServer"]["version"], on_list_tools=list_tools, on_call_tool=call_tool)


def mcp_half(setup: Setup, errors: list[ReporterError]) -> ReporterStats | None:
    """One MCP session: tools/list, then each call of the script; one run per session, as the middleware keeps them."""
    middleware = ToolgateMiddleware(
        url=os.environ["TOOLGATE_URL"],
        api_key=os.environ["TOOLGATE_MCP_API_KEY"],
        model=setup["model"],
        reporter={"flush_interval_ms": 20, "on_error": errors.append},
    )
    server = mcp_server(setup)
    server.middleware.append(middleware)

    async def session() -> None:
        # the handshake (2025-11-25), as the TypeScript client speaks it: both sessions then store the same protocol version
        async with Client(server, client_info=types.Implementation(**setup["mcpClient"]), mode="legacy") as client:
            await client.list_tools()
            for call in setup["mcpCalls"]:
                await client.call_tool(call["name"], call["arguments"])

    asyncio.run(session())
    reporter = middleware.checks.reporter
    return reporter.shutdown(10_000) if reporter else None


def main() -> int:
    setup: Setup = json.loads(os.environ["SIDE_BY_SIDE_SETUP"])
    model_url = os.environ["SIDE_BY_SIDE_MODEL_URL"]
    errors: list[ReporterError] = []
    toolgate = Toolgate(
        url=os.environ["TOOLGATE_URL"],
        api_key=os.environ["TOOLGATE_API_KEY"],
        model=setup["model"],
        tools=[
            define_tool(
                name=t["name"], description=t["description"], parameters=t["parameters"], handler=handler_of(t["name"], setup["loans"])
            )
            for t in setup["tools"]
        ],
        timeout_ms=setup["timeoutMs"],
        reporter={"flush_interval_ms": 20, "on_error": errors.append},
    )
    # max_retries=0: a scripted model that fails must fail the run, not be asked again
    openai_client = openai.OpenAI(base_url=f"{model_url}/v1", api_key="sk-none", max_retries=0)
    openai_tool_loop(
        openai_client,
        toolgate.run(run_id=setup["runIds"]["openai"], metadata=setup["metadata"]),
        model="scripted",
        messages=[{"role": "user", "content": "What about loan 4471?"}],
    )
    anthropic_client = anthropic.Anthropic(base_url=model_url, api_key="sk-none", max_retries=0)
    anthropic_tool_loop(
        anthropic_client,
        toolgate.run(run_id=setup["runIds"]["anthropic"], metadata=setup["metadata"]),
        model="scripted",
        max_tokens=500,
        messages=[{"role": "user", "content": "What about loan 4471?"}],
    )
    stats = toolgate.shutdown(10_000)
    mcp_stats = mcp_half(setup, errors)
    assert stats is not None and mcp_stats is not None
    counts = {name: {"sent": s.sent, "dropped": s.dropped, "rejected": s.rejected} for name, s in (("loops", stats), ("mcp", mcp_stats))}
    print(json.dumps({**counts, "errors": [str(e) for e in errors]}))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

"""The MCP middleware in servers of the real mcp 2.3.0 package, called by its real client (in-process)."""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.server.lowlevel.server import Server
from mcp.server.mcpserver import MCPServer

from toolgate import ToolgateEvent
from toolgate.mcp import ToolgateMiddleware

SCHEMA = {
    "type": "object",
    "properties": {"loannumber": {"type": "string", "pattern": "^[0-9]+$"}},
    "required": ["loannumber"],
    "additionalProperties": False,
}


def lowlevel(asked: list[Any]) -> Server[Any]:
    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="getloan", description="A loan", input_schema=SCHEMA)])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        asked.append(params.arguments)
        return types.CallToolResult(content=[types.TextContent(type="text", text="balance 1200")])

    return Server("loans", on_list_tools=list_tools, on_call_tool=call_tool)


def check_events(events: list[ToolgateEvent], asked: list[Any]) -> None:
    refused, fixed = events
    assert refused["outcome"]["valid"] is False and refused["outcome"].get("category") == "wrong_type"
    assert fixed["outcome"]["valid"] is True and fixed["correctsId"] == refused["id"]
    assert asked == [{"loannumber": "4471"}]  # the invalid call never reached the tool


def test_the_lowlevel_server_no_longer_validates_so_the_middleware_does() -> None:
    asked: list[Any] = []
    events: list[ToolgateEvent] = []
    server = lowlevel(asked)
    server.middleware.append(ToolgateMiddleware(model={"name": "client-model"}, on_event=events.append))

    async def session() -> None:
        async with Client(server) as client:
            await client.list_tools()
            refused = await client.call_tool("getloan", {"loannumber": 4471})
            assert refused.is_error is True
            text = refused.content[0]
            assert isinstance(text, types.TextContent) and "must be a string" in text.text and 'Send it as "4471"' in text.text
            ok = await client.call_tool("getloan", {"loannumber": "4471"})
            assert ok.is_error is not True and isinstance(ok.content[0], types.TextContent) and ok.content[0].text == "balance 1200"

    asyncio.run(session())
    check_events(events, asked)


def test_mcpserver_fastmcps_successor_asked_for_its_schemas_before_the_first_call() -> None:
    asked: list[Any] = []
    events: list[ToolgateEvent] = []
    middleware = ToolgateMiddleware(model={"name": "client-model"}, on_event=events.append)
    server = MCPServer("loans", middleware=[middleware])
    middleware.server = server

    @server.tool()
    def getloan(loannumber: str) -> str:
        """A loan."""
        asked.append({"loannumber": loannumber})
        return "balance 1200"

    async def session() -> None:
        async with Client(server) as client:
            refused = await client.call_tool("getloan", {"loannumber": 4471})  # no tools/list first
            assert refused.is_error is True
            ok = await client.call_tool("getloan", {"loannumber": "4471"})
            assert ok.is_error is not True

    asyncio.run(session())
    check_events(events, asked)


def test_a_tools_is_error_answer_reaches_the_client_as_it_is_and_is_recorded_as_the_tools_error() -> None:
    """As withToolgate and toolgate mcp record it (docs/events.md: isError is a tool error); it was recorded ok."""
    events: list[ToolgateEvent] = []

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="getloan", description="A loan", input_schema=SCHEMA)])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type="text", text="no loan 4471")], is_error=True)

    server = Server("loans", on_list_tools=list_tools, on_call_tool=call_tool)
    server.middleware.append(ToolgateMiddleware(model={"name": "client-model"}, on_event=events.append))

    async def session() -> None:
        async with Client(server) as client:
            await client.list_tools()
            answer = await client.call_tool("getloan", {"loannumber": "4471"})
            assert answer.is_error is True
            assert [block.text for block in answer.content if isinstance(block, types.TextContent)] == ["no loan 4471"]

    asyncio.run(session())
    [event] = events
    assert event["outcome"]["valid"] is True
    assert event["result"]["status"] == "error" and event["result"]["summary"] == "Error: getloan failed: no loan 4471"

"""The MCP middleware in servers of the real mcp 2.3.0 package, called by its real client (in-process)."""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types as types
import pytest
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
    # the server's own text, as the gateway stores it (the dispatcher's "Error: getloan failed: ..." is for a handler that raised)
    assert event["result"]["status"] == "error" and event["result"]["summary"] == "no loan 4471"


def session_of(server: Server[Any], calls: list[tuple[str, dict[str, Any]]], **client: Any) -> None:
    async def session() -> None:
        async with Client(server, **client) as client_session:
            await client_session.list_tools()
            for name, arguments in calls:
                await client_session.call_tool(name, arguments)

    asyncio.run(session())


def answering(*answers: types.CallToolResult) -> Server[Any]:
    """A server of one tool (getloan) that gives these answers, one a call."""
    queue = list(answers)

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="getloan", description="A loan", input_schema=SCHEMA)])

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return queue.pop(0)

    return Server("loans", version="2.1.0", on_list_tools=list_tools, on_call_tool=call_tool)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_call_is_stored_as_the_gateway_stores_it_named_by_the_server_with_its_metadata(mode: str) -> None:
    """What withToolgate and toolgate mcp store for the same session (docs/mcp.md, "What is recorded"): the server named
    by its answer to initialize (the 2025-11-25 handshake, "legacy") or by its results' _meta (2026-07-28, "auto")."""
    events: list[ToolgateEvent] = []
    server = answering(types.CallToolResult(content=[types.TextContent(type="text", text="balance 1200")]))
    server.middleware.append(ToolgateMiddleware(model={"name": "client-model"}, on_event=events.append))
    session_of(
        server,
        [("getloan", {"loannumber": 4471}), ("getlaon", {"loannumber": "4471"}), ("getloan", {"loannumber": "4471"})],
        client_info=types.Implementation(name="desk-client", version="3.0"),
        mode=mode,
    )
    wrong, unknown, ok = events
    assert [e["tool"] for e in events] == ["loans/getloan", "loans/getlaon", "loans/getloan"]
    # the tools the run is offered, named as its calls are: with the run's first event only
    assert [e.get("toolSet") for e in events] == [["loans/getloan"], None, None]
    # refused calls never ran: no result (the verdict carries the message the model read)
    assert [e["outcome"].get("category") for e in (wrong, unknown)] == ["wrong_type", "unknown_tool"]
    assert "result" not in wrong and "result" not in unknown
    assert ok["result"]["status"] == "ok" and ok["result"]["summary"] == "balance 1200" and ok["result"]["latencyMs"] >= 0
    for event in events:
        assert event["metadata"] == {
            "gateway": "toolgate.mcp.ToolgateMiddleware",
            "enforce": "strict",
            "mcp_protocol_version": event["metadata"]["mcp_protocol_version"],
            "mcp_server": "loans",
            "mcp_server_version": "2.1.0",
            "mcp_client": "desk-client",
            "mcp_client_version": "3.0",
            "model_from": "model",
        }
        assert event["metadata"]["mcp_protocol_version"] >= "2025"
    assert (events[0]["metadata"]["mcp_protocol_version"] >= "2026-07-28") is (mode == "auto")


@pytest.mark.parametrize(("namespace", "tool"), [("", "getloan"), ("bank", "bank/getloan")])
def test_the_namespace_is_the_servers_name_unless_given(namespace: str, tool: str) -> None:
    events: list[ToolgateEvent] = []
    server = answering(types.CallToolResult(content=[types.TextContent(type="text", text="balance 1200")]))
    server.middleware.append(ToolgateMiddleware(model={"name": "client-model"}, namespace=namespace, on_event=events.append))
    session_of(server, [("getloan", {"loannumber": "4471"})])
    assert [e["tool"] for e in events] == [tool]
    assert events[0]["toolSet"] == [tool]
    assert events[0]["metadata"]["mcp_server"] == "loans"


def test_every_answer_has_its_summary_so_that_empty_results_are_flagged() -> None:
    """The first text, else the kind of the first content, else the structured content, else "" (resultOf in sdk/src/mcp.ts)."""
    events: list[ToolgateEvent] = []
    server = answering(
        types.CallToolResult(content=[types.TextContent(type="text", text="[]")]),
        types.CallToolResult(content=[]),
        types.CallToolResult(content=[types.ImageContent(type="image", data="aGk=", mime_type="image/png")]),
        types.CallToolResult(content=[], structured_content={"found": [], "total": 0}),
        types.CallToolResult(content=[types.TextContent(type="text", text="x" * 600)]),
    )
    server.middleware.append(ToolgateMiddleware(model={"name": "client-model"}, on_event=events.append))
    session_of(server, [("getloan", {"loannumber": "4471"})] * 5)
    assert [(e["result"]["status"], e["result"]["summary"]) for e in events] == [
        ("ok", "[]"),
        ("ok", ""),
        ("ok", "[image]"),
        ("ok", '{"found":[],"total":0}'),
        ("ok", "x" * 499 + "…"),
    ]


def test_a_name_tools_register_would_refuse_is_left_out_of_the_registration_and_said_so() -> None:
    """A server name of 130 characters makes tool names over 128: the gateway leaves them out rather than have
    tools.register refuse the whole request (the reporter's real HTTP request is never sent: no server listens)."""
    errors: list[Exception] = []
    middleware = ToolgateMiddleware(
        model={"name": "m"}, url="http://127.0.0.1:9", api_key="tg_test_key_0123456789", reporter={"on_error": errors.append}
    )
    middleware.checks.server_initialized({"name": "s" * 130})
    middleware.checks.learn([{"name": "getloan", "inputSchema": SCHEMA}])
    cut = "s" * 59 + "…"  # the name, cut to 60 characters
    assert [str(e) for e in errors] == [
        f"not registering the schema of 'getloan': '{cut}' is longer than 128 characters (use a shorter namespace=)"
    ]
    assert middleware.checks.reporter is not None and middleware.checks.reporter._pending_tools == {}
    middleware.checks.reporter.shutdown(0)

"""The FastMCP middleware in a server of the real fastmcp 4.2.3 package, called by its real client (in-process),
over the session-less 2026-07-28 protocol (the client's default) and the 2025-11-25 handshake."""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types as types
import pytest
from fastmcp import Client, FastMCP
from fastmcp.tools.base import ToolResult

from toolgate import ToolgateEvent
from toolgate.fastmcp import ToolgateFastMCPMiddleware


def loans(asked: list[Any], events: list[ToolgateEvent]) -> FastMCP:
    server = FastMCP("loans")
    server.add_middleware(ToolgateFastMCPMiddleware(model={"name": "client-model"}, on_event=events.append))

    @server.tool()
    def getloan(loannumber: str, currency: str = "EUR") -> str:
        """The balance of one loan, by its loan number."""
        asked.append({"loannumber": loannumber})
        return "balance 1200"

    return server


def text_of(result: Any) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


@pytest.mark.parametrize("listed_first", [True, False])
def test_an_invalid_call_is_answered_by_toolgate_and_its_correction_reaches_the_tool(listed_first: bool) -> None:
    asked: list[Any] = []
    events: list[ToolgateEvent] = []
    server = loans(asked, events)

    async def session() -> None:
        async with Client(server) as client:
            if listed_first:
                await client.list_tools()
            refused = await client.call_tool("getloan", {"loannumber": 4471}, raise_on_error=False)
            assert refused.is_error is True
            # the classifier's message, not FastMCP's own validation error
            assert "must be a string" in text_of(refused) and 'Send it as "4471"' in text_of(refused)
            ok = await client.call_tool("getloan", {"loannumber": "4471"})
            assert ok.is_error is not True and text_of(ok) == "balance 1200"

    asyncio.run(session())
    refused, fixed = events
    assert refused["outcome"]["valid"] is False and refused["outcome"].get("category") == "wrong_type"
    assert fixed["outcome"]["valid"] is True and fixed["correctsId"] == refused["id"]  # one run: the correction is paired
    assert refused["runId"] == fixed["runId"]
    assert asked == [{"loannumber": "4471"}]  # the invalid call never reached the tool


def test_an_unknown_tool_and_a_missing_argument_never_reach_fastmcp() -> None:
    asked: list[Any] = []
    events: list[ToolgateEvent] = []
    server = loans(asked, events)

    async def session() -> None:
        async with Client(server) as client:
            unknown = await client.call_tool("getlaon", {"loannumber": "4471"}, raise_on_error=False)
            assert unknown.is_error is True and "getloan" in text_of(unknown)
            missing = await client.call_tool("getloan", {}, raise_on_error=False)
            assert missing.is_error is True and "loannumber" in text_of(missing)

    asyncio.run(session())
    assert [e["outcome"].get("category") for e in events] == ["unknown_tool", "missing_argument"]
    assert asked == []


def test_a_tools_error_answer_reaches_the_client_as_it_is_and_is_recorded_as_the_tools_error() -> None:
    """A tool answering ``ToolResult(is_error=True)`` (it was recorded ok): a tool error, as withToolgate records it."""
    events: list[ToolgateEvent] = []
    server = FastMCP("loans")
    server.add_middleware(ToolgateFastMCPMiddleware(model={"name": "client-model"}, on_event=events.append))

    @server.tool()
    def getloan(loannumber: str) -> ToolResult:
        """The balance of one loan, by its loan number."""
        return ToolResult(content=f"no loan {loannumber}", is_error=True)

    async def session() -> None:
        async with Client(server) as client:
            answer = await client.call_tool("getloan", {"loannumber": "4471"}, raise_on_error=False)
            assert answer.is_error is True and text_of(answer) == "no loan 4471"  # the tool's own answer

    asyncio.run(session())
    [event] = events
    assert event["outcome"]["valid"] is True
    # the server's own text, as the gateway stores it (the dispatcher's "Error: getloan failed: ..." is for a handler that raised)
    assert event["result"]["status"] == "error" and event["result"]["summary"] == "no loan 4471"


@pytest.mark.parametrize(("namespace", "tool"), [(None, "loans/getloan"), ("", "getloan"), ("bank", "bank/getloan")])
def test_a_call_is_stored_as_the_gateway_stores_it(namespace: str | None, tool: str) -> None:
    """Named by the server (or the namespace given), the gateway's metadata keys, no result for a refused call, and
    every answer's summary, so that an empty one is flagged (docs/mcp.md, "What is recorded")."""
    events: list[ToolgateEvent] = []
    server = FastMCP("loans", version="2.1.0")
    server.add_middleware(ToolgateFastMCPMiddleware(model={"name": "client-model"}, namespace=namespace, on_event=events.append))

    @server.tool()
    def getloan(loannumber: str) -> str:
        """The payments of one loan, by its loan number."""
        return "[]"

    async def session() -> None:
        async with Client(server, client_info=types.Implementation(name="desk-client", version="3.0")) as client:
            await client.call_tool("getloan", {"loannumber": 4471}, raise_on_error=False)
            await client.call_tool("getloan", {"loannumber": "4471"})

    asyncio.run(session())
    refused, empty = events
    assert [e["tool"] for e in events] == [tool, tool]
    assert refused["outcome"]["valid"] is False and "result" not in refused  # it never ran
    assert empty["result"]["status"] == "ok" and empty["result"]["summary"] == "[]"
    assert refused["metadata"] == empty["metadata"]
    assert {k: v for k, v in empty["metadata"].items() if k != "mcp_protocol_version"} == {
        "gateway": "toolgate.fastmcp.ToolgateFastMCPMiddleware",
        "enforce": "strict",
        "mcp_server": "loans",
        "mcp_server_version": "2.1.0",
        "mcp_client": "desk-client",
        "mcp_client_version": "3.0",
        "model_from": "model",
    }

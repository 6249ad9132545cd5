"""An MCP server for the gateway's tests, written with a real Python MCP library.

    python mcp_peer_server.py KIND TRANSPORT [LABEL] [--stateless] [--changing]

KIND: high (the official SDK's MCPServer), low (its low-level Server, which checks no
arguments) or fastmcp (FastMCP). TRANSPORT: stdio, or http (Streamable HTTP on 127.0.0.1, a
free port; uvicorn says which on stderr). One tool, get_loan(amount: int, currency: str); each
call that reaches it is written to stderr as `CALLED <json>` with LABEL (default: KIND), so a test
sees what each server got.

--stateless: over http, the SDK's stateless mode (no Mcp-Session-Id, a fresh transport per request).
--changing (high and low; FastMCP serves no `subscriptions/listen`): a second tool, change_loans,
makes get_loan take get_loan(amount: number, currency: str, term_months: int) instead and
publishes the change on the `subscriptions/listen` streams (notifications/tools/list_changed);
from then on the server takes half a second to answer tools/list, as a server reloading its
tools would, so that a client's call can arrive while a listing is under way.
"""

import json
import sys
import threading
from typing import Any

ARGS = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
FLAGS = {arg for arg in sys.argv[1:] if arg.startswith("--")}
KIND, TRANSPORT = ARGS[0], ARGS[1]
LABEL = ARGS[2] if len(ARGS) > 2 else KIND
STATELESS, CHANGING = "--stateless" in FLAGS, "--changing" in FLAGS
CHANGED_TEXT = "get_loan now takes term_months"


# The high-level server runs sync tools on worker threads, and print() writes a line's text and its
# newline apart: two calls at once could share a line. Each line is one write, under a lock.
_write_lock = threading.Lock()


def called(name: str, arguments: Any) -> str:
    line = "CALLED " + json.dumps({"server": LABEL, "tool": name, "arguments": arguments}, sort_keys=True) + "\n"
    with _write_lock:
        sys.stderr.write(line)
        sys.stderr.flush()
    term = f" over {arguments['term_months']} months" if "term_months" in arguments else ""
    return f"loan of {arguments.get('amount')} {arguments.get('currency')}{term} approved"


changed = False


async def slow_list_once_changed(ctx: Any, call_next: Any) -> Any:
    """Middleware (both SDK servers): tools/list answered half a second late after change_loans."""
    if changed and ctx.method == "tools/list":
        import anyio

        await anyio.sleep(0.5)
    return await call_next(ctx)


def high():
    from mcp.server.mcpserver import Context, MCPServer

    server = MCPServer("loans-high", middleware=[slow_list_once_changed] if CHANGING else None)

    @server.tool()
    def get_loan(amount: int, currency: str) -> str:
        """Grants a loan."""
        return called("get_loan", {"amount": amount, "currency": currency})

    if CHANGING:

        def get_loan_with_term(amount: float, currency: str, term_months: int) -> str:
            """Grants a loan over a term."""
            return called("get_loan", {"amount": amount, "currency": currency, "term_months": term_months})

        @server.tool()
        async def change_loans(ctx: Context) -> str:
            """Makes get_loan take a term."""
            global changed
            called("change_loans", {})
            server.remove_tool("get_loan")
            server.add_tool(get_loan_with_term, name="get_loan")
            changed = True
            await ctx.notify_tools_changed()
            return CHANGED_TEXT

    if TRANSPORT == "stdio":
        return server.run()
    return server.streamable_http_app(host="127.0.0.1", stateless_http=STATELESS)


def low():
    import anyio
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server
    from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
    from mcp.types import CallToolRequestParams, CallToolResult, ListToolsResult, TextContent, Tool

    def loan_tool(properties: dict[str, Any]) -> Tool:
        return Tool(
            name="get_loan",
            description="Grants a loan.",
            input_schema={"type": "object", "properties": properties, "required": list(properties)},
        )

    tools = {"get_loan": loan_tool({"amount": {"type": "integer"}, "currency": {"type": "string"}})}
    if CHANGING:
        tools["change_loans"] = Tool(name="change_loans", description="Makes get_loan take a term.", input_schema={"type": "object"})
    bus = InMemorySubscriptionBus()

    async def list_tools(ctx: ServerRequestContext, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=list(tools.values()))

    async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult:
        global changed
        text = called(params.name, params.arguments or {})
        if CHANGING and params.name == "change_loans":
            tools["get_loan"] = loan_tool({"amount": {"type": "number"}, "currency": {"type": "string"}, "term_months": {"type": "integer"}})
            changed = True
            await bus.publish(ToolsListChanged())
            text = CHANGED_TEXT
        return CallToolResult(content=[TextContent(type="text", text=text)])

    listen = {"on_subscriptions_listen": ListenHandler(bus)} if CHANGING else {}
    server = Server("loans-low", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool, **listen)
    if CHANGING:
        server.middleware.append(slow_list_once_changed)
    if TRANSPORT == "stdio":

        async def main():
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        return anyio.run(main)
    return server.streamable_http_app(host="127.0.0.1", stateless_http=STATELESS)


def fast():
    from fastmcp import FastMCP

    server = FastMCP("loans-fastmcp")

    @server.tool
    def get_loan(amount: int, currency: str) -> str:
        """Grants a loan."""
        return called("get_loan", {"amount": amount, "currency": currency})

    if TRANSPORT == "stdio":
        return server.run(show_banner=False)
    return server.http_app(path="/mcp", stateless_http=STATELESS)


app = {"high": high, "low": low, "fastmcp": fast}[KIND]()
if TRANSPORT == "http":
    import uvicorn

    uvicorn.run(app, host="127.0.0.1", port=0, log_level="info")

"""An MCP server for the gateway's tests, written with a real Python MCP library.

    python mcp_peer_server.py KIND TRANSPORT [LABEL]

KIND: high (the official SDK's MCPServer), low (its low-level Server, which checks no
arguments) or fastmcp (FastMCP). TRANSPORT: stdio, or http (Streamable HTTP on 127.0.0.1, a
free port; uvicorn says which on stderr). One tool, get_loan(amount: int, currency: str); each
call that reaches it is written to stderr as `CALLED <json>` with LABEL (default: KIND), so a test
sees what each server got.
"""

import json
import sys
import threading
from typing import Any

KIND, TRANSPORT = sys.argv[1], sys.argv[2]
LABEL = sys.argv[3] if len(sys.argv) > 3 else KIND


# The high-level server runs sync tools on worker threads, and print() writes a line's text and its
# newline apart: two calls at once could share a line. Each line is one write, under a lock.
_write_lock = threading.Lock()


def called(name: str, arguments: Any) -> str:
    line = "CALLED " + json.dumps({"server": LABEL, "tool": name, "arguments": arguments}, sort_keys=True) + "\n"
    with _write_lock:
        sys.stderr.write(line)
        sys.stderr.flush()
    return f"loan of {arguments.get('amount')} {arguments.get('currency')} approved"


def high():
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("loans-high")

    @server.tool()
    def get_loan(amount: int, currency: str) -> str:
        """Grants a loan."""
        return called("get_loan", {"amount": amount, "currency": currency})

    if TRANSPORT == "stdio":
        return server.run()
    return server.streamable_http_app(host="127.0.0.1")


def low():
    import anyio
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server
    from mcp.types import CallToolRequestParams, CallToolResult, ListToolsResult, TextContent, Tool

    tool = Tool(
        name="get_loan",
        description="Grants a loan.",
        input_schema={
            "type": "object",
            "properties": {"amount": {"type": "integer"}, "currency": {"type": "string"}},
            "required": ["amount", "currency"],
        },
    )

    async def list_tools(ctx: ServerRequestContext, params: Any) -> ListToolsResult:
        return ListToolsResult(tools=[tool])

    async def call_tool(ctx: ServerRequestContext, params: CallToolRequestParams) -> CallToolResult:
        text = called(params.name, params.arguments or {})
        return CallToolResult(content=[TextContent(type="text", text=text)])

    server = Server("loans-low", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)
    if TRANSPORT == "stdio":

        async def main():
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        return anyio.run(main)
    return server.streamable_http_app(host="127.0.0.1")


def fast():
    from fastmcp import FastMCP

    server = FastMCP("loans-fastmcp")

    @server.tool
    def get_loan(amount: int, currency: str) -> str:
        """Grants a loan."""
        return called("get_loan", {"amount": amount, "currency": currency})

    if TRANSPORT == "stdio":
        return server.run(show_banner=False)
    return server.http_app(path="/mcp")


app = {"high": high, "low": low, "fastmcp": fast}[KIND]()
if TRANSPORT == "http":
    import uvicorn

    uvicorn.run(app, host="127.0.0.1", port=0, log_level="info")

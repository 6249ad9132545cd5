"""Toolgate inside a server of the standalone ``fastmcp`` package (4.x): a FastMCP ``Middleware`` that checks each
tool call against the tool's input schema before FastMCP's own argument handling, answers an invalid one with an
error result carrying the classifier's message (the tool never sees it), and reports every call::

    from fastmcp import FastMCP
    from toolgate.fastmcp import ToolgateFastMCPMiddleware

    mcp = FastMCP("loans")
    mcp.add_middleware(ToolgateFastMCPMiddleware(url=..., api_key=..., model={"name": "claude-sonnet-4-5"}))

The schemas are the server's own tool listing, asked for before the first call of a session that has not listed
them. One run per client session; calls without a session (the session-less 2026-07-28 protocol) share one run
per middleware. The same checks as ``toolgate.mcp.ToolgateMiddleware`` (``McpGate``), in FastMCP's hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools.base import Tool, ToolResult

from .event import ModelRef
from .mcp import McpGate, client_info_of
from .reporter import ReporterOptions


def _listing(tools: Sequence[Tool]) -> list[dict[str, Any]]:
    return [{"name": tool.name, "description": tool.description, "inputSchema": tool.parameters} for tool in tools]


class ToolgateFastMCPMiddleware(Middleware):
    """Checks and reports the tool calls of a ``fastmcp.FastMCP`` server.

    ``namespace``: tools are named ``<namespace>/<tool>`` in Toolgate; None (the default) takes the server's name,
    ``""`` keeps the tools' own names (one server per project)."""

    def __init__(
        self,
        *,
        model: ModelRef,
        url: str | None = None,
        api_key: str | None = None,
        namespace: str | None = None,
        reporter: ReporterOptions | Mapping[str, Any] | None = None,
        on_event: Callable[[Any], None] | None = None,
    ) -> None:
        self.checks = McpGate(
            model=model,
            recorder="toolgate.fastmcp.ToolgateFastMCPMiddleware",
            url=url,
            api_key=api_key,
            namespace=namespace,
            reporter=reporter,
            on_event=on_event,
        )

    def _know_server(self, context: MiddlewareContext[Any]) -> None:
        """The server as it names itself to clients (its serverInfo is the FastMCP server's name and version)."""
        server = context.fastmcp_context
        if self.checks.server_info is None and server is not None:
            self.checks.server_initialized({"name": server.fastmcp.name, "version": server.fastmcp.version})

    async def on_list_tools(self, context: MiddlewareContext[Any], call_next: CallNext[Any, Sequence[Tool]]) -> Sequence[Tool]:
        tools = await call_next(context)
        self._know_server(context)
        self.checks.learn(_listing(tools))
        return tools

    async def on_call_tool(self, context: MiddlewareContext[Any], call_next: CallNext[Any, ToolResult]) -> ToolResult:
        self._know_server(context)
        server = context.fastmcp_context
        if self.checks.gate is None and server is not None:
            self.checks.learn(_listing(await server.fastmcp.list_tools()))
        request = server.request_context if server is not None else None
        params = context.message
        request_id = str(request.request_id or "") if request is not None else ""
        call = {"name": str(params.name), "arguments": params.arguments or {}, "id": request_id}
        run_key = self.checks.run_key(request.protocol_version, request.session) if request is not None else self.checks.shared
        ok, answer = await self.checks.dispatch(
            run_key,
            call,
            lambda: call_next(context),
            protocol_version=request.protocol_version if request is not None else None,
            client_info=client_info_of(getattr(params, "meta", None), request.session if request is not None else None),
        )
        if ok:
            result: ToolResult = answer
            return result
        return ToolResult(content=str(answer), is_error=True)

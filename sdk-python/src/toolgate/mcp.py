"""Toolgate inside a Python MCP server (the official ``mcp`` SDK 2.x: the low-level ``Server`` and ``MCPServer``,
FastMCP's successor): a server middleware that checks each ``tools/call`` against the ``inputSchema`` the
server lists, answers an invalid one with ``isError: true`` and the classifier's message (the tool never
sees it), and reports every call; one run per MCP session. The in-process alternative to ``toolgate mcp``::

    middleware = ToolgateMiddleware(url=..., api_key=..., model={"name": "claude-sonnet-4-5"})
    server = MCPServer("loans", middleware=[middleware])     # or: lowlevel_server.middleware.append(middleware)

The schemas are read from the server's own ``tools/list`` answers as they pass through (and, for an
``MCPServer`` given as ``server=``, asked for before the first call of a session that has not listed them).
A call that comes before any schema is known is forwarded unchecked. One run per client connection; on the
session-less 2026-07-28 protocol, one run per middleware.
"""

from __future__ import annotations

import contextvars
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .dispatcher import Run, Toolgate
from .event import ModelRef
from .reporter import ReporterOptions, reporter_for
from .tools import Tool, define_tool

# the server's own handling of the call being checked: the gate's tool handler forwards to it
_call_next: contextvars.ContextVar[Callable[[], Awaitable[Any]]] = contextvars.ContextVar("toolgate_mcp_call_next")


def _dump(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if callable(dump) else value


async def _forward(arguments: dict[str, Any]) -> Any:
    return await _call_next.get()()


class _ToolAnsweredError(Exception):
    """The server answered the call with ``isError``: raised in the gate's handler so that the call is recorded as the
    tool's error, as the TypeScript ``withToolgate`` and ``toolgate mcp`` record it (docs/events.md)."""


def _field(value: Any, wire: str, python: str) -> Any:
    """A field of an MCP result or content block: wire form (the low-level server's middleware chain) or object (FastMCP's)."""
    return value.get(wire) if isinstance(value, Mapping) else getattr(value, python, None)


def _is_error(answer: Any) -> bool:
    return _field(answer, "isError", "is_error") is True


def _first_text(answer: Any) -> str:
    texts = (_field(block, "text", "text") for block in _field(answer, "content", "content") or [])
    return next((text for text in texts if isinstance(text, str)), "")


class _SharedRun:
    """The key of the run that session-less (2026-07-28) calls share."""


class McpGate:
    """What every in-server MCP middleware shares: the schemas learnt from the server's tool listings, one
    ``Toolgate`` over them, and one run per client connection (one per gate on the session-less protocol)."""

    def __init__(
        self,
        *,
        model: ModelRef,
        url: str | None = None,
        api_key: str | None = None,
        reporter: ReporterOptions | Mapping[str, Any] | None = None,
        on_event: Callable[[Any], None] | None = None,
    ) -> None:
        self.model = model
        self.on_event = on_event
        self.reporter = reporter_for(url, api_key, reporter)
        self.gate: Toolgate | None = None
        self._schemas: dict[str, Any] = {}
        self._runs: weakref.WeakKeyDictionary[Any, Run] = weakref.WeakKeyDictionary()
        self.shared = _SharedRun()

    def learn(self, tools: list[Any]) -> None:
        """Takes a tool listing (``name``, ``description``, ``inputSchema``); a new listing makes a new gate."""
        schemas = {}
        for tool in tools:
            item = _dump(tool)
            schema = item.get("inputSchema") or item.get("input_schema") or {"type": "object"}
            schemas[item["name"]] = (item.get("description"), schema)
        if schemas == self._schemas:
            return
        self._schemas = schemas
        defined: list[Tool] = [
            define_tool(name=name, description=description, parameters=schema, handler=_forward, timeout_ms=24 * 3600 * 1000)
            for name, (description, schema) in schemas.items()
        ]
        gate = Toolgate(tools=defined, model=self.model, on_event=self.on_event)
        gate.reporter = self.reporter
        if self.reporter:
            self.reporter.register_tools(gate.tools.definitions())
        self.gate = gate
        self._runs = weakref.WeakKeyDictionary()

    def run_key(self, protocol_version: Any, session: Any) -> Any:
        """One run per client connection on the handshake protocols (mcp 2.x makes a ServerSession per request over
        the connection's state, which has no public name yet). The 2026-07-28 protocol has no sessions: every
        request is its own exchange, so its calls share one run per gate."""
        if session is None or str(protocol_version or "") >= "2026-07-28":
            return self.shared
        return getattr(session, "_connection", None) or session

    def _run(self, key: Any) -> Run:
        assert self.gate is not None
        run = self._runs.get(key)
        if run is None or run.gate is not self.gate:
            run = self.gate.run()
            self._runs[key] = run
        return run

    async def dispatch(self, run_key: Any, call: dict[str, Any], forward: Callable[[], Awaitable[Any]]) -> tuple[bool, Any]:
        """Checks one call in the run of ``run_key``: ``(True, what forward() answered)`` when it was valid (or no
        schema is known yet: forwarded unchecked), ``(False, the message for the model)`` when it was refused."""
        if self.gate is None:
            return True, await forward()
        answers: list[Any] = []

        async def answer() -> Any:
            answered = await forward()
            answers.append(answered)
            if _is_error(answered):
                raise _ToolAnsweredError(_first_text(answered))
            return answered

        token = _call_next.set(answer)
        try:
            [outcome] = await self._run(run_key).dispatch(call)
        finally:
            _call_next.reset(token)
        if answers:  # the server answered (an error too): the client gets its answer as it is
            return True, answers[0]
        return (True, outcome.value) if outcome.status == "ok" else (False, outcome.content)


class ToolgateMiddleware:
    """A ``ServerMiddleware`` (``(ctx, call_next) -> result``) for ``mcp`` 2.x servers."""

    def __init__(
        self,
        *,
        model: ModelRef,
        url: str | None = None,
        api_key: str | None = None,
        server: Any = None,
        reporter: ReporterOptions | Mapping[str, Any] | None = None,
        on_event: Callable[[Any], None] | None = None,
    ) -> None:
        self.server = server
        self.checks = McpGate(model=model, url=url, api_key=api_key, reporter=reporter, on_event=on_event)

    def _run_key(self, ctx: Any) -> Any:
        return self.checks.run_key(getattr(ctx, "protocol_version", None), ctx.session)

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        if ctx.method == "tools/list":
            result = await call_next(ctx)
            self.checks.learn(list(_dump(result).get("tools", [])))
            return result
        if ctx.method != "tools/call":
            return await call_next(ctx)
        if self.checks.gate is None and self.server is not None and callable(getattr(self.server, "list_tools", None)):
            self.checks.learn(list(await self.server.list_tools()))
        params = dict(ctx.params or {})
        call = {"name": str(params.get("name", "")), "arguments": params.get("arguments", {}), "id": str(ctx.request_id or "")}
        ok, answer = await self.checks.dispatch(self._run_key(ctx), call, lambda: call_next(ctx))
        if ok:
            return answer
        import mcp_types

        return mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text=answer)], is_error=True)

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

What is stored is what the TypeScript ``withToolgate`` and ``toolgate mcp`` store for the same session
(docs/mcp.md): tools named ``<server name>/<tool>`` (``namespace``), the gateway's metadata keys, a refused
call without a result (it never ran), and every answer's summary, so that empty results are flagged.
"""

from __future__ import annotations

import contextvars
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ._classify_js import stringify, truncate, utf16_length
from .dispatcher import Run, Toolgate
from .event import ModelRef, Result, ToolgateEvent
from .reporter import ReporterError, ReporterOptions, reporter_for
from .tools import Tool, define_tool

# the _meta keys of protocol 2026-07-28 (SEP-2575), as sdk/src/mcp.ts reads them
CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
SUMMARY_CHARS = 500
#: The longest tool name tools.register takes (TOOL_NAME_MAX in isomorphic/tool-schema.ts)
TOOL_NAME_MAX = 128

# the server's own handling of the call being checked: the gate's tool handler forwards to it
_call_next: contextvars.ContextVar[Callable[[], Awaitable[Any]]] = contextvars.ContextVar("toolgate_mcp_call_next")


def _dump(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if callable(dump) else value


async def _forward(arguments: dict[str, Any]) -> Any:
    return await _call_next.get()()


def _field(value: Any, wire: str, python: str) -> Any:
    """A field of an MCP result or content block: wire form (the low-level server's middleware chain) or object (FastMCP's)."""
    return value.get(wire) if isinstance(value, Mapping) else getattr(value, python, None)


def info_of(value: Any) -> dict[str, str] | None:
    """An MCP ``Implementation`` (``serverInfo``, ``clientInfo``) as the metadata names it: a non-empty ``name`` cut to
    200 characters, a ``version`` to 100; None when it has no such name. ``infoOf`` in sdk/src/mcp.ts."""
    item = _dump(value)
    if not isinstance(item, Mapping) or not isinstance(item.get("name"), str) or item["name"] == "":
        return None
    info = {"name": truncate(item["name"], 200)}
    if isinstance(item.get("version"), str):
        info["version"] = truncate(item["version"], 100)
    return info


def client_info_of(meta: Any, session: Any) -> Any:
    """The client of a request: its ``_meta`` names it on 2026-07-28, the session's ``initialize`` before."""
    if isinstance(meta, Mapping) and CLIENT_INFO in meta:
        return meta[CLIENT_INFO]
    return _field(getattr(session, "client_params", None), "clientInfo", "client_info")


def result_of(answer: Any) -> Result:
    """A ``tools/call`` answer (a ``CallToolResult``, wire form or object) as the call's result, without its latency: the
    tool's error when ``isError``, and the first text content (or ``[image]``, or the structured content) as the
    summary, an answer without content as ``""`` so that Toolgate flags it. ``resultOf`` in sdk/src/mcp.ts."""
    content = _field(answer, "content", "content")
    first = _dump(content[0]) if isinstance(content, list) and content else None
    if isinstance(answer, Mapping):
        structured, has_structured = answer.get("structuredContent"), "structuredContent" in answer
    else:
        structured = getattr(answer, "structured_content", None)
        has_structured = structured is not None
    if isinstance(first, Mapping):
        text, kind = first.get("text"), first.get("type")
        kind = "content" if kind is None else kind if isinstance(kind, str) else stringify(kind)  # String(first.type ?? "content")
        summary = text if isinstance(text, str) else f"[{kind}]"
    else:
        summary = stringify(_dump(structured)) if has_structured else ""
    return {"status": "error" if _field(answer, "isError", "is_error") is True else "ok", "summary": truncate(summary, SUMMARY_CHARS)}


class _SharedRun:
    """The key of the run that session-less (2026-07-28) calls share."""


class McpGate:
    """What every in-server MCP middleware shares: the schemas learnt from the server's tool listings, one
    ``Toolgate`` over them, one run per client connection (one per gate on the session-less protocol), and what
    each call's event says about the session, as sdk/src/mcp.ts (``McpGateway``) records it."""

    def __init__(
        self,
        *,
        model: ModelRef,
        recorder: str,
        url: str | None = None,
        api_key: str | None = None,
        namespace: str | None = None,
        reporter: ReporterOptions | Mapping[str, Any] | None = None,
        on_event: Callable[[Any], None] | None = None,
    ) -> None:
        self.model = model
        #: the metadata's ``gateway``: which middleware recorded the call
        self.recorder = recorder
        self.namespace = namespace
        self.on_event = on_event
        self.reporter = reporter_for(url, api_key, reporter)
        self.gate: Toolgate | None = None
        #: the server's serverInfo (name, version), once known
        self.server_info: dict[str, str] | None = None
        self._schemas: dict[str, Any] = {}
        self._runs: weakref.WeakKeyDictionary[Any, Run] = weakref.WeakKeyDictionary()
        self.shared = _SharedRun()

    def server_initialized(self, server_info: Any) -> None:
        """The server's answer to ``initialize`` named it (its ``serverInfo``; ``mcp-server`` when it names none)."""
        self.server_info = info_of(server_info) or {"name": "mcp-server"}

    def server_stamped(self, result: Any) -> None:
        """2026-07-28: the server names itself in each result's ``_meta``; the first name seen is the namespace's."""
        meta = _field(_dump(result), "_meta", "meta")
        if self.server_info is None and isinstance(meta, Mapping):
            self.server_info = info_of(meta.get(SERVER_INFO))

    def tool_name(self, name: str) -> str:
        """The tool's name in Toolgate: ``<namespace>/<tool>``, the namespace being ``namespace`` or else the server's
        name; ``namespace=""``: the tool's own name (one server per project). ``toolgateName`` in sdk/src/mcp.ts."""
        namespace = self.namespace if self.namespace is not None else self.server_info["name"] if self.server_info else ""
        return f"{namespace}/{name}" if namespace else name

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
        # no reporter and no on_event of its own: the gate records each event once it holds the server's answer
        self.gate = Toolgate(tools=defined, model=self.model)
        # registered under the names the calls are stored under, with the server as their source (as the gateway
        # does, once the server has named itself)
        if self.reporter and self.server_info:
            source = f"mcp:{self.server_info['name']}"
            registrations = []
            for tool in self.gate.tools.definitions():
                name = self.tool_name(tool["name"])
                if utf16_length(name) > TOOL_NAME_MAX:  # tools.register would refuse it, and the other tools of its request
                    problem = f"'{truncate(name)}' is longer than {TOOL_NAME_MAX} characters (use a shorter namespace=)"
                    self.reporter._report(ReporterError("register", f"not registering the schema of '{tool['name']}': {problem}"))
                    continue
                registrations.append({**tool, "name": name, "source": source})
            self.reporter.register_tools(registrations)
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

    def metadata(self, protocol_version: Any, client_info: Any) -> dict[str, str]:
        """The keys the gateway's events carry (``metadata()`` in sdk/src/mcp.ts), with this middleware's values: it
        refuses the calls it cannot check (``enforce`` strict), and the model is always its ``model`` argument."""
        metadata = {"gateway": self.recorder, "enforce": "strict"}
        if isinstance(protocol_version, str) and protocol_version:
            metadata["mcp_protocol_version"] = truncate(protocol_version, 50)
        if self.server_info:
            metadata["mcp_server"] = self.server_info["name"]
            if self.server_info.get("version"):
                metadata["mcp_server_version"] = self.server_info["version"]
        client = info_of(client_info)
        if client:
            metadata["mcp_client"] = client["name"]
            if client.get("version"):
                metadata["mcp_client_version"] = client["version"]
        metadata["model_from"] = "model"
        return metadata

    async def dispatch(
        self,
        run_key: Any,
        call: dict[str, Any],
        forward: Callable[[], Awaitable[Any]],
        *,
        protocol_version: Any = None,
        client_info: Any = None,
    ) -> tuple[bool, Any]:
        """Checks one call in the run of ``run_key`` and records it: ``(True, what forward() answered)`` when it was
        valid (or no schema is known yet: forwarded unchecked, not recorded), ``(False, the message for the model)``
        when it was refused."""
        if self.gate is None:
            return True, await forward()
        answers: list[Any] = []

        async def answer() -> Any:
            answered = await forward()
            answers.append(answered)
            return answered

        token = _call_next.set(answer)
        try:
            [outcome] = await self._run(run_key).dispatch(call)
        finally:
            _call_next.reset(token)
        event: ToolgateEvent = outcome.event
        event["tool"] = self.tool_name(outcome.call.tool)
        if "toolSet" in event:  # the run's first event: the tools it is offered, under the names their calls are stored under
            event["toolSet"] = [self.tool_name(name) for name in event["toolSet"]]
        # a server is sent one call at a time: which calls one model response asked for together is not known
        # here, so no turn (as sdk/src/mcp.ts records none)
        event.pop("turn", None)
        event["metadata"] = {**self.metadata(protocol_version, client_info), **event.get("metadata", {})}
        if answers:  # the server answered (an error too): its answer is the call's result, and the client gets it as it is
            event["result"] = {**result_of(answers[0]), "latencyMs": event.get("result", {}).get("latencyMs", 0)}
        self._record(event)
        if answers:
            return True, answers[0]
        return (True, outcome.value) if outcome.status == "ok" else (False, outcome.content)

    def _record(self, event: ToolgateEvent) -> None:
        if self.on_event:
            self.on_event(event)
        if self.reporter:
            self.reporter.record(event)


class ToolgateMiddleware:
    """A ``ServerMiddleware`` (``(ctx, call_next) -> result``) for ``mcp`` 2.x servers.

    ``namespace``: tools are named ``<namespace>/<tool>`` in Toolgate; None (the default) takes the server's name
    from its ``serverInfo``, ``""`` keeps the tools' own names (one server per project)."""

    def __init__(
        self,
        *,
        model: ModelRef,
        url: str | None = None,
        api_key: str | None = None,
        server: Any = None,
        namespace: str | None = None,
        reporter: ReporterOptions | Mapping[str, Any] | None = None,
        on_event: Callable[[Any], None] | None = None,
    ) -> None:
        self.server = server
        self.checks = McpGate(
            model=model,
            recorder="toolgate.mcp.ToolgateMiddleware",
            url=url,
            api_key=api_key,
            namespace=namespace,
            reporter=reporter,
            on_event=on_event,
        )

    def _run_key(self, ctx: Any) -> Any:
        return self.checks.run_key(getattr(ctx, "protocol_version", None), ctx.session)

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        if ctx.method == "initialize":
            result = await call_next(ctx)
            self.checks.server_initialized(_field(_dump(result), "serverInfo", "server_info"))
            return result
        if ctx.method == "tools/list":
            result = await call_next(ctx)
            self.checks.server_stamped(result)
            self.checks.learn(list(_dump(result).get("tools", [])))
            return result
        if ctx.method != "tools/call":
            result = await call_next(ctx)
            self.checks.server_stamped(result)
            return result
        if self.checks.gate is None and self.server is not None and callable(getattr(self.server, "list_tools", None)):
            self.checks.learn(list(await self.server.list_tools()))
        params = dict(ctx.params or {})
        call = {"name": str(params.get("name", "")), "arguments": params.get("arguments", {}), "id": str(ctx.request_id or "")}

        async def forward() -> Any:
            answered = await call_next(ctx)
            self.checks.server_stamped(answered)
            return answered

        ok, answer = await self.checks.dispatch(
            self._run_key(ctx),
            call,
            forward,
            protocol_version=getattr(ctx, "protocol_version", None),
            client_info=client_info_of(params.get("_meta"), ctx.session),
        )
        if ok:
            return answer
        import mcp_types

        return mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text=answer)], is_error=True)

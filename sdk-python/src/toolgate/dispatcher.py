"""The validating dispatcher: the twin of the TypeScript SDK's ``Toolgate`` and ``Run`` (``sdk/src/toolgate.ts``).

Each tool call the model wrote is checked against the tool's schema with the same classifier as the
server; an invalid call is answered with the classifier's message instead of running the handler, a
valid one runs with a timeout, and every call becomes one event.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import inspect
import json
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Literal

from ._outcome import is_empty_result
from .calls import NormalizedCall, ToolResultMessage, normalize_calls, tool_result
from .classify import ToolSchemaError, Verdict, classify_call
from .event import MAX_TOOL_SET, ModelRef, ToolgateEvent, Usage
from .reporter import ReporterOptions, ReporterStats, reporter_for
from .tools import HandlerContext, Tool, ToolSet

DEFAULT_TIMEOUT_MS = 30_000


@dataclass
class CallOutcome:
    call: NormalizedCall
    #: None when the call could not be checked (``unchecked`` says why).
    verdict: Verdict | None
    #: invalid, unchecked: the handler did not run; error: it raised or timed out.
    status: Literal["ok", "error", "invalid", "unchecked"]
    #: The text the model reads.
    content: str
    #: The tool result in the shape of the call's provider.
    result: ToolResultMessage
    event: ToolgateEvent
    #: What the handler returned (status ok).
    value: Any = None
    #: Why the call could not be checked: its handler ran only with ``fail_open`` (status ok or error then).
    unchecked: str | None = None


@dataclass
class _Planned:
    call: NormalizedCall
    verdict: Verdict | None
    event: ToolgateEvent
    unchecked: str | None = None
    may_run: bool = False


def check(tools: Sequence[Tool | Callable[..., Any]] | ToolSet, tool: str, arguments: Any) -> Verdict:
    """Checks one call against the tools' schemas without running anything, as the server's ``tools.validate`` does.

    The verdict has ``valid``, ``category``, ``path``, ``message`` and ``violations``: exactly what
    Toolgate would store for this call. For tests and CI::

        verdict = check([getloan], "getloan", '{"loannumber": 42}')
        assert verdict.category == "wrong_type"
    """
    tool_set = tools if isinstance(tools, ToolSet) else ToolSet(tools)
    return classify_call(tool, arguments, tool_set.registry)


class Toolgate:
    """Validates, runs and records a model's tool calls. Without ``url`` and ``api_key`` nothing is sent."""

    def __init__(
        self,
        *,
        tools: Sequence[Tool | Callable[..., Any]],
        model: ModelRef,
        url: str | None = None,
        api_key: str | None = None,
        timeout_ms: int = DEFAULT_TIMEOUT_MS,
        record_results: bool = False,
        on_event: Callable[[ToolgateEvent], None] | None = None,
        reporter: ReporterOptions | Mapping[str, Any] | None = None,
        fail_open: bool = False,
    ) -> None:
        """``fail_open``: run the handler of a call Toolgate cannot check (the tool's schema cannot be used on
        these arguments), recorded unchecked with the reason. Default False: such a call is answered with an
        error that says why and its handler does not run; the turn's other calls are answered as usual."""
        self.tools = ToolSet(tools)
        self.fail_open = fail_open
        self.model = model
        self.timeout_ms = timeout_ms
        self.record_results = record_results
        self.on_event = on_event
        self.reporter = reporter_for(url, api_key, reporter)
        if self.reporter is not None:
            self.reporter.register_tools(self.tools.definitions())

    def run(
        self,
        *,
        run_id: str | None = None,
        model: ModelRef | None = None,
        metadata: Mapping[str, str] | None = None,
        tool_set: Sequence[str] | None = None,
    ) -> Run:
        """One agent run (a conversation, a task): its calls share a run id, count steps and link corrections.

        ``tool_set``: the names of the tools this run gives the model, when not all of them (default: every
        tool of this Toolgate). Sent with the run's first event (``toolSet``): Toolgate counts the run's
        context cost with these definitions.
        """
        return Run(self, run_id=run_id, model=model, metadata=metadata, tool_set=tool_set)

    def check(self, tool: str, arguments: Any) -> Verdict:
        """The verdict on one call, without running it (see :func:`check`)."""
        return classify_call(tool, arguments, self.tools.registry)

    def stats(self) -> ReporterStats | None:
        return self.reporter.stats() if self.reporter else None

    def flush(self, timeout_ms: int | None = None) -> None:
        if self.reporter:
            self.reporter.flush(timeout_ms)

    def shutdown(self, timeout_ms: int = 10_000) -> ReporterStats | None:
        """Sends what is left (for at most ``timeout_ms``) and stops the reporter."""
        return self.reporter.shutdown(timeout_ms) if self.reporter else None

    async def ashutdown(self, timeout_ms: int = 10_000) -> ReporterStats | None:
        return await self.reporter.ashutdown(timeout_ms) if self.reporter else None

    def openai_tools(self) -> list[dict[str, Any]]:
        """The tools in OpenAI Chat Completions' ``tools`` shape."""
        return [{"type": "function", "function": d} for d in self.tools.definitions()]

    def responses_tools(self) -> list[dict[str, Any]]:
        """The tools in OpenAI Responses' ``tools`` shape."""
        return [{"type": "function", **d} for d in self.tools.definitions()]

    def anthropic_tools(self) -> list[dict[str, Any]]:
        """The tools in Anthropic's ``tools`` shape."""
        out = []
        for d in self.tools.definitions():
            item = {k: v for k, v in d.items() if k != "parameters"}
            item["input_schema"] = d["parameters"]
            out.append(item)
        return out


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def _as_written(arguments: Any) -> dict[str, Any] | str:
    """The arguments for the event: the object, or the raw text when the model did not write a JSON object."""
    if isinstance(arguments, str):
        try:
            parsed = _loads(arguments)
        except ValueError:
            return arguments
        return parsed if isinstance(parsed, dict) else arguments
    if isinstance(arguments, dict):
        return arguments
    if arguments is None:
        return ""
    try:
        return json.dumps(arguments, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(arguments)


def _content_of(value: Any) -> str:
    if isinstance(value, str):
        return value
    dump = getattr(value, "model_dump_json", None)
    if callable(dump):
        return str(dump())
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    except (TypeError, ValueError):
        return str(value)


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _usage_of(usage: Mapping[str, Any]) -> Usage:
    """Accepts the wire names (inputTokens) or Python's (input_tokens)."""
    out: Usage = {}
    for wire, python in (("inputTokens", "input_tokens"), ("outputTokens", "output_tokens"), ("costUsd", "cost_usd")):
        value = usage.get(wire, usage.get(python))
        if value is not None:
            out[wire] = value  # type: ignore[literal-required]
    return out


class Run:
    """One agent run. ``await run.handle(calls)`` (or ``run.handle_sync(calls)``) answers a turn's tool calls."""

    def __init__(
        self,
        gate: Toolgate,
        *,
        run_id: str | None,
        model: ModelRef | None,
        metadata: Mapping[str, str] | None,
        tool_set: Sequence[str] | None = None,
    ) -> None:
        self.gate = gate
        self.run_id = run_id or str(uuid.uuid4())
        self.model = model
        self.metadata = dict(metadata) if metadata else None
        #: the tools the run carries, sent once with its first event
        self.tool_set = list(tool_set) if tool_set is not None else list(gate.tools.by_name)
        self._step = 0
        #: The model responses dispatched so far: the calls of one share its turn (docs/events.md, "Parallel calls").
        self._turns = 0
        #: tool name → the last invalid call of it not yet followed by another call of that tool.
        self._uncorrected: dict[str, str] = {}
        #: The previous turn's calls of unknown tools: the next turn's first calls of known tools correct them.
        self._unknown_tools: list[str] = []

    async def handle(self, calls: Any, *, usage: Mapping[str, Any] | None = None, model: ModelRef | None = None) -> list[ToolResultMessage]:
        """Handles a turn's tool calls (concurrently) and answers the tool results, in the calls' order and provider shape."""
        return [outcome.result for outcome in await self.dispatch(calls, usage=usage, model=model)]

    def handle_sync(self, calls: Any, *, usage: Mapping[str, Any] | None = None, model: ModelRef | None = None) -> list[ToolResultMessage]:
        """``handle`` for code without an event loop (or called from inside one: it then runs in a worker thread)."""
        return [outcome.result for outcome in self.dispatch_sync(calls, usage=usage, model=model)]

    def dispatch_sync(self, calls: Any, *, usage: Mapping[str, Any] | None = None, model: ModelRef | None = None) -> list[CallOutcome]:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self.dispatch(calls, usage=usage, model=model))
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, self.dispatch(calls, usage=usage, model=model)).result()

    async def dispatch(self, calls: Any, *, usage: Mapping[str, Any] | None = None, model: ModelRef | None = None) -> list[CallOutcome]:
        """Like ``handle``, with each call's verdict, status, value and event."""
        normalized = normalize_calls(calls)
        chosen = model or self.model or self.gate.model
        earlier = dict(self._uncorrected)
        turn = self._turns
        if normalized:
            self._turns += 1
        planned: list[_Planned] = []
        for index, call in enumerate(normalized):
            verdict, unchecked, may_run = self._check(call)
            event: ToolgateEvent = {
                "id": str(uuid.uuid4()),
                "runId": self.run_id,
                "step": self._step,
                "turn": turn,
                "timestamp": _now(),
                "model": chosen,
                "tool": call.tool,
                "arguments": _as_written(call.arguments),
            }
            self._step += 1
            # an unchecked call carries no verdict: the server checks it itself, or stores it unchecked with the reason
            if verdict is not None:
                event["outcome"] = {"valid": True}
                if not verdict.valid:
                    event["outcome"] = {"valid": False, "message": verdict.message or ""}
                    if verdict.category:
                        event["outcome"]["category"] = verdict.category  # type: ignore[typeddict-item]
            if index == 0 and usage:
                event["usage"] = _usage_of(usage)
            if event["step"] == 0:
                event["toolSet"] = list(self.tool_set)[:MAX_TOOL_SET]
            if self.metadata or unchecked:
                event["metadata"] = {**(self.metadata or {}), **({"unchecked": _truncate(unchecked, 500)} if unchecked else {})}
            corrects = earlier.pop(call.tool, None)
            if corrects is not None:
                event["correctsId"] = corrects
                self._uncorrected.pop(call.tool, None)
            elif self._unknown_tools and call.tool in self.gate.tools.by_name:
                event["correctsId"] = self._unknown_tools.pop(0)
            planned.append(_Planned(call, verdict, event, unchecked, may_run))
        self._unknown_tools = []
        for plan in planned:
            if plan.verdict is None:
                continue
            if plan.verdict.category == "unknown_tool":
                self._unknown_tools.append(plan.event["id"])
            elif not plan.verdict.valid:
                self._uncorrected[plan.call.tool] = plan.event["id"]
        return list(await asyncio.gather(*(self._execute(plan) for plan in planned)))

    def _check(self, call: NormalizedCall) -> tuple[Verdict | None, str | None, bool]:
        """The verdict on one call, or why it cannot be given: whatever goes wrong while checking one call never
        fails the others of its turn. Only a schema that cannot be used (a ToolSchemaError) may run unchecked, with
        ``fail_open``; anything else may come from the arguments, which the model controls: such a call is refused."""
        try:
            return classify_call(call.tool, call.arguments, self.gate.tools.registry), None, False
        except ToolSchemaError as error:
            entry = self.gate.tools.registry.get(call.tool)
            prefix = f"the schema of {call.tool}@{entry.version if entry else ''} "
            problem = str(error)[len(prefix) :] if str(error).startswith(prefix) else str(error)
            return None, f"the tool's schema {problem}", self.gate.fail_open
        except Exception as error:  # one call's check never fails another's
            reason = str(error) or type(error).__name__
            return None, f"checking it failed ({type(error).__name__}: {reason})", False

    async def _execute(self, plan: _Planned) -> CallOutcome:
        call, verdict, event = plan.call, plan.verdict, plan.event
        status: Literal["ok", "error", "invalid", "unchecked"]
        value: Any = None
        if verdict is None and not plan.may_run:
            status = "unchecked"
            content = (
                f"Error: '{call.tool}' was not run: Toolgate cannot check this call, because {plan.unchecked}. "
                "This is a fault in the tool's definition, not a mistake you can correct in the arguments; "
                "the tool's developer must fix its JSON Schema (or set fail_open to run such calls unchecked)."
            )
            event["result"] = {"status": "error", "latencyMs": 0, "summary": _truncate(content, 500)}
        elif verdict is not None and not verdict.valid:
            status, content = "invalid", verdict.message or f"Error: the call to '{call.tool}' does not match its schema."
        else:
            tool = self.gate.tools.by_name[call.tool]
            timeout_ms = tool.timeout_ms if tool.timeout_ms is not None else self.gate.timeout_ms
            started = time.perf_counter()
            ok, value, message, timed_out = await _run_handler(tool, call, self.run_id, timeout_ms)
            latency_ms = max(0, round((time.perf_counter() - started) * 1000))
            if ok:
                status, content = "ok", _content_of(value)
                event["result"] = {"status": "ok", "latencyMs": latency_ms}
                # an empty result carries nothing private: reported whatever record_results says, so that
                # Toolgate can flag it; empty as isomorphic/outcome.ts decides, as the TypeScript dispatcher does
                if self.gate.record_results or is_empty_result(content):
                    event["result"]["summary"] = _truncate(content, 500)
            else:
                status, content = "error", message
                # a timeout is an outcome of its own in Toolgate (docs/events.md), as the TypeScript dispatcher records it
                event["result"] = {
                    "status": "timeout" if timed_out else "error",
                    "latencyMs": latency_ms,
                    "summary": _truncate(message, 500),
                }
        result = tool_result(call, is_error=status != "ok", content=content)
        if self.gate.on_event:
            self.gate.on_event(event)
        if self.gate.reporter:
            self.gate.reporter.record(event)
        return CallOutcome(call, verdict, status, content, result, event, value, plan.unchecked)


def _in_thread(handler: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> asyncio.Future[Any]:
    """Runs a sync handler on a daemon thread of its own: one that outlives its timeout never blocks the loop, asyncio.run or the exit."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()
    context = contextvars.copy_context()

    def settle(error: BaseException | None, value: Any) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def work() -> None:
        try:
            value = context.run(handler, *args, **kwargs)
        except BaseException as error:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits for this answer any more
                loop.call_soon_threadsafe(settle, error, None)
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(settle, None, value)

    threading.Thread(target=work, name=f"toolgate-handler-{getattr(handler, '__name__', 'tool')}", daemon=True).start()
    return future


async def _run_handler(tool: Tool, call: NormalizedCall, run_id: str, timeout_ms: int) -> tuple[bool, Any, str, bool]:
    """The handler's answer (ok, value, message, timed out); an exception or a timeout becomes an error message for the
    model, never a crash."""
    context = HandlerContext(call.call_id, run_id)
    try:
        arguments = _loads(call.arguments) if isinstance(call.arguments, str) else call.arguments
        args: tuple[Any, ...] = ()
        kwargs: dict[str, Any] = {}
        if tool.call_style == "kwargs":
            kwargs = dict(arguments)
        elif tool.call_style == "model":
            args = (tool.model.model_validate(arguments),)
        else:
            args = (arguments,)
        if tool.context_parameter:
            kwargs[tool.context_parameter] = context
        if inspect.iscoroutinefunction(tool.handler):
            work: Any = tool.handler(*args, **kwargs)
        else:
            work = _in_thread(tool.handler, args, kwargs)
        value = await asyncio.wait_for(work, timeout_ms / 1000)
        if inspect.isawaitable(value):
            value = await asyncio.wait_for(value, timeout_ms / 1000)
        return True, value, "", False
    except asyncio.TimeoutError:
        context.cancelled.set()
        return False, None, f"Error: {tool.name} did not answer within {timeout_ms} ms. Try again later, or with a smaller request.", True
    except Exception as error:
        return False, None, f"Error: {tool.name} failed: {error}", False

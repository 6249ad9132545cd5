"""The provider shapes a model's tool calls come in, and the tool results each provider expects back.

The twin of the TypeScript SDK's ``sdk/src/calls.ts``: one call, a list of calls or a whole assistant
turn goes in; each call comes out as a :class:`NormalizedCall` that remembers its provider, so that
its answer can be written in the same shape.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Provider = Literal["openai", "openai-responses", "anthropic", "plain"]

#: A tool result in the shape of its call's provider (a plain dict, ready to append to the messages).
ToolResultMessage = dict[str, Any]


@dataclass(frozen=True)
class NormalizedCall:
    """One call, whatever shape it came in. ``arguments`` is exactly what the model wrote (a string for OpenAI)."""

    provider: Provider
    call_id: str
    tool: str
    arguments: Any


def describe_value(value: Any) -> str:
    """A short description of a value for an error message: its type and the start of its JSON."""
    if value is None:
        return "None"
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    if len(text) > 120:
        text = text[:117] + "..."
    return f"{type(value).__name__} {text}"


def _plain(value: Any) -> Any:
    """Provider SDK objects (the OpenAI and Anthropic clients' Pydantic models) as plain dicts; anything else unchanged."""
    dump = getattr(value, "model_dump", None)
    if callable(dump) and not isinstance(value, type):
        return dump(mode="json", exclude_none=True)
    return value


def _is_call_like(item: Any) -> bool:
    """Blocks of a turn that are not tool calls (text, reasoning, ...) are passed over."""
    return isinstance(item, Mapping) and item.get("type") in (None, "function", "function_call", "tool_use")


def normalize_calls(value: Any) -> list[NormalizedCall]:
    """The tool calls in ``value``: one call, a list of calls, or a whole assistant turn.

    Accepted: OpenAI Chat Completions ``message.tool_calls`` entries (or the message), OpenAI Responses
    ``function_call`` items (or the response / its ``output``), Anthropic ``tool_use`` blocks (or the
    assistant message / its ``content``), and plain ``{"name", "arguments", "id"?}`` dicts; as dicts or
    as the clients' own objects. Raises TypeError on a value holding no recognisable call: a harness
    bug, not a model mistake.
    """
    value = _plain(value)
    if isinstance(value, (list, tuple)):
        items = [_plain(item) for item in value]
        return [_normalize_call(item) for item in items if _is_call_like(item)]
    if isinstance(value, Mapping):
        if isinstance(value.get("tool_calls"), list):
            return normalize_calls(value["tool_calls"])
        if value.get("role") == "assistant" and isinstance(value.get("content"), list):
            return normalize_calls(value["content"])
        if isinstance(value.get("output"), list):
            return normalize_calls(value["output"])
        if value.get("type") == "message" and isinstance(value.get("content"), list):
            return normalize_calls(value["content"])  # an Anthropic Message object
        if value.get("role") == "assistant":
            return []  # an assistant message without calls (text only)
        return [_normalize_call(value)]
    raise TypeError(
        f"Expected a tool call or a list of tool calls, got {describe_value(value)}. Pass OpenAI tool_calls entries, "
        "Responses function_call items, Anthropic tool_use blocks or {'name': ..., 'arguments': ...}."
    )


def _normalize_call(call: Any) -> NormalizedCall:
    if isinstance(call, Mapping):
        function = call.get("function")
        if isinstance(function, Mapping) and isinstance(call.get("id"), str):
            return NormalizedCall("openai", call["id"], str(function.get("name", "")), function.get("arguments"))
        if call.get("type") == "function_call" and isinstance(call.get("call_id"), str):
            return NormalizedCall("openai-responses", call["call_id"], str(call.get("name", "")), call.get("arguments"))
        if call.get("type") == "tool_use" and isinstance(call.get("id"), str):
            return NormalizedCall("anthropic", call["id"], str(call.get("name", "")), call.get("input"))
        if call.get("type") is None and isinstance(call.get("name"), str) and "arguments" in call:
            call_id = call.get("id")
            return NormalizedCall("plain", call_id if isinstance(call_id, str) else "", call["name"], call["arguments"])
    raise TypeError(
        f"Not a tool call: {describe_value(call)}. Pass OpenAI tool_calls entries, Responses function_call items, "
        "Anthropic tool_use blocks or {'name': ..., 'arguments': ...}."
    )


def tool_result(call: NormalizedCall, *, is_error: bool, content: str) -> ToolResultMessage:
    """The tool result the provider expects for ``call``: ``content`` is the text the model reads."""
    if call.provider == "openai":
        return {"role": "tool", "tool_call_id": call.call_id, "content": content}
    if call.provider == "openai-responses":
        return {"type": "function_call_output", "call_id": call.call_id, "output": content}
    if call.provider == "anthropic":
        result: ToolResultMessage = {"type": "tool_result", "tool_use_id": call.call_id, "content": content}
        if is_error:
            result["is_error"] = True
        return result
    return {"id": call.call_id, "name": call.tool, "content": content, "is_error": is_error}

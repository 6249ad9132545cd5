"""The tool loop of the OpenAI and Anthropic clients, through the dispatcher.

Each model turn's tool calls are validated, run and recorded by ``run``; their results go back to
the model in its own shape, until it answers without calling a tool (or ``max_turns`` is reached).
The clients are used as they are (``openai.OpenAI`` / ``AsyncOpenAI``, ``anthropic.Anthropic`` /
``AsyncAnthropic``); this module does not import them::

    completion = openai_tool_loop(OpenAI(), toolgate.run(), model="gpt-5", messages=messages)
"""

from __future__ import annotations

from typing import Any

from .dispatcher import Run

DEFAULT_MAX_TURNS = 10


def _usage(response: Any, names: dict[str, str]) -> dict[str, int]:
    """The turn's token counts, from the client's usage field names to the dispatcher's."""
    usage = getattr(response, "usage", None)
    out: dict[str, int] = {}
    for field, name in names.items():
        value = getattr(usage, field, None)
        if value is not None:
            out[name] = int(value)
    return out


def _openai_usage(response: Any) -> dict[str, int]:
    return _usage(response, {"prompt_tokens": "input_tokens", "completion_tokens": "output_tokens"})


def _anthropic_usage(response: Any) -> dict[str, int]:
    return _usage(response, {"input_tokens": "input_tokens", "output_tokens": "output_tokens"})


def _openai_turn(response: Any, messages: list[Any]) -> Any:
    """The assistant message, appended to ``messages``; None when it calls no tool."""
    message = response.choices[0].message
    messages.append(message.model_dump(mode="json", exclude_none=True))
    return message if message.tool_calls else None


def _anthropic_turn(response: Any, messages: list[Any]) -> Any:
    content = [block.model_dump(mode="json", exclude_none=True) for block in response.content]
    messages.append({"role": "assistant", "content": content})
    return content if any(block.get("type") == "tool_use" for block in content) else None


def openai_tool_loop(client: Any, run: Run, *, messages: list[Any], max_turns: int = DEFAULT_MAX_TURNS, **create: Any) -> Any:
    """``client.chat.completions.create`` until the model stops calling tools; answers its last completion.

    ``messages`` grows with the turns (the assistant messages and the ``role: "tool"`` results).
    ``tools`` defaults to the dispatcher's tools; every other keyword goes to ``create`` as it is.
    """
    create.setdefault("tools", run.gate.openai_tools())
    for _ in range(max_turns):
        response = client.chat.completions.create(messages=messages, **create)
        calls = _openai_turn(response, messages)
        if calls is None:
            return response
        messages.extend(run.handle_sync(calls, usage=_openai_usage(response)))
    return response


async def aopenai_tool_loop(client: Any, run: Run, *, messages: list[Any], max_turns: int = DEFAULT_MAX_TURNS, **create: Any) -> Any:
    """``openai_tool_loop`` with ``AsyncOpenAI``."""
    create.setdefault("tools", run.gate.openai_tools())
    for _ in range(max_turns):
        response = await client.chat.completions.create(messages=messages, **create)
        calls = _openai_turn(response, messages)
        if calls is None:
            return response
        messages.extend(await run.handle(calls, usage=_openai_usage(response)))
    return response


def anthropic_tool_loop(client: Any, run: Run, *, messages: list[Any], max_turns: int = DEFAULT_MAX_TURNS, **create: Any) -> Any:
    """``client.messages.create`` until the model stops calling tools; answers its last message.

    The tool results of a turn go back as one ``user`` message of ``tool_result`` blocks.
    """
    create.setdefault("tools", run.gate.anthropic_tools())
    for _ in range(max_turns):
        response = client.messages.create(messages=messages, **create)
        calls = _anthropic_turn(response, messages)
        if calls is None:
            return response
        messages.append({"role": "user", "content": run.handle_sync(calls, usage=_anthropic_usage(response))})
    return response


async def aanthropic_tool_loop(client: Any, run: Run, *, messages: list[Any], max_turns: int = DEFAULT_MAX_TURNS, **create: Any) -> Any:
    """``anthropic_tool_loop`` with ``AsyncAnthropic``."""
    create.setdefault("tools", run.gate.anthropic_tools())
    for _ in range(max_turns):
        response = await client.messages.create(messages=messages, **create)
        calls = _anthropic_turn(response, messages)
        if calls is None:
            return response
        messages.append({"role": "user", "content": await run.handle(calls, usage=_anthropic_usage(response))})
    return response


__all__ = ["aanthropic_tool_loop", "anthropic_tool_loop", "aopenai_tool_loop", "openai_tool_loop"]

"""One tool request as Toolgate's ``ingest.batch`` takes it (the contract is ``contracts/event.ts``; docs/events.md)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

#: Tool names in one event's ``toolSet`` (the contract's maxItems, contracts/request-limits.ts; tests/test_event_contract.py checks it).
MAX_TOOL_SET = 2000

Category = Literal[
    "malformed_arguments",
    "unknown_tool",
    "extra_argument",
    "missing_argument",
    "wrong_type",
    "invalid_choice",
    "out_of_range",
    "not_allowed",
]


class _ModelName(TypedDict):
    name: str


class ModelRef(_ModelName, total=False):
    """The model whose calls these are: ``{"name": ..., "version": ..., "provider": ...}``."""

    provider: str
    version: str


class Usage(TypedDict, total=False):
    """A model turn's token usage and cost (the wire names)."""

    inputTokens: int
    outputTokens: int
    costUsd: float


class _OutcomeValid(TypedDict):
    valid: bool


class Outcome(_OutcomeValid, total=False):
    """Whether the call was valid, and if not, its category and message (``valid`` is required)."""

    category: Category
    message: str


class _ResultStatus(TypedDict):
    status: Literal["ok", "error", "not_found", "timeout", "not_allowed"]


class Result(_ResultStatus, total=False):
    """What the tool answered (``status`` is required)."""

    summary: str
    latencyMs: int


class _EventRequired(TypedDict):
    id: str
    runId: str
    timestamp: str
    model: ModelRef
    tool: str
    #: The arguments as the model wrote them: an object, or the raw string when they were not a JSON object.
    arguments: dict[str, Any] | str


class ToolgateEvent(_EventRequired, total=False):
    step: int
    #: Which model response of the run wrote the call: the calls of one ``dispatch`` share it.
    turn: int
    outcome: Outcome
    result: Result
    correctsId: str
    usage: Usage
    toolVersion: str
    #: The names of the tools the model call was given (Toolgate counts the run's context cost with them).
    toolSet: list[str]
    metadata: dict[str, str]

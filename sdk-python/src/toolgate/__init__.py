"""Toolgate's Python SDK: validate a model's tool calls before they run, and report every call to Toolgate."""

from .api_key import ApiKeyError
from .calls import NormalizedCall, ToolResultMessage, normalize_calls, tool_result
from .classify import ToolSchemaError, Verdict, Violation
from .dispatcher import CallOutcome, Run, Toolgate, check
from .event import Category, ModelRef, ToolgateEvent, Usage
from .reporter import Reporter, ReporterError, ReporterOptions, ReporterStats, retry_after_seconds
from .tools import HandlerContext, Tool, ToolSet, define_tool, tool

__version__ = "0.1.0"

__all__ = [
    "ApiKeyError",
    "CallOutcome",
    "Category",
    "HandlerContext",
    "ModelRef",
    "NormalizedCall",
    "Reporter",
    "ReporterError",
    "ReporterOptions",
    "ReporterStats",
    "Run",
    "Tool",
    "ToolResultMessage",
    "ToolSchemaError",
    "ToolSet",
    "Toolgate",
    "ToolgateEvent",
    "Usage",
    "Verdict",
    "Violation",
    "check",
    "define_tool",
    "normalize_calls",
    "retry_after_seconds",
    "tool",
    "tool_result",
]

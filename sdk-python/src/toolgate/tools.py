"""Tools defined once: a JSON Schema dict, a Pydantic model, or a typed function the schema is derived from."""

from __future__ import annotations

import inspect
import json
import threading
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Union, overload

from .classify import RegisteredTool, ToolRegistry, registry_from

JsonObject = dict[str, Any]


@dataclass
class HandlerContext:
    """What a handler may ask for besides its arguments (a parameter annotated ``HandlerContext``)."""

    #: The provider's id of this call (tool_call_id, call_id, tool_use id).
    call_id: str
    run_id: str
    #: Set when the call ran past its timeout: a sync handler still running in its thread should stop.
    cancelled: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class Tool:
    """A tool as the dispatcher runs it. Made by :func:`define_tool` or :func:`tool`."""

    name: str
    parameters: JsonObject
    handler: Callable[..., Any]
    description: str | None = None
    timeout_ms: int | None = None
    #: How the handler takes the arguments: one dict, a Pydantic model instance, or keyword arguments.
    call_style: Literal["dict", "model", "kwargs"] = "dict"
    model: Any = None
    #: The name of the handler's HandlerContext parameter, if it has one.
    context_parameter: str | None = None

    def definition(self) -> JsonObject:
        """The tool as ``tools.register`` takes it."""
        out: JsonObject = {"name": self.name}
        if self.description is not None:
            out["description"] = self.description
        out["parameters"] = self.parameters
        return out


def _is_pydantic_model(value: Any) -> bool:
    return (
        isinstance(value, type) and callable(getattr(value, "model_json_schema", None)) and callable(getattr(value, "model_validate", None))
    )


def _context_parameter(handler: Callable[..., Any]) -> str | None:
    try:
        signature = inspect.signature(handler)
        hints = typing.get_type_hints(handler)
    except (TypeError, ValueError, NameError):
        return None
    for name in signature.parameters:
        if hints.get(name) is HandlerContext:
            return name
    return None


def define_tool(
    *,
    name: str,
    parameters: Mapping[str, Any] | type,
    handler: Callable[..., Any],
    description: str | None = None,
    timeout_ms: int | None = None,
) -> Tool:
    """Declares one tool from a JSON Schema dict (draft 2020-12, 2019-09, 07, 06 or 04) or a Pydantic model class.

    With a dict the handler gets the arguments as a dict; with a Pydantic model, the model instance.
    A parameter annotated :class:`HandlerContext` gets the call's context.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"A tool needs a name (a non-empty string), got {name!r}.")
    context = _context_parameter(handler)
    if _is_pydantic_model(parameters):
        schema = dict(typing.cast(Any, parameters).model_json_schema(mode="validation"))
        return Tool(name, _checked(schema, name), handler, description, timeout_ms, "model", parameters, context)
    if isinstance(parameters, Mapping):
        return Tool(name, _checked(dict(parameters), name), handler, description, timeout_ms, "dict", None, context)
    raise TypeError(
        f"Tool '{name}': parameters must be a JSON Schema dict or a Pydantic model class, got {type(parameters).__name__}. "
        "To derive the schema from the handler's signature, use @tool."
    )


def _checked(schema: JsonObject, name: str) -> JsonObject:
    try:
        text = json.dumps(schema, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"Tool '{name}': the schema is not plain JSON ({error}). Use dicts, lists, strings, numbers, booleans and None."
        ) from None
    if schema.get("type", "object") != "object":
        raise TypeError(f"Tool '{name}': the parameters' schema must describe an object (type 'object'), got type {schema.get('type')!r}.")
    parsed: JsonObject = json.loads(text)
    return parsed


@overload
def tool(function: Callable[..., Any], /) -> Tool: ...


@overload
def tool(
    *, name: str | None = None, description: str | None = None, timeout_ms: int | None = None
) -> Callable[[Callable[..., Any]], Tool]: ...


def tool(
    function: Callable[..., Any] | None = None, /, *, name: str | None = None, description: str | None = None, timeout_ms: int | None = None
) -> Tool | Callable[[Callable[..., Any]], Tool]:
    """Makes a tool of a typed function: its parameters become the schema's properties, its docstring the description.

    ``@tool`` or ``@tool(name=..., description=..., timeout_ms=...)``. Parameters without a default are
    required. Types: str, int, float, bool, None, list[...], dict[str, ...], Literal, Optional / unions,
    and (with Pydantic installed) anything Pydantic can describe.
    """

    def make(fn: Callable[..., Any]) -> Tool:
        context = _context_parameter(fn)
        schema = schema_of_function(fn, skip=context)
        doc = inspect.getdoc(fn)
        return Tool(
            name or fn.__name__,
            _checked(schema, name or fn.__name__),
            fn,
            description if description is not None else (doc.split("\n\n")[0] if doc else None),
            timeout_ms,
            "kwargs",
            None,
            context,
        )

    return make(function) if function is not None else make


_PRIMITIVES: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def _schema_of_type(annotation: Any) -> JsonObject | None:
    """A JSON Schema for a plain annotation; None when it needs Pydantic."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return {}
    if annotation in _PRIMITIVES:
        return {"type": _PRIMITIVES[annotation]}
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Literal:
        return {"enum": list(args)}
    if origin in (list, Sequence, tuple) and (origin is not tuple or (len(args) == 2 and args[1] is Ellipsis)):
        item = _schema_of_type(args[0]) if args else {}
        return None if item is None else {"type": "array", "items": item}
    if annotation in (list, dict):
        return {"type": "array"} if annotation is list else {"type": "object"}
    if origin in (dict, Mapping) and (not args or args[0] is str):
        value = _schema_of_type(args[1]) if args else {}
        return None if value is None else {"type": "object", "additionalProperties": value}
    if origin is Union or origin is types.UnionType:
        options = [_schema_of_type(arg) for arg in args]
        if any(option is None for option in options):
            return None
        return {"anyOf": options}
    return None


def schema_of_function(fn: Callable[..., Any], *, skip: str | None = None) -> JsonObject:
    """The JSON Schema of a function's parameters (``additionalProperties: false``)."""
    signature = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn)
    except NameError as error:
        raise TypeError(
            f"Tool '{fn.__name__}': cannot read the parameter types ({error}). Import the types the annotations name."
        ) from None
    properties: JsonObject = {}
    required: list[str] = []
    for parameter in signature.parameters.values():
        if parameter.name == skip:
            continue
        if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD, inspect.Parameter.POSITIONAL_ONLY):
            raise TypeError(
                f"Tool '{fn.__name__}': parameter '{parameter.name}' must be a named parameter (no *args, **kwargs or positional-only)."
            )
        annotation = hints.get(parameter.name, inspect.Parameter.empty)
        described = _schema_of_type(annotation)
        if described is None:
            return _pydantic_schema(fn, _rest(signature, hints, skip))
        properties[parameter.name] = described
        if parameter.default is inspect.Parameter.empty:
            required.append(parameter.name)
    schema: JsonObject = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


def _rest(signature: inspect.Signature, hints: dict[str, Any], skip: str | None) -> dict[str, tuple[Any, Any]]:
    return {
        p.name: (hints.get(p.name, Any), ... if p.default is inspect.Parameter.empty else p.default)
        for p in signature.parameters.values()
        if p.name != skip
    }


def _pydantic_schema(fn: Callable[..., Any], fields: dict[str, tuple[Any, Any]]) -> JsonObject:
    try:
        import pydantic
    except ImportError:
        raise TypeError(
            f"Tool '{fn.__name__}': its parameter types need Pydantic to be described as JSON Schema. "
            "Install it (pip install 'toolgate-monitor[pydantic]'), or pass a JSON Schema with define_tool."
        ) from None
    model = pydantic.create_model(fn.__name__, __config__=pydantic.ConfigDict(extra="forbid"), **typing.cast(Any, fields))
    schema: JsonObject = model.model_json_schema(mode="validation")
    schema.pop("title", None)
    return schema


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces: one text per schema (the local classifier's version key)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class ToolSet:
    """The tools of a dispatcher, by name, as the shared classifier reads them."""

    def __init__(self, tools: Sequence[Tool | Callable[..., Any]]) -> None:
        self.by_name: dict[str, Tool] = {}
        for item in tools:
            defined = item if isinstance(item, Tool) else tool(item)
            if defined.name in self.by_name:
                raise TypeError(f"Tool '{defined.name}' is defined twice: give each tool its own name.")
            self.by_name[defined.name] = defined
        self.registry: ToolRegistry = registry_from(
            [RegisteredTool(t.name, "sdk:" + canonical_json(t.parameters), t.parameters) for t in self.by_name.values()]
        )

    def definitions(self) -> list[JsonObject]:
        """The tools as ``tools.register`` takes them."""
        return [t.definition() for t in self.by_name.values()]

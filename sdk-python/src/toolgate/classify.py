"""The verdict on one tool call: the Python twin of the server's classifier (isomorphic/classify.ts).

`classify_call` answers exactly as the server does for the same schema and arguments: the same
verdict, category, path of the offending argument and message text. The shared test vectors
(test/vectors/classifier.json, generated from the TypeScript classifier) prove it.
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, get_args

from jsonschema_specifications import REGISTRY as SPECIFICATIONS  # type: ignore[import-untyped]  # jsonschema's own dependency, untyped

from .event import Category
from ._classify_eval import VALIDATORS, AjvError, Draft, finding, prepare
from ._classify_js import (
    MAX_SAFE_INTEGER,
    describe_value,
    is_array,
    is_object,
    is_number,
    js_keys,
    js_less,
    js_number,
    js_ordered,
    js_round,
    js_trim,
    levenshtein,
    number_text,
    parse_json,
    preview,
    stringify,
    truncate,
    utf16_key,
    utf16_length,
    is_word_char,
)

__all__ = [
    "CATEGORIES",
    "RegisteredTool",
    "ToolRegistry",
    "ToolSchemaError",
    "Verdict",
    "Violation",
    "classify_call",
    "close_match",
    "likely_tool",
    "rank_tool_names",
    "registry_from",
]

# the categories in rank order (the first one found wins), as the event contract lists them
CATEGORIES: tuple[str, ...] = get_args(Category)


@dataclass(frozen=True)
class Violation:
    category: str
    """Human path of the offending value: `loannumber`, `filters.status`, `items[2].qty`; "" for the whole call."""
    path: str
    message: str
    """The JSON Schema keyword that failed, or `json` (malformed arguments) / `tool` (unknown tool)."""
    keyword: str


@dataclass(frozen=True)
class Verdict:
    valid: bool
    violations: tuple[Violation, ...]
    category: str | None = None
    message: str | None = None
    path: str | None = None


@dataclass(frozen=True)
class RegisteredTool:
    name: str
    version: str
    parameters: Mapping[str, Any]


class ToolSchemaError(Exception):
    """The tool's schema cannot be used (it should have been refused when the tool was registered)."""


class ToolRegistry:
    """The tools a call may name, by name; the version names the schema (a content hash on the server)."""

    def __init__(self, tools: Iterable[RegisteredTool] = ()) -> None:
        self._tools: dict[str, RegisteredTool] = {}
        for tool in tools:
            self._tools[tool.name] = tool

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> RegisteredTool | None:
        return self._tools.get(name)


def registry_from(tools: Iterable[RegisteredTool]) -> ToolRegistry:
    return ToolRegistry(tools)


def classify_call(tool: str, arguments: object, registry: ToolRegistry) -> Verdict:
    """The verdict on one call. Never `not_allowed` (a policy only the harness decides). Raises ToolSchemaError."""
    entry = registry.get(tool)
    violations: list[Violation] = []
    ok, parsed, sent = _parse_arguments(arguments)
    if not ok:
        example = _example_arguments(_stored_key_order(dict(entry.parameters))) if entry else '{"name": "value"}'
        violations.append(
            Violation(
                "malformed_arguments",
                "",
                f"Error: the arguments must be a JSON object, you sent {sent}. Send the arguments as a JSON object such as {example}.",
                "json",
            )
        )
    if entry is None:
        violations.append(_unknown_tool(tool, registry.names))
    if not ok or entry is None:
        return _verdict_of(violations)

    compiled = _compiled_tool(tool, entry.version, entry.parameters)
    errors = [finding(error) for error in compiled.validator.iter_errors(parsed)]
    if not errors:
        return _verdict_of([])
    seen: set[tuple[str, str, str]] = set()
    for error in _explain(compiled, errors):
        violation = _to_violation(error, tool, parsed)
        key = (violation.category, violation.path, violation.message)
        if key not in seen:
            violations.append(violation)
        seen.add(key)
    return _verdict_of(violations)


def _verdict_of(violations: list[Violation]) -> Verdict:
    if not violations:
        return Verdict(valid=True, violations=())
    primary = violations[0]
    for violation in violations[1:]:
        if CATEGORIES.index(violation.category) < CATEGORIES.index(primary.category):
            primary = violation
    return Verdict(
        valid=False,
        violations=tuple(violations),
        category=primary.category,
        message=primary.message,
        path=primary.path or None,
    )


# ---------------------------------------------------------------------------------------------
# Arguments and tool names


def _parse_arguments(arguments: object) -> tuple[bool, dict[str, Any], str]:
    value: Any = arguments
    if isinstance(arguments, str):
        if js_trim(arguments) == "":
            return False, {}, "an empty string"
        try:
            value = parse_json(arguments)
        except (ValueError, RecursionError):
            return False, {}, f"text that is not valid JSON: {truncate(arguments)}"
    elif isinstance(arguments, (dict, list)):
        value = js_ordered(arguments)
    if is_object(value):
        return True, value, ""
    return False, {}, describe_value(value)


def _example_arguments(schema: dict[str, Any]) -> str:
    properties = schema.get("properties")
    properties = properties if is_object(properties) else {}
    required_raw = schema.get("required")
    required = [k for k in required_raw if isinstance(k, str)] if is_array(required_raw) else []
    keys = required[:3] if required else js_keys(properties)[:1]
    return "{" + ", ".join(f"{stringify(k)}: {stringify(_sample_value(properties.get(k)))}" for k in keys) + "}"


def _sample_value(schema: Any) -> Any:
    if not is_object(schema):
        return "..."
    examples = schema.get("examples")
    if is_array(examples) and examples:
        return examples[0]
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    choices = schema.get("enum")
    if is_array(choices) and choices:
        return choices[0]
    raw = schema.get("type")
    kind = (raw[0] if raw else None) if is_array(raw) else raw
    if kind in ("number", "integer"):
        minimum = schema.get("minimum")
        return minimum if is_number(minimum) else 1
    samples: dict[str, Any] = {"boolean": True, "array": [], "object": {}, "null": None}
    return samples[kind] if isinstance(kind, str) and kind in samples else "..."


_SHOWN_TOOLS = 10


def _unknown_tool(tool: str, names: list[str]) -> Violation:
    if not names:
        message = f"Error: no tool named '{truncate(tool)}'. No tools are registered; register the tool's schema before calling it."
        return Violation("unknown_tool", "", message, "tool")
    shown = rank_tool_names(tool, names)[:_SHOWN_TOOLS]
    listed = (
        f"Available tools: {', '.join(shown)}."
        if len(names) <= _SHOWN_TOOLS
        else f"The closest of the {len(names)} tools: {', '.join(shown)} and {len(names) - _SHOWN_TOOLS} more."
    )
    meant = likely_tool(tool, names)
    fix = f" Did you mean '{meant}'?" if meant else " Call one of these instead."
    return Violation("unknown_tool", "", f"Error: no tool named '{truncate(tool)}'. {listed}{fix}", "tool")


_NAME_NOISE = re.compile("[_\\-\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff.]")


def _name_key(name: str) -> str:
    return _NAME_NOISE.sub("", name.lower())


def _embedded_tool(sent: str, names: list[str]) -> str | None:
    best: str | None = None
    for name in names:
        if utf16_length(name) < 2 or utf16_length(name) >= utf16_length(sent) or (best and utf16_length(best) >= utf16_length(name)):
            continue
        at = sent.find(name)
        while at != -1:
            before = sent[at - 1] if at > 0 else None
            end = at + len(name)
            after = sent[end] if end < len(sent) else None
            if (before is None or not is_word_char(before)) and (after is None or not is_word_char(after)):
                best = name
                break
            at = sent.find(name, at + 1)
    return best


def rank_tool_names(sent: str, names: list[str]) -> list[str]:
    """The known names, most likely meant first (as rankToolNames in isomorphic/tool-names.ts)."""
    embedded = _embedded_tool(sent, names)
    key = _name_key(sent)
    ranked = [(-1 if name == embedded else levenshtein(key, _name_key(name)), name) for name in names]
    ranked.sort(key=lambda r: (r[0], utf16_key(r[1])))
    return [name for _, name in ranked]


def likely_tool(sent: str, names: list[str]) -> str | None:
    """The registered tool a written name most likely meant, or None when no guess is clear."""
    embedded = _embedded_tool(sent, names)
    if embedded:
        return embedded
    key = _name_key(sent)
    best: tuple[str, int] | None = None
    for name in names:
        d = levenshtein(key, _name_key(name))
        if best is None or d < best[1] or (d == best[1] and js_less(name, best[0])):
            best = (name, d)
    if best is None:
        return None
    length = utf16_length(key)
    if best[1] <= max(2, length // 3) and best[1] < min(length, utf16_length(_name_key(best[0]))):
        return best[0]
    return None


def close_match(sent: str, candidates: list[str]) -> str | None:
    """A candidate close enough (case aside) to be a misspelling of `sent`."""
    best: tuple[str, int] | None = None
    for candidate in candidates:
        d = levenshtein(sent.lower(), candidate.lower())
        if best is None or d < best[1]:
            best = (candidate, d)
    if best is None:
        return None
    length = utf16_length(sent)
    if best[1] <= max(1, length // 3) and best[1] < min(length, utf16_length(best[0])):
        return best[0]
    return None


# ---------------------------------------------------------------------------------------------
# Compiled tools, cached per name@version


@dataclass
class _CompiledTool:
    validator: Any
    schema: dict[str, Any]
    draft: Draft


_CACHE_LIMIT = 500
_cache: OrderedDict[str, _CompiledTool | ToolSchemaError] = OrderedDict()
_cache_lock = threading.Lock()  # the dispatcher classifies a turn's parallel calls in threads


def _schema_draft(parameters: Mapping[str, Any]) -> Draft | None:
    declared = parameters.get("$schema")
    if declared is None and "$schema" not in parameters:
        return "2020-12"
    if not isinstance(declared, str):
        return None
    if "2020-12" in declared:
        return "2020-12"
    if "2019-09" in declared:
        return "2019-09"
    for draft in ("draft-07", "draft-06", "draft-04"):
        if draft in declared:
            return draft
    return None


def _compiled_tool(name: str, version: str, parameters: Mapping[str, Any]) -> _CompiledTool:
    key = f"{name}@{version}"
    with _cache_lock:
        cached = _cache.pop(key, None)
    if cached is None:
        cached = _compile(key, dict(parameters))
    with _cache_lock:
        _cache[key] = cached  # least recently used first: a hit goes to the end
        while len(_cache) > _CACHE_LIMIT:
            _cache.popitem(last=False)
    if isinstance(cached, ToolSchemaError):
        raise cached
    return cached


def _compile(key: str, parameters: dict[str, Any]) -> _CompiledTool | ToolSchemaError:
    draft = _schema_draft(parameters)
    if draft is None:
        return ToolSchemaError(f"the schema of {key} names an unsupported $schema")
    from ._classify_cost import schema_cost_problem

    problem = schema_cost_problem(parameters)
    if problem:
        return ToolSchemaError(f"the schema of {key} cannot be used: {problem}")
    schema = js_ordered(_stored_key_order(parameters))
    schema.pop("$async", None)
    prepared = prepare(schema, draft)
    validator = VALIDATORS[draft](prepared)
    unresolved = _unresolved_ref(validator, prepared)
    if unresolved is not None:
        return ToolSchemaError(f"the schema of {key} cannot be compiled: can't resolve reference {unresolved}")
    return _CompiledTool(validator=validator, schema=prepared, draft=draft)


_BUNDLED = {str(uri).rstrip("#") for uri in SPECIFICATIONS}


def _unresolved_ref(validator: Any, schema: Any) -> str | None:
    """The first `$ref` that names nothing in the schema, each resolved against the `$id`s around it."""
    stack: list[tuple[Any, Any]] = [(schema, validator._resolver)]
    while stack:
        node, resolver = stack.pop()
        if is_object(node):
            nested_id = node.get("$id")
            try:
                if isinstance(nested_id, str) and node is not schema:
                    resolver = resolver.lookup(nested_id).resolver
                ref = node.get("$ref")
                # jsonschema always reaches the meta-schemas it bundles; the server's Ajv reaches no document but the
                # schema's own: a reference to a meta-schema is a remote one on both sides
                if isinstance(ref, str) and str(resolver.lookup(ref).resolver._base_uri).rstrip("#") in _BUNDLED:
                    return ref
            except Exception:  # noqa: BLE001 - any failure to resolve is a schema that cannot be compiled
                return str(node.get("$ref", nested_id))
            stack.extend((value, resolver) for value in node.values())
        elif is_array(node):
            stack.extend((item, resolver) for item in node)
    return None


def _utf8_key_order(key: str) -> tuple[int, bytes]:
    data = key.encode("utf-8", "surrogatepass")
    return (len(data), data)


def _stored_key_order(value: Any) -> Any:
    """jsonb's order of object keys: shorter (in UTF-8 bytes) first, then byte by byte."""
    if is_array(value):
        return [_stored_key_order(item) for item in value]
    if is_object(value):
        return {key: _stored_key_order(value[key]) for key in sorted(value, key=_utf8_key_order)}
    return value


def _part_errors(tool: _CompiledTool, subschema: Any, data: Any) -> list[AjvError] | None:
    """Findings of `data` against one subschema alone, with the tool's $defs in reach; None when it cannot be checked alone."""
    if _refs_escape(tool, subschema):
        return None
    try:
        return [finding(error) for error in tool.validator.descend(data, subschema)]
    except RecursionError:
        return None


def _refs_escape(tool: _CompiledTool, subschema: Any) -> bool:
    seen: set[int] = set()
    stack = [subschema]
    while stack:
        node = stack.pop()
        if is_array(node):
            stack.extend(node)
            continue
        if not is_object(node) or id(node) in seen:
            continue
        seen.add(id(node))
        if "$dynamicRef" in node:
            return True
        ref = node.get("$ref")
        if isinstance(ref, str):
            if not (ref.startswith("#/$defs/") or ref.startswith("#/definitions/")):
                return True
            stack.append(tool.validator._resolver.lookup(ref).contents)
        stack.extend(node.values())
    return False


# ---------------------------------------------------------------------------------------------
# From Ajv's findings to the problems worth telling the model


def _within(path: tuple[Any, ...], base: tuple[Any, ...]) -> bool:
    return path[: len(base)] == base


def _explain(tool: _CompiledTool, errors: list[AjvError]) -> list[AjvError]:
    kept: list[AjvError] = []
    i = len(errors) - 1
    while i >= 0:
        error = errors[i]
        if error.keyword == "if" or error.property_name:
            i -= 1
            continue
        replaced: tuple[int, list[AjvError]] | None = None
        if error.keyword in ("anyOf", "oneOf"):
            replaced = _explain_union(tool, error)
        elif error.keyword == "contains":
            replaced = _explain_contains(tool, error)
        if replaced is not None:
            children = errors[max(0, i - replaced[0]) : i]
            if len(children) != replaced[0] or not all(_within(e.path, error.path) for e in children):
                replaced = None
        if replaced is not None:
            i -= replaced[0]
        kept[0:0] = replaced[1] if replaced is not None else [error]
        i -= 1
    return kept


def _root_type(error: AjvError) -> bool:
    return error.keyword == "type" and error.path == ()


def _explain_union(tool: _CompiledTool, error: AjvError) -> tuple[int, list[AjvError]] | None:
    branches: list[list[AjvError]] = []
    matched = 0
    for branch in error.schema if is_array(error.schema) else []:
        errors = _part_errors(tool, branch, error.data)
        if errors is None:
            return None
        branches.append(errors)
        if error.keyword == "oneOf" and not errors:
            matched += 1
            if matched > 1:
                break
    children = sum(len(errors) for errors in branches)
    if any(not errors for errors in branches):
        return children, [error]
    if all(len(errors) == 1 and _root_type(errors[0]) for errors in branches):
        types: list[Any] = []
        for errors in branches:
            schema = errors[0].schema
            for kind in schema if is_array(schema) else [schema]:
                if kind not in types:
                    types.append(kind)
        first = branches[0][0]
        merged = AjvError("type", error.path, types, first.parent, first.data, {"type": types}, first.message)
        return children, [merged]

    def score(errors: list[AjvError]) -> float:
        return (1e9 if any(_root_type(e) for e in errors) else 0) + len(errors)

    best = branches[0]
    for errors in branches[1:]:
        if score(errors) < score(best):
            best = errors
    explained = _explain(tool, best)
    return children, [_at(e, error.path + e.path) for e in explained]


def _at(error: AjvError, path: tuple[Any, ...]) -> AjvError:
    return AjvError(error.keyword, path, error.schema, error.parent, error.data, error.params, error.message, error.property_name)


def _explain_contains(tool: _CompiledTool, error: AjvError) -> tuple[int, list[AjvError]] | None:
    limit = error.parent.get("maxContains") if is_object(error.parent) else None
    children = 0
    matched = 0
    for item in error.data if is_array(error.data) else []:
        errors = _part_errors(tool, error.schema, item)
        if errors is None:
            return None
        children += len(errors)
        if not errors and isinstance(limit, (int, float)) and not isinstance(limit, bool):
            matched += 1
            if matched > limit:
                break
    return children, [error]


_OUT_OF_RANGE = [
    *["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
    *["minLength", "maxLength", "pattern", "format"],
    *["minItems", "maxItems", "uniqueItems", "items", "additionalItems", "unevaluatedItems", "contains"],
    *["minProperties", "maxProperties"],
]
_KEYWORD_CATEGORY: dict[str, str] = {
    "required": "missing_argument",
    "dependentRequired": "missing_argument",
    "dependencies": "missing_argument",
    "additionalProperties": "extra_argument",
    "unevaluatedProperties": "extra_argument",
    "propertyNames": "extra_argument",
    "false schema": "extra_argument",
    "type": "wrong_type",
    "enum": "invalid_choice",
    "const": "invalid_choice",
    **{keyword: "out_of_range" for keyword in _OUT_OF_RANGE},
}


def _join_path(base: str, segment: str | int) -> str:
    if isinstance(segment, int):
        return f"{base}[{segment}]"
    if _IDENTIFIER.match(segment):
        return f"{base}.{segment}" if base else segment
    return f"{base}[{stringify(segment)}]"


_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*\Z")


def _human_path(path: tuple[Any, ...]) -> str:
    out = ""
    for segment in path:
        out = _join_path(out, segment)
    return out


def _to_violation(error: AjvError, tool: str, args: dict[str, Any]) -> Violation:
    keyword = error.keyword
    category = _KEYWORD_CATEGORY.get(keyword, "wrong_type")
    at = _human_path(error.path)
    subject = f"'{at}'" if at else "the arguments"
    params = error.params
    parent: dict[str, Any] = error.parent if is_object(error.parent) else {}
    value = error.data

    def violation(message: str, path: str = at) -> Violation:
        return Violation(category, path, message, keyword)

    if keyword in ("required", "dependentRequired", "dependencies"):
        missing = str(params.get("missingProperty"))
        path = _join_path(at, missing)
        prop = params.get("property")
        when = f" when '{_join_path(at, prop)}' is sent" if isinstance(prop, str) else ""
        properties = parent.get("properties")
        hint = _schema_hint(properties.get(missing) if is_object(properties) else None)
        return violation(f"Error: '{path}' is required by {tool}{when} and was not sent. Add '{path}'{f' ({hint})' if hint else ''}.", path)
    if keyword in ("additionalProperties", "unevaluatedProperties", "propertyNames"):
        name = str(params.get("additionalProperty", params.get("unevaluatedProperty", params.get("propertyName"))))
        path = _join_path(at, name)
        where = f" in '{at}'" if at else ""
        if keyword == "propertyNames":
            allowed_names = _schema_hint(error.schema) or "see the schema"
            return violation(f"Error: '{path}' is not an allowed argument name{where} (allowed names: {allowed_names}). Rename or remove '{path}'.", path)
        properties = parent.get("properties")
        allowed = js_keys(properties) if is_object(properties) else []
        close = close_match(name, allowed)
        fix = f"Rename '{path}' to '{_join_path(at, close)}'." if close else f"Remove '{path}'."
        return violation(f"Error: '{path}' is not an argument of {tool}. Allowed{where}: {', '.join(allowed) or 'none'}. {fix}", path)
    if keyword == "false schema":
        return violation(f"Error: '{at}' is not accepted by {tool}. Remove '{at}'." if at else f"Error: {tool} accepts no arguments like these. Check the tool's schema.")
    if keyword == "type":
        expected = [_string(t) for t in (error.schema if is_array(error.schema) else [error.schema])]
        return violation(f"Error: {subject} must be {_type_names(expected)}, you sent {describe_value(value)}. {_type_fix(expected, value)}")
    if keyword == "enum":
        choices = error.schema if is_array(error.schema) else []
        close = close_match(value, [c for c in choices if isinstance(c, str)]) if isinstance(value, str) else None
        guess = f" Did you mean {preview(close)}?" if close else ""
        return violation(f"Error: {subject} must be one of {_choice_list(choices)}; you sent {preview(value)}.{guess}")
    if keyword == "const":
        return violation(f"Error: {subject} must be exactly {preview(error.schema)}; you sent {preview(value)}.")
    if keyword in ("minLength", "maxLength"):
        return violation(f"Error: {subject} must be {_count_range(parent.get('minLength'), parent.get('maxLength'), 'character')}, you sent {len(_string(value))}.")
    if keyword in ("minItems", "maxItems"):
        return violation(f"Error: {subject} must have {_count_range(parent.get('minItems'), parent.get('maxItems'), 'item')}, you sent {_length_of(value)}.")
    if keyword in ("minProperties", "maxProperties"):
        counted = _count_range(parent.get("minProperties"), parent.get("maxProperties"), "property", "properties")
        return violation(f"Error: {subject} must have {counted}, you sent {_length_of(value)}.")
    if keyword in ("items", "additionalItems"):
        return violation(f"Error: {subject} must have {_count_range(None, params.get('limit'), 'item')}, you sent {_length_of(value)}.")
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return violation(f"Error: {subject} must be {_number_range(parent)}, you sent {preview(value)}.")
    if keyword == "multipleOf":
        return violation(f"Error: {subject} must be a multiple of {preview(error.schema)}, you sent {preview(value)}.")
    if keyword == "pattern":
        return violation(f"Error: {subject} must match the pattern {_string(error.schema)}, you sent {preview(value)}.")
    if keyword == "format":
        format_name = _string(error.schema)
        example = _FORMAT_EXAMPLES.get(format_name)
        like = f" Send it like {preview(example)}." if example else ""
        return violation(f"Error: {subject} must be {_article(format_name)} {format_name} (format), you sent {preview(value)}.{like}")
    if keyword == "uniqueItems":
        i, j = sorted((int(params["i"]), int(params["j"])))
        item = value[i] if is_array(value) and i < len(value) else None
        shown = preview(item) if is_array(value) and i < len(value) else "nothing"
        return violation(f"Error: {subject} must not contain duplicates, you sent {shown} as items {i} and {j}. Remove the repeated item.")
    if keyword == "oneOf":
        return violation(f"Error: {subject} matches more than one of the allowed forms (oneOf), you sent {preview(value)}. Send a value that matches exactly one.")
    if keyword == "not":
        return violation(f"Error: {subject} must not match {preview(error.schema)}, you sent {preview(value)}. Send a different value.")
    return violation(f"Error: {subject} {error.message or 'is invalid'}, you sent {preview(value)}. Change it to match the schema of {tool}.")


# ---------------------------------------------------------------------------------------------
# Wording

_FORMAT_EXAMPLES = {
    "date-time": "2026-10-02T09:30:00Z",
    "date": "2026-10-02",
    "time": "09:30:00Z",
    "email": "name@example.com",
    "uri": "https://example.com/page",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "ipv4": "192.0.2.1",
}

TYPE_WORDS = {
    "string": "a string",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "a boolean (true or false)",
    "object": "an object",
    "array": "an array",
    "null": "null",
}


def _string(value: Any) -> str:
    """String(value) in JavaScript."""
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    if is_array(value):
        return ",".join("" if v is None else _string(v) for v in value)
    return "[object Object]"


def _type_names(types: list[str]) -> str:
    return " or ".join(TYPE_WORDS.get(t, t) for t in types)


def _type_fix(expected: list[str], value: Any) -> str:
    if "string" in expected and (is_number(value) or isinstance(value, bool)):
        return f"Send it as {stringify(_string(value))}."
    if isinstance(value, str):
        text = js_trim(value)
        number = js_number(text)
        if text != "" and math.isfinite(number) and ("number" in expected or ("integer" in expected and number.is_integer())):
            return f"Send it as {number_text(number)}."
        if "boolean" in expected and text in ("true", "false"):
            return f"Send it as {text}."
        if "object" in expected or "array" in expected:
            try:
                parsed = parse_json(text)
            except (ValueError, RecursionError):
                parsed = None
            else:
                if ("object" in expected and is_object(parsed)) or ("array" in expected and is_array(parsed)):
                    return "Send the value itself, not a string containing JSON."
    if "integer" in expected and is_number(value):
        return f"Send a whole number such as {number_text(js_round(value))}."
    if "array" in expected and not isinstance(value, (dict, list)):
        return f"Send it as an array, such as [{preview(value)}]."
    return f"Send {_type_names(expected)} instead."


def _choice_list(choices: list[Any]) -> str:
    shown = [c if isinstance(c, str) else stringify(c) for c in choices[:20]]
    return ", ".join(shown) + (f" and {len(choices) - 20} more" if len(choices) > 20 else "")


def _article(word: str) -> str:
    return "an" if word[:1].lower() in ("a", "e", "i", "o") else "a"


def _length_of(value: Any) -> int:
    return len(value) if is_array(value) or is_object(value) else 0


def _count_range(low: Any, high: Any, unit: str, units: str | None = None) -> str:
    plural = units or f"{unit}s"

    def count(n: Any) -> str:
        return f"{number_text(n)} {unit if n == 1 else plural}"

    if is_number(low) and is_number(high):
        return f"exactly {count(low)}" if low == high else f"{number_text(low)} to {count(high)}"
    if is_number(low):
        return f"at least {count(low)}"
    if is_number(high):
        return f"at most {count(high)}"
    return ""


def _number_range(schema: dict[str, Any]) -> str:
    def bound(value: Any) -> Any:
        return value if is_number(value) and abs(value) < MAX_SAFE_INTEGER else None

    # draft-04 writes an exclusive bound as a flag beside minimum/maximum: `"exclusiveMinimum": true`
    low, high = schema.get("exclusiveMinimum") is True, schema.get("exclusiveMaximum") is True
    minimum = None if low else bound(schema.get("minimum"))
    maximum = None if high else bound(schema.get("maximum"))
    exclusive_min = bound(schema.get("minimum") if low else schema.get("exclusiveMinimum"))
    exclusive_max = bound(schema.get("maximum") if high else schema.get("exclusiveMaximum"))
    if minimum is not None and maximum is not None:
        return f"between {number_text(minimum)} and {number_text(maximum)}"
    lower = f"at least {number_text(minimum)}" if minimum is not None else f"greater than {number_text(exclusive_min)}" if exclusive_min is not None else ""
    upper = f"at most {number_text(maximum)}" if maximum is not None else f"less than {number_text(exclusive_max)}" if exclusive_max is not None else ""
    return " and ".join(part for part in (lower, upper) if part)


def _schema_hint(schema: Any) -> str:
    if not is_object(schema):
        return ""
    parts: list[str] = []
    if is_array(schema.get("enum")):
        parts.append(f"one of {_choice_list(schema['enum'])}")
    elif "const" in schema:
        parts.append(f"exactly {preview(schema['const'])}")
    elif "type" in schema:
        raw = schema["type"]
        parts.append(" or ".join(_string(t) for t in (raw if is_array(raw) else [raw])))
    parts.append(_count_range(schema.get("minLength"), schema.get("maxLength"), "character"))
    parts.append(_number_range(schema))
    if isinstance(schema.get("pattern"), str):
        parts.append(f"matching {schema['pattern']}")
    if isinstance(schema.get("format"), str):
        parts.append(f"{schema['format']} format")
    return ", ".join(part for part in parts if part)

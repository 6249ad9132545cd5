"""What one tool schema may cost (as checkSchemaCost in isomorphic/tool-schema.ts): a schema stored
before a limit existed is refused at classification, with registration's own words."""

from __future__ import annotations

import json
from typing import Any

from ._classify_eval import compiled_pattern
from ._classify_js import is_array, is_object, js_keys, preview, utf16_key

LIMIT_BYTES = 64 * 1024
LIMIT_DEPTH = 64
LIMIT_SUBSCHEMAS = 500

_SUBSCHEMA = {"additionalItems", "additionalProperties", "contains", "else", "if", "items", "not", "propertyNames", "then",
              "unevaluatedItems", "unevaluatedProperties"}
_SUBSCHEMA_LIST = {"allOf", "anyOf", "oneOf", "prefixItems", "items"}
_SUBSCHEMA_MAP = {"$defs", "definitions", "dependentSchemas", "dependencies", "patternProperties", "properties"}


def _unstorable(text: str) -> str | None:
    for index, char in enumerate(text):
        code = ord(char)
        if code == 0:
            return f"contains a NUL character (\\u0000) at character {index + 1}, which PostgreSQL cannot store: remove it, or send binary data as base64"
        if 0xD800 <= code <= 0xDFFF:
            return (f"contains a lone UTF-16 surrogate (\\u{code:x}) at character {index + 1}, which is not valid Unicode: "
                    "send well-formed text (a truncated emoji is the usual cause), or binary data as base64")
    return None


def _pointer(keys: list[Any]) -> str:
    escaped = [json.dumps(str(k).replace("~", "~0").replace("/", "~1"), ensure_ascii=False)[1:-1] for k in keys]
    return "#" + "".join(f"/{k}" for k in escaped)


def _pattern_problem(pattern: str, at: str) -> str | None:
    try:
        compiled_pattern(pattern)
        return None
    except Exception as error:  # noqa: BLE001 - RE2 refuses the pattern: say why
        return (
            f"Error: the pattern {preview(pattern)} at {at} cannot be used (RE2 says: {error}). Toolgate matches patterns with RE2, which takes time "
            "linear in the input and therefore has no backreferences (\\1, \\k<name>) and no lookaround ((?=…), (?!…), (?<=…), (?<!…)). "
            "Rewrite the pattern without them, or leave it out and check that rule in the tool itself."
        )


def _canonical(value: Any) -> str:
    if is_array(value):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if is_object(value):
        keys = sorted(value, key=utf16_key)
        return "{" + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{_canonical(value[k])}" for k in keys) + "}"
    from ._classify_js import stringify

    return stringify(value)


def schema_cost_problem(parameters: dict[str, Any]) -> str | None:
    fix = "Fix the schema and register the tool again."
    subschemas = 0
    # (value, keys from the root, role)
    stack: list[tuple[Any, list[Any], str | None]] = [(parameters, [], "schema")]
    value: Any
    while stack:
        value, keys, role = stack.pop()
        if len(keys) > LIMIT_DEPTH:
            return (f"Error: parameters is nested more than {LIMIT_DEPTH} levels deep (objects and arrays) at {_pointer(keys)}. "
                    "Flatten the schema, or define repeated parts once in $defs and refer to them with $ref.")
        key = keys[-1] if keys else None
        key_problem = _unstorable(key) if isinstance(key, str) else None
        value_problem = _unstorable(value) if isinstance(value, str) else None
        if key_problem or value_problem:
            what = f"the key {preview(key)}" if key_problem else f"the string {preview(value)}"
            return f"Error: {what} at {_pointer(keys)} {key_problem or value_problem}. {fix}"
        children: list[tuple[Any, list[Any], str | None]] = []
        if is_object(value):
            for k in js_keys(value):
                child_role: str | None = None
                child = value[k]
                if role in ("list", "map"):
                    child_role = "schema"
                elif role == "schema":
                    if k in _SUBSCHEMA_LIST and is_array(child):
                        child_role = "list"
                    elif k in _SUBSCHEMA_MAP and is_object(child):
                        child_role = "map"
                    elif k in _SUBSCHEMA:
                        child_role = "schema"
                children.append((child, [*keys, k], child_role))
        elif is_array(value):
            children = [(child, [*keys, i], "schema" if role == "list" else None) for i, child in enumerate(value)]
        if role == "schema" and (is_object(value) or isinstance(value, bool)):
            subschemas += 1
            if subschemas > LIMIT_SUBSCHEMAS:
                return (f"Error: parameters holds more than {LIMIT_SUBSCHEMAS} schemas (each property, item, anyOf branch and $defs entry counts; "
                        f"the {LIMIT_SUBSCHEMAS + 1}th is at {_pointer(keys)}). Split the tool into smaller tools, or define repeated parts once in $defs and refer to them with $ref.")
            if is_object(value):
                pattern = value.get("pattern")
                problem = _pattern_problem(pattern, _pointer([*keys, "pattern"])) if isinstance(pattern, str) else None
                patterns = value.get("patternProperties")
                if not problem and is_object(patterns):
                    for name in js_keys(patterns):
                        problem = _pattern_problem(name, _pointer([*keys, "patternProperties", name]))
                        if problem:
                            break
                if problem:
                    return problem
        stack.extend(reversed(children))
    size = len(_canonical(parameters).encode("utf-8", "surrogatepass"))
    if size > LIMIT_BYTES:
        return (f"Error: parameters is {size:,} bytes as JSON; a schema may be at most {LIMIT_BYTES:,} bytes. "
                "Shorten descriptions and examples, split the tool into smaller tools, or define repeated parts once in $defs.")
    return None

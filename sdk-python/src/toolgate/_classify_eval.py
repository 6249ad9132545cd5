"""Evaluation of arguments against a tool's schema by `jsonschema`, reporting what Ajv reports.

The server's classifier explains Ajv's errors (Ajv with allErrors). To give the same explanations,
this module runs `jsonschema`'s validators with the keywords whose findings Ajv words differently
replaced (one finding per extra property, the pair of duplicate items, a union's wrapper after its
branches' findings, RE2 for patterns…), and with each subschema's keywords visited in the order Ajv
visits them, so that the findings come out in the order Ajv reports them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from jsonschema import Draft4Validator, Draft6Validator, Draft7Validator, Draft201909Validator, Draft202012Validator, validators
from jsonschema import _legacy_keywords as jsonschema_legacy
from jsonschema import _utils as jsonschema_utils
from jsonschema.exceptions import ValidationError
from referencing.jsonschema import lookup_recursive_ref

from ._classify_formats import NUMBER_FORMATS, STRING_FORMATS
from ._classify_js import is_array, is_number, is_object, js_keys, utf16_key
from ._classify_re2 import Pattern, compile_re2

# jsonschema's Validator protocol leaves out descend() and the resolver, which the keywords here use
Validator = Any
# jsonschema's deep equality (1 == 1.0, true != 1) and its count of the items a schema evaluates, untyped there
_equal = cast(Callable[[Any, Any], bool], getattr(jsonschema_utils, "equal"))
_evaluated_items = cast(Callable[[Any, list[Any], Any], list[int]], getattr(jsonschema_utils, "find_evaluated_item_indexes_by_schema"))
# 2019-09's count: an array of `items` evaluates only the items it names, `additionalItems` the rest
_evaluated_items_2019 = cast(Callable[[Any, list[Any], Any], list[int]], getattr(jsonschema_legacy, "find_evaluated_item_indexes_by_schema"))

Draft = Literal["2020-12", "2019-09", "draft-07", "draft-06", "draft-04"]
Segment = str | int


@dataclass
class AjvError:
    """One finding, as Ajv reports it: keyword, where in the arguments, the keyword's value and its schema."""

    keyword: str
    path: tuple[Segment, ...]
    schema: Any
    parent: Any
    data: Any
    params: dict[str, Any] = field(default_factory=lambda: dict[str, Any]())
    message: str | None = None
    property_name: bool = False


class _Finding(ValidationError):
    """A jsonschema error carrying Ajv's parameters for the finding."""

    def __init__(self, keyword: str, value: Any, instance: Any, schema: Any, params: dict[str, Any] | None = None,
                 message: str | None = None, property_name: bool = False) -> None:
        super().__init__(message or keyword, validator=keyword, validator_value=value, instance=instance, schema=schema)
        self.params: dict[str, Any] = params or {}
        self.ajv_message = message
        self.property_name = property_name


# ---------------------------------------------------------------------------------------------
# Keyword order: Ajv's rule groups (any type, then number, string, array, object)

_ANY = ["$dynamicRef", "$recursiveRef", "$ref", "const", "enum", "not", "anyOf", "oneOf", "allOf", "if", "then", "else"]
_NUMBER = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"]
_STRING = ["maxLength", "minLength", "pattern", "format"]
_ARRAY = {
    "draft-07": ["maxItems", "minItems", "additionalItems", "items", "contains", "uniqueItems"],
    "draft-06": ["maxItems", "minItems", "additionalItems", "items", "contains", "uniqueItems"],
    "draft-04": ["maxItems", "minItems", "additionalItems", "items", "uniqueItems"],
    "2020-12": ["maxItems", "minItems", "prefixItems", "items", "contains", "uniqueItems", "maxContains", "minContains", "unevaluatedItems"],
    "2019-09": ["maxItems", "minItems", "additionalItems", "items", "contains", "uniqueItems", "maxContains", "minContains", "unevaluatedItems"],
}
_OBJECT = {
    "draft-07": ["maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "dependencies", "properties", "patternProperties"],
    "draft-06": ["maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "dependencies", "properties", "patternProperties"],
    "draft-04": ["maxProperties", "minProperties", "required", "additionalProperties", "dependencies", "properties", "patternProperties"],
    "2020-12": [
        *["maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "dependencies", "properties"],
        *["patternProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties"],
    ],
    "2019-09": [
        *["maxProperties", "minProperties", "required", "propertyNames", "additionalProperties", "dependencies", "properties"],
        *["patternProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties"],
    ],
}
_NUMBER_RULES = [*_NUMBER, "format"]

# The drafts whose `$ref` stands alone (the keywords beside it are ignored), and the keywords each
# lacks that a later draft added, ignored as unknown (the server's OLDER_DRAFTS)
_LATER: dict[Draft, set[str]] = {
    "draft-07": set(),
    "draft-06": {"if", "then", "else"},
    "draft-04": {"if", "then", "else", "const", "contains", "propertyNames"},
}


def _keywords(draft: Draft) -> set[str]:
    other_dynamic = {"2020-12": {"$recursiveRef"}, "2019-09": {"$dynamicRef"}}.get(draft, {"$dynamicRef", "$recursiveRef"})
    return {"type", *_ANY, *_NUMBER, *_STRING, *_ARRAY[draft], *_OBJECT[draft]} - other_dynamic - _LATER.get(draft, set())


_SUBSCHEMA = {"additionalItems", "additionalProperties", "contains", "else", "if", "items", "not", "propertyNames", "then",
              "unevaluatedItems", "unevaluatedProperties"}
_SUBSCHEMA_LIST = {"allOf", "anyOf", "oneOf", "prefixItems", "items"}
_SUBSCHEMA_MAP = {"$defs", "definitions", "dependentSchemas", "dependencies", "patternProperties", "properties"}


def _ordered(schema: dict[str, Any], draft: Draft) -> dict[str, Any]:
    raw_type = schema.get("type")
    types = raw_type if is_array(raw_type) else [] if raw_type is None else [raw_type]
    groups = {"number": _NUMBER_RULES, "string": _STRING, "array": _ARRAY[draft], "object": _OBJECT[draft]}
    deferred = None
    if len(types) == 1 and types[0] in groups and any(k in schema for k in groups[types[0]]):
        deferred = types[0]
    order: list[str] = [] if deferred or not types else ["type"]
    order += _ANY + _NUMBER + (["type"] if deferred == "number" else [])
    order += _STRING + (["type"] if deferred == "string" else [])
    order += _ARRAY[draft] + (["type"] if deferred == "array" else [])
    order += _OBJECT[draft] + (["type"] if deferred == "object" else [])
    out = {key: schema[key] for key in order if key in schema}
    for key, value in schema.items():
        if key not in out and key != "$schema":
            out[key] = value
    return out


def prepare(schema: Any, draft: Draft) -> Any:
    """Every subschema's keywords in Ajv's order, `$schema` left out (the draft is chosen once, here)."""
    if not is_object(schema):
        return schema
    later = _LATER.get(draft)
    if later is not None and any(key in later for key in schema):
        schema = {key: value for key, value in schema.items() if key not in later}
    if later is not None and isinstance(schema.get("$ref"), str):
        # draft-07 and older ignore every keyword beside `$ref` (the server's refAlone): keep it, and
        # the `definitions` it may point into
        definitions = schema.get("definitions")
        schema = {"$ref": schema["$ref"], **({"definitions": definitions} if is_object(definitions) else {})}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _SUBSCHEMA_LIST and is_array(value):
            out[key] = [prepare(item, draft) for item in value]
        elif key in _SUBSCHEMA_MAP and is_object(value):
            out[key] = {name: prepare(child, draft) for name, child in value.items()}
        elif key in _SUBSCHEMA:
            out[key] = prepare(value, draft)
        else:
            out[key] = value
    return _ordered(out, draft)


# ---------------------------------------------------------------------------------------------
# Keywords worded as Ajv words them

_KNOWN: dict[Draft, set[str]] = {draft: _keywords(draft) for draft in ("2020-12", "2019-09", "draft-07", "draft-06", "draft-04")}


def _always_valid(validator: Validator, schema: Any) -> bool:
    if isinstance(schema, bool):
        return schema
    draft = cast(Draft, getattr(validator, "TOOLGATE_DRAFT"))
    return is_object(schema) and not any(key in _KNOWN[draft] for key in schema)


def _descend(validator: Validator, instance: Any, schema: Any, path: Segment | None = None,
             schema_path: Segment | None = None) -> list[ValidationError]:
    errors = list(validator.descend(instance, schema, path=path, schema_path=schema_path))
    if schema is False and path is not None:
        for error in errors:  # jsonschema's descend returns a false schema's error before placing it
            error.path.appendleft(path)
    return errors


def _properties(validator: Validator, properties: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_object(instance) or not is_object(properties):
        return
    for name, subschema in properties.items():
        if name in instance:
            yield from _descend(validator, instance[name], subschema, path=name, schema_path=name)


def _prefix_items(validator: Validator, prefix: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_array(instance) or not is_array(prefix):
        return
    for index, (item, subschema) in enumerate(zip(instance, prefix)):
        yield from _descend(validator, item, subschema, path=index, schema_path=index)


def _is_valid(validator: Validator, instance: Any, schema: Any) -> bool:
    return next(iter(validator.descend(instance, schema)), None) is None


def _search(pattern: str, text: str) -> bool:
    return compiled_pattern(pattern).search(text) is not None


_PATTERNS: dict[str, Pattern] = {}


_HEX = set("0123456789abcdefABCDEF")
# escapes RE2 reads as JavaScript does (\\0-\\7 included), kept as they are
_KEPT_ESCAPES = set("nrtafvdDsSwWbBpPAzQE01234567")


def _braced_hex(pattern: str, start: int) -> bool:
    """Whether pattern[start:] is "{" hex digits "}"."""
    end = pattern.find("}", start)
    return pattern[start : start + 1] == "{" and end > start + 1 and all(c in _HEX for c in pattern[start + 1 : end])


def translate_pattern(pattern: str) -> str:
    """A JavaScript pattern (u flag) in RE2's syntax, as the server's RE2 port translates it."""
    if pattern == "":
        return "(?:)"
    out: list[str] = []
    i, size, in_class = 0, len(pattern), False
    while i < size:
        char = pattern[i]
        if char == "\\" and i + 1 < size:
            nxt = pattern[i + 1]
            if nxt == "\\":
                out.append("\\\\")
            elif nxt == "c":
                letter = pattern[i + 2 : i + 3]
                if letter.isascii() and letter.isalpha():
                    out.append(f"\\x{ord(letter) % 32:02X}")
                    i += 3
                    continue
                out.append("c")
            elif nxt == "u":
                if _braced_hex(pattern, i + 2):
                    out.append("\\x")
                elif i + 5 < size and all(c in _HEX for c in pattern[i + 2 : i + 6]):
                    out.append(f"\\x{{{pattern[i + 2 : i + 6]}}}")
                    i += 6
                    continue
                else:
                    out.append("u")
            elif nxt == "x":
                valid = _braced_hex(pattern, i + 2) or (i + 3 < size and pattern[i + 2] in _HEX and pattern[i + 3] in _HEX)
                out.append("\\x" if valid else "x")
            elif nxt in _KEPT_ESCAPES:
                out.append("\\" + nxt)
            elif nxt.isascii() and nxt.isalnum():
                out.append(nxt)  # an identity escape of a letter or digit: the letter itself
            else:
                out.append("\\" + nxt)
            i += 2
            continue
        if char == "/":
            out.append("\\/")
            i += 1
            continue
        if char == "[":
            if not in_class and pattern[i + 1 : i + 2] == "]":
                out.append("[^\\x00-\\x{10FFFF}]")
                i += 2
                continue
            if not in_class and pattern[i + 1 : i + 3] == "^]":
                out.append("[\\x00-\\x{10FFFF}]")
                i += 3
                continue
            in_class = True
        elif char == "]":
            in_class = False
        elif not in_class and pattern.startswith("(?<", i) and i + 3 < size and pattern[i + 3] not in "=!>)":
            out.append("(?P<")
            i += 3
            continue
        out.append(char)
        i += 1
    return "".join(out)


# ECMAScript's long names of Unicode general categories, and RE2's (short) ones (GENERAL_CATEGORIES in
# isomorphic/tool-schema.ts; the shared vectors' pattern edges hold them)
_GENERAL_CATEGORIES = {
    **{"Letter": "L", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll", "Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo"},
    **{"Mark": "M", "Combining_Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me"},
    **{"Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No"},
    **{"Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe"},
    **{"Initial_Punctuation": "Pi", "Final_Punctuation": "Pf", "Other_Punctuation": "Po"},
    **{"Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So"},
    **{"Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp"},
    **{"Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co", "Unassigned": "Cn"},
}
_ESCAPE = re.compile(r"\\(?:([pP])\{([^}]*)\}|[\s\S])")


def _short_property_names(pattern: str) -> str:
    """`\\p{Letter}`, `\\p{General_Category=Letter}`, `\\p{gc=L}`, `\\p{Script=Greek}`, `\\p{sc=Greek}` as RE2 writes
    them (`\\p{L}`, `\\p{Greek}`); every other escape is left as it is (withShortPropertyNames on the server)."""

    def short(match: re.Match[str]) -> str:
        p, name = match.group(1), match.group(2)
        if p is None or name is None:
            return match.group(0)
        key, value = name.split("=", 1) if "=" in name else (None, name)
        if key in ("Script", "sc"):
            named: str | None = value
        elif key in (None, "General_Category", "gc"):
            named = _GENERAL_CATEGORIES.get(value, value)
        else:
            named = None
        return match.group(0) if named is None else f"\\{p}{{{named}}}"

    return _ESCAPE.sub(short, pattern)


def compiled_pattern(pattern: str) -> Pattern:
    compiled = _PATTERNS.get(pattern)
    if compiled is None:
        compiled = compile_re2(translate_pattern(_short_property_names(pattern)))
        if len(_PATTERNS) > 1000:
            _PATTERNS.clear()
        _PATTERNS[pattern] = compiled
    return compiled


def _pattern(validator: Validator, pattern: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if isinstance(instance, str) and isinstance(pattern, str) and not _search(pattern, instance):
        yield _Finding("pattern", pattern, instance, schema, {"pattern": pattern})


def _multiple_of(validator: Validator, divisor: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """Ajv's rule: the quotient of the two doubles must be an integer that JavaScript writes in plain
    digits (`q === parseInt(q)`), so zero is a multiple of nothing and a quotient of 1e21 or more
    (written 1e+21) of nothing either; jsonschema's exact remainder disagrees with it above 2**53."""
    if not is_number(instance) or not is_number(divisor):
        return
    quotient = float(instance) / float(divisor) if divisor != 0 else math.inf
    if not (math.isfinite(quotient) and abs(quotient) < 1e21 and quotient.is_integer()):
        yield _Finding("multipleOf", divisor, instance, schema, {"multipleOf": divisor})


def _format(validator: Validator, format_name: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if isinstance(instance, str):
        check = STRING_FORMATS.get(format_name)
        if check is not None and not check(instance):
            yield _Finding("format", format_name, instance, schema, {"format": format_name})
    elif isinstance(instance, (int, float)) and not isinstance(instance, bool):
        number_check = NUMBER_FORMATS.get(format_name)
        if number_check is not None and not number_check(instance):
            yield _Finding("format", format_name, instance, schema, {"format": format_name})


def _required(validator: Validator, required: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_object(instance) or not is_array(required):
        return
    for name in required:
        if isinstance(name, str) and name not in instance:
            yield _Finding("required", required, instance, schema, {"missingProperty": name})


def _property_deps(keyword: str, deps: Mapping[str, Any], instance: dict[str, Any], schema: Any) -> Iterator[ValidationError]:
    for name in js_keys(dict(deps)):
        needed = deps[name]
        if name not in instance or not is_array(needed):
            continue
        for missing in needed:
            if missing not in instance:
                yield _Finding(keyword, deps, instance, schema, {"property": name, "missingProperty": missing})


def _dependent_required(validator: Validator, deps: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if is_object(instance) and is_object(deps):
        yield from _property_deps("dependentRequired", deps, instance, schema)


def _dependencies(validator: Validator, deps: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_object(instance) or not is_object(deps):
        return
    # Ajv checks the lists of names first, then the schemas
    yield from _property_deps("dependencies", deps, instance, schema)
    for name in js_keys(deps):
        dependency = deps[name]
        if name in instance and not is_array(dependency):
            yield from _descend(validator, instance, dependency, schema_path=name)


def _matches_pattern_properties(schema: Any, key: str) -> bool:
    patterns = schema.get("patternProperties") if is_object(schema) else None
    return is_object(patterns) and any(_search(p, key) for p in patterns)


def _additional_properties(validator: Validator, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_object(instance) or _always_valid(validator, extra):
        return
    properties = schema.get("properties")
    properties = properties if is_object(properties) else {}
    for key in js_keys(instance):
        if key in properties or _matches_pattern_properties(schema, key):
            continue
        if extra is False:
            yield _Finding("additionalProperties", extra, instance, schema, {"additionalProperty": key})
        else:
            yield from _descend(validator, instance[key], extra, path=key)


def _pattern_properties(validator: Validator, patterns: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_object(instance) or not is_object(patterns):
        return
    for pattern, subschema in patterns.items():
        for key in js_keys(instance):
            if _search(pattern, key):
                yield from _descend(validator, instance[key], subschema, path=key, schema_path=pattern)


def _property_names(validator: Validator, names: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_object(instance) or _always_valid(validator, names):
        return
    for key in js_keys(instance):
        children = _descend(validator, key, names)
        if children:
            for child in children:
                yield _Finding(_keyword_of(child), child.validator_value, child.instance, child.schema, _params_of(child),
                               _message_of(child), property_name=True)
            yield _Finding("propertyNames", names, instance, schema, {"propertyName": key})


def _items_2020(validator: Validator, items: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_array(instance) or _always_valid(validator, items):
        return
    prefix = schema.get("prefixItems")
    if is_array(prefix):
        yield from _additional_items("items", validator, items, instance, schema, len(prefix))
    else:
        for index, item in enumerate(instance):
            yield from _descend(validator, item, items, path=index)


def _additional_items(keyword: str, validator: Validator, extra: Any, instance: list[Any], schema: Any,
                      count: int) -> Iterator[ValidationError]:
    if extra is False:
        if len(instance) > count:
            yield _Finding(keyword, extra, instance, schema, {"limit": count}, f"must NOT have more than {count} items")
    elif is_object(extra) and not _always_valid(validator, extra):
        for index in range(count, len(instance)):
            yield from _descend(validator, instance[index], extra, path=index)


def _items_draft7(validator: Validator, items: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_array(instance):
        return
    if is_array(items):
        for index, (item, subschema) in enumerate(zip(instance, items)):
            yield from _descend(validator, item, subschema, path=index, schema_path=index)
    elif not _always_valid(validator, items):
        for index, item in enumerate(instance):
            yield from _descend(validator, item, items, path=index)


def _additional_items_draft7(validator: Validator, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    items = schema.get("items")
    if is_array(instance) and is_array(items) and not _always_valid(validator, extra):
        yield from _additional_items("additionalItems", validator, extra, instance, schema, len(items))


def _contains(validator: Validator, contains: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_array(instance):
        return
    draft = cast(Draft, getattr(validator, "TOOLGATE_DRAFT"))
    if draft in ("2020-12", "2019-09"):
        low = schema.get("minContains", 1)
        high = schema.get("maxContains")
    else:
        low, high = 1, None
    params: dict[str, Any] = {"minContains": low} if high is None else {"minContains": low, "maxContains": high}
    message = (f"must contain at least {_num(low)} valid item(s)" if high is None
               else f"must contain at least {_num(low)} and no more than {_num(high)} valid item(s)")

    def fail() -> _Finding:
        return _Finding("contains", contains, instance, schema, params, message)

    if high is None and low == 0:
        return
    if high is not None and low > high:
        yield fail()
        return
    if _always_valid(validator, contains):
        if not (len(instance) >= low and (high is None or len(instance) <= high)):
            yield fail()
        return
    children: list[ValidationError] = []
    count = 0
    valid = low == 0
    if low == 0 and not instance:
        return
    for index, item in enumerate(instance):
        errors = _descend(validator, item, contains, path=index)
        children += errors
        if errors:
            continue
        count += 1
        if high is None:
            if count >= low:
                valid = True
                break
        else:
            if count > high:
                valid = False
                break
            if count >= low:
                valid = True
    if not valid:
        yield from children
        yield fail()


def _num(value: Any) -> str:
    from ._classify_js import number_text

    return number_text(value) if isinstance(value, (int, float)) else str(value)


def _unique_items(validator: Validator, unique: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if unique is not True or not is_array(instance) or len(instance) < 2:
        return
    items = schema.get("items")
    raw = items.get("type") if is_object(items) else None
    item_types = raw if is_array(raw) else [] if raw is None else [raw]
    found: tuple[int, int] | None = None
    if item_types and not any(t in ("object", "array") for t in item_types):
        seen: dict[Any, int] = {}
        for i in range(len(instance) - 1, -1, -1):
            item = instance[i]
            if not any(validator.is_type(item, t) for t in item_types if isinstance(t, str)):
                continue
            key = _index_key(item, len(item_types) > 1)
            if key in seen:
                found = (i, seen[key])
                break
            seen[key] = i
    else:
        for i in range(len(instance) - 1, 0, -1):
            for j in range(i - 1, -1, -1):
                if _equal(instance[i], instance[j]):
                    found = (i, j)
                    break
            if found:
                break
    if found:
        yield _Finding("uniqueItems", unique, instance, schema, {"i": found[0], "j": found[1]})


def _index_key(item: Any, several_types: bool) -> str:
    """The property name JavaScript makes of an item used as an object key (with "_" after strings when types mix)."""
    from ._classify_js import stringify

    if isinstance(item, str):
        return item + "_" if several_types else item
    return stringify(item)


def _any_of(validator: Validator, branches: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    children: list[ValidationError] = []
    for index, branch in enumerate(branches):
        errors = _descend(validator, instance, branch, schema_path=index)
        if not errors:
            return
        children += errors
    yield from children
    yield _Finding("anyOf", branches, instance, schema, {}, "must match a schema in anyOf")


def _one_of(validator: Validator, branches: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    children: list[ValidationError] = []
    passing: list[int] = []
    for index, branch in enumerate(branches):
        errors = [] if _always_valid(validator, branch) else _descend(validator, instance, branch, schema_path=index)
        children += errors
        if not errors:
            passing.append(index)
            if len(passing) > 1:
                break
    if len(passing) == 1:
        return
    yield from children
    yield _Finding("oneOf", branches, instance, schema, {"passingSchemas": passing or None},
                   "must match exactly one schema in oneOf")


def _if(validator: Validator, condition: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    has_then, has_else = "then" in schema, "else" in schema
    if not (has_then or has_else):
        return
    clause = "then" if _is_valid(validator, instance, condition) else "else"
    if clause not in schema:
        return
    children = _descend(validator, instance, schema[clause], schema_path=clause)
    if children:
        yield from children
        yield _Finding("if", condition, instance, schema, {"failingKeyword": clause}, f'must match "{clause}" schema')


def _evaluated_keys(validator: Validator, instance: dict[str, Any], schema: Any) -> set[str]:
    """The properties some keyword of the schema looked at (for unevaluatedProperties), as jsonschema counts them, with RE2."""
    if not is_object(schema):
        return set()
    keys: set[str] = set()
    for ref_keyword in ("$ref", "$dynamicRef", "$recursiveRef"):
        ref = schema.get(ref_keyword)
        if isinstance(ref, str):
            # 2019-09's $recursiveRef is resolved through the dynamic scope, as jsonschema evaluates it
            resolved = lookup_recursive_ref(validator._resolver) if ref_keyword == "$recursiveRef" else validator._resolver.lookup(ref)
            inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            keys |= _evaluated_keys(inner, instance, resolved.contents)
    properties = schema.get("properties")
    if is_object(properties):
        keys |= set(properties) & set(instance)
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if keyword in schema:
            keys |= {k for k, v in instance.items() if _is_valid(validator, v, schema[keyword])}
    patterns = schema.get("patternProperties")
    if is_object(patterns):
        keys |= {k for k in instance if any(_search(p, k) for p in patterns)}
    dependent = schema.get("dependentSchemas")
    if is_object(dependent):
        for name, subschema in dependent.items():
            if name in instance:
                keys |= _evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        subschemas: list[Any] = schema[keyword] if is_array(schema.get(keyword)) else []
        for subschema in subschemas:
            # Ajv counts allOf's properties whatever their values (allOf failing fails the schema anyway)
            if keyword == "allOf" or _is_valid(validator, instance, subschema):
                keys |= _evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if _is_valid(validator, instance, schema["if"]):
            keys |= _evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                keys |= _evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            keys |= _evaluated_keys(validator, instance, schema["else"])
    return keys


def _unevaluated_properties(validator: Validator, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_object(instance) or _always_valid(validator, extra):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    for key in js_keys(instance):
        if key in evaluated:
            continue
        if extra is False:
            yield _Finding("unevaluatedProperties", extra, instance, schema, {"unevaluatedProperty": key})
        else:
            yield from _descend(validator, instance[key], extra, path=key)


def _unevaluated_items(validator: Validator, extra: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not is_array(instance) or _always_valid(validator, extra):
        return
    finder = _evaluated_items_2019 if getattr(validator, "TOOLGATE_DRAFT") == "2019-09" else _evaluated_items
    evaluated = set(finder(validator, instance, schema))
    rest = [i for i in range(len(instance)) if i not in evaluated]
    if not rest:
        return
    if extra is False:
        count = rest[0]
        yield _Finding("unevaluatedItems", extra, instance, schema, {"limit": count}, f"must NOT have more than {count} items")
    else:
        for index in rest:
            yield from _descend(validator, instance[index], extra, path=index)


_COMMON = {
    "properties": _properties,
    "multipleOf": _multiple_of,
    "pattern": _pattern,
    "format": _format,
    "required": _required,
    "dependencies": _dependencies,
    "additionalProperties": _additional_properties,
    "patternProperties": _pattern_properties,
    "propertyNames": _property_names,
    "contains": _contains,
    "uniqueItems": _unique_items,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "if": _if,
}


def _validator_class(base: Any, draft: Draft, extra: dict[str, Any]) -> Any:
    keywords = {**base.VALIDATORS, **_COMMON, **extra}
    cls = cast(Any, validators).create(
        meta_schema=base.META_SCHEMA,
        validators=keywords,
        type_checker=base.TYPE_CHECKER,
        format_checker=None,
        id_of=base.ID_OF,
    )
    setattr(cls, "TOOLGATE_DRAFT", draft)
    return cls


VALIDATORS: dict[Draft, Any] = {
    "2020-12": _validator_class(
        Draft202012Validator,
        "2020-12",
        {
            "items": _items_2020,
            "prefixItems": _prefix_items,
            "dependentRequired": _dependent_required,
            "unevaluatedProperties": _unevaluated_properties,
            "unevaluatedItems": _unevaluated_items,
        },
    ),
    "2019-09": _validator_class(
        Draft201909Validator,
        "2019-09",
        {
            "items": _items_draft7,
            "additionalItems": _additional_items_draft7,
            "dependentRequired": _dependent_required,
            "unevaluatedProperties": _unevaluated_properties,
            "unevaluatedItems": _unevaluated_items,
        },
    ),
    "draft-07": _validator_class(Draft7Validator, "draft-07", {"items": _items_draft7, "additionalItems": _additional_items_draft7}),
    "draft-06": _validator_class(Draft6Validator, "draft-06", {"items": _items_draft7, "additionalItems": _additional_items_draft7}),
    "draft-04": _validator_class(Draft4Validator, "draft-04", {"items": _items_draft7, "additionalItems": _additional_items_draft7}),
}


# ---------------------------------------------------------------------------------------------
# From jsonschema's errors to Ajv's findings


def _failed(error: ValidationError) -> object:
    """The keyword that failed; None for a false schema (jsonschema's types leave that case out)."""
    keyword: object = getattr(error, "validator")
    return keyword


def _keyword_of(error: ValidationError) -> str:
    return "false schema" if _failed(error) is None else str(_failed(error))


def _params_of(error: ValidationError) -> dict[str, Any]:
    return error.params if isinstance(error, _Finding) else {}


def _message_of(error: ValidationError) -> str | None:
    return error.ajv_message if isinstance(error, _Finding) else None


def finding(error: ValidationError) -> AjvError:
    return AjvError(
        keyword=_keyword_of(error),
        path=tuple(error.path),
        schema=error.validator_value if _failed(error) is not None else False,
        parent=error.schema,
        data=error.instance,
        params=_params_of(error),
        message=_message_of(error),
        property_name=isinstance(error, _Finding) and error.property_name,
    )


def sort_key(name: str) -> bytes:
    return utf16_key(name)

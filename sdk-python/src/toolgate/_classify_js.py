"""How JavaScript writes values, for messages that must read exactly as the TypeScript classifier's.

The server's classifier (isomorphic/classify.ts) quotes values with JSON.stringify, counts text in
UTF-16 units, orders object keys as JavaScript does and spells numbers as JavaScript does. These
helpers do the same in Python, so that a message here is the same text, character for character.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from decimal import Decimal
from typing import Any, TypeGuard

JsonObject = dict[str, Any]

MAX_SAFE_INTEGER = 2**53 - 1
_ARRAY_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def is_object(value: object) -> TypeGuard[dict[str, Any]]:
    """A JSON object (what JSON text makes of one: str keys)."""
    return isinstance(value, dict)


def is_array(value: object) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


def is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_index_key(key: str) -> bool:
    return _ARRAY_INDEX.match(key) is not None and int(key) < 2**32 - 1


def js_keys(value: dict[str, Any]) -> list[str]:
    """Object.keys order: array-index keys ascending first, then the others as inserted."""
    keys = list(value.keys())
    indexes = sorted((k for k in keys if _is_index_key(k)), key=int)
    if not indexes:
        return keys
    return indexes + [k for k in keys if not _is_index_key(k)]


def js_ordered(value: Any) -> Any:
    """The value with every object's keys in JavaScript's order (iterative: arguments may be deep)."""
    if not isinstance(value, (dict, list)):
        return value
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        node, parent, key = stack.pop()
        if is_object(node):
            out: dict[str, Any] = {}
            parent[key] = out
            for k in js_keys(node):
                out[k] = None
                stack.append((node[k], out, k))
        elif is_array(node):
            items: list[Any] = [None] * len(node)
            parent[key] = items
            for i, item in enumerate(node):
                stack.append((item, items, i))
        else:
            parent[key] = node
    return root[0]


def _parse_int(text: str) -> int | float:
    number = int(text)
    return number if abs(number) <= MAX_SAFE_INTEGER else float(text)


def parse_json(text: str) -> Any:
    """JSON.parse: numbers beyond 2**53 become floats, as JavaScript's are; keys in JavaScript's order."""
    return js_ordered(json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def number_text(value: float | int) -> str:
    """String(number) in JavaScript: 2.0 is "2", 1e21 is "1e+21", 1.5e-7 is "1.5e-7"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) < 10**21:
        return str(value)
    x = float(value)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    digits_tuple = Decimal(repr(abs(x))).normalize().as_tuple()
    digits = "".join(str(d) for d in digits_tuple.digits)
    exponent = int(digits_tuple.exponent)
    k = len(digits)
    n = k + exponent
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{sign}{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"


def _string_json(text: str) -> str:
    out = json.dumps(text, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", out)


def stringify(value: Any) -> str:
    """JSON.stringify(value) without spacing; iterative, raises RecursionError-free ValueError never."""
    parts: list[str] = []
    stack: list[Any] = [("v", value)]
    while stack:
        kind, item = stack.pop()
        if kind == "t":
            parts.append(item)
            continue
        if item is None:
            parts.append("null")
        elif item is True:
            parts.append("true")
        elif item is False:
            parts.append("false")
        elif isinstance(item, str):
            parts.append(_string_json(item))
        elif isinstance(item, (int, float)):
            parts.append("null" if isinstance(item, float) and not math.isfinite(item) else number_text(item))
        elif is_array(item):
            pending: list[Any] = [("t", "[")]
            for i, member in enumerate(item):
                if i:
                    pending.append(("t", ","))
                pending.append(("v", member))
            pending.append(("t", "]"))
            stack.extend(reversed(pending))
        elif is_object(item):
            pending = [("t", "{")]
            for i, key in enumerate(js_keys(item)):
                if i:
                    pending.append(("t", ","))
                pending.append(("t", _string_json(key) + ":"))
                pending.append(("v", item[key]))
            pending.append(("t", "}"))
            stack.extend(reversed(pending))
        else:
            parts.append(_string_json(str(item)))
    return "".join(parts)


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def truncate(text: str, limit: int = 60) -> str:
    """`text`, cut to `limit` UTF-16 units with an ellipsis when longer; never splits a surrogate pair."""
    if utf16_length(text) <= limit:
        return text
    units = text.encode("utf-16-le", "surrogatepass")
    length = limit - 1
    last = int.from_bytes(units[2 * (length - 1) : 2 * length], "little")
    if 0xD800 <= last <= 0xDBFF:
        length -= 1
    return units[: 2 * length].decode("utf-16-le", "surrogatepass") + "…"


def preview(value: Any, limit: int = 60) -> str:
    return truncate(stringify(value), limit)


def describe_value(value: Any, *, missing: bool = False) -> str:
    """A short description of any value, for "you sent …" (as describeValue in tool-schema.ts)."""
    if missing:
        return "nothing"
    if value is None:
        return "null"
    if is_array(value):
        return f"the array {preview(value)}"
    if is_object(value):
        keys = js_keys(value)
        return "an empty object" if not keys else f"an object with keys {truncate(', '.join(keys))}"
    if isinstance(value, str):
        return f"the string {preview(value)}"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    return f"the number {truncate(number_text(value))}"


_JS_NUMBER = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\Z")
_JS_RADIX = re.compile(r"0([xXoObB])([0-9a-fA-F]+)\Z")
_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def js_trim(text: str) -> str:
    return text.strip(_JS_SPACE)


def js_number(text: str) -> float:
    """Number(text) in JavaScript; NaN when it is not a number."""
    text = js_trim(text)
    if text == "":
        return 0.0
    if _JS_NUMBER.match(text):
        return float(text.replace("Infinity", "inf"))
    radix = _JS_RADIX.match(text)
    if radix:
        base = {"x": 16, "o": 8, "b": 2}[radix.group(1).lower()]
        try:
            return float(int(radix.group(2), base))
        except ValueError:
            return math.nan
    return math.nan


def js_round(x: float) -> float:
    return math.floor(x + 0.5)


def levenshtein(a: str, b: str) -> int:
    """Edit distance over UTF-16 units, as fastest-levenshtein counts."""
    x = a.encode("utf-16-le", "surrogatepass")
    y = b.encode("utf-16-le", "surrogatepass")
    s = [x[i : i + 2] for i in range(0, len(x), 2)]
    t = [y[i : i + 2] for i in range(0, len(y), 2)]
    if not s:
        return len(t)
    previous = list(range(len(t) + 1))
    for i, cs in enumerate(s, 1):
        current = [i]
        for j, ct in enumerate(t, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (cs != ct)))
        previous = current
    return previous[-1]


def js_less(a: str, b: str) -> bool:
    """a < b for JavaScript strings (by UTF-16 units)."""
    return a.encode("utf-16-be", "surrogatepass") < b.encode("utf-16-be", "surrogatepass")


def utf16_key(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def is_word_char(char: str) -> bool:
    """/[\\p{L}\\p{N}_-]/u for one character."""
    return char in "_-" or unicodedata.category(char)[0] in "LN"

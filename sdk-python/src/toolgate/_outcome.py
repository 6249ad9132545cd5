"""The empty-result rule of ``isomorphic/outcome.ts`` (``isEmptyResult``), spelled in Python.

A result the handler returned ``ok`` with but that says nothing is reported whatever ``record_results`` says,
so that Toolgate can flag it; which results say nothing is decided once, on the server's side, and the
dispatcher must send exactly the summaries the TypeScript dispatcher sends. tests/test_outcome.py checks this
spelling against the TypeScript table of cases (``isomorphic/empty-result-cases.ts``).
"""

from __future__ import annotations

import json
import re
from typing import Any

# JavaScript's whitespace (``\\s``, ``trim()``): the same characters as BLANK_CHARS in outcome.ts
_BLANK = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_ALL_BLANK = re.compile(f"[{_BLANK}]*")
# ASCII case folding only, as JavaScript's /i does for these words (Python's would also fold the dotless i, U+0131, into i)
_NOTHING_WORD = re.compile(f"[{_BLANK}]*(null|none|nil|<nil>|undefined)[{_BLANK}]*", re.IGNORECASE | re.ASCII)
# text that may be a JSON array, object or string (after JSON's own whitespace): only those can be empty JSON
_JSON_CONTAINER = re.compile(r'[ \t\n\r]*[\[{"]')
_CONTENT_CHAR = re.compile(f"[^{_BLANK}]")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _holds_nothing(value: Any) -> bool:
    """Whether a parsed JSON value holds nothing: null, a blank string, or lists and objects of such values."""
    if value is None:
        return True
    if isinstance(value, str):
        return _CONTENT_CHAR.search(value) is None
    if isinstance(value, list):
        return all(_holds_nothing(item) for item in value)
    if isinstance(value, dict):
        return all(_holds_nothing(item) for item in value.values())
    return False  # numbers and booleans say something (0 results, false)


def is_empty_result(summary: str) -> bool:
    """Whether an ``ok`` result with this summary says nothing: blank; one of the words null, None, nil, <nil>,
    undefined (any case); or JSON with no number, boolean or non-blank string anywhere in it."""
    if _ALL_BLANK.fullmatch(summary) or _NOTHING_WORD.fullmatch(summary):
        return True
    if not _JSON_CONTAINER.match(summary):
        return False
    try:
        return _holds_nothing(json.loads(summary, parse_constant=_reject_constant))
    except (ValueError, RecursionError):  # not JSON (JSONDecodeError is a ValueError), or nested past Python's limit
        return False

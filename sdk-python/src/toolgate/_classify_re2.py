"""RE2 (google-re2), typed: regular expressions matched in time linear in the input."""

from __future__ import annotations

from typing import Any, Protocol, cast

import re2 as _re2  # type: ignore[import-untyped]  # google-re2 ships no type information

re2: Any = _re2


class Pattern(Protocol):
    def search(self, text: str) -> Any: ...

    def fullmatch(self, text: str) -> Any: ...

    def split(self, text: str) -> list[str]: ...


def compile_re2(pattern: str, *, ignore_case: bool = False) -> Pattern:
    """The pattern compiled by RE2, matching by code point; raises re2.error for what RE2 cannot run."""
    options = re2.Options()
    options.case_sensitive = not ignore_case
    return cast(Pattern, re2.compile(pattern, options))

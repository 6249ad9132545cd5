"""The empty-result rule: the Python spelling (toolgate._outcome) against the TypeScript table of cases.

isomorphic/empty-result-cases.ts is the table the TypeScript rule (isomorphic/outcome.ts) and its SQL spelling
are tested on; this test reads the same file, so that a case added there is checked here too.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from toolgate._outcome import is_empty_result

# beside the TypeScript sources in the repository; TOOLGATE_EMPTY_RESULT_CASES names it when the tests run elsewhere
CASES_FILE = Path(
    os.environ.get("TOOLGATE_EMPTY_RESULT_CASES") or Path(__file__).resolve().parents[2] / "isomorphic" / "empty-result-cases.ts"
)
# one case a line: ["summary" or 'summary', true|false, "why"],  (a double-quoted summary is a JSON string literal)
CASE = re.compile(r"""^\s*\[(?P<summary>"(?:[^"\\]|\\.)*"|'[^'\\]*'), (?P<empty>true|false), "(?P<why>[^"]*)"\],$""")


def _cases() -> list[tuple[str, bool, str]]:
    lines = [line for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.lstrip().startswith("[")]
    cases = []
    for line in lines:
        match = CASE.match(line)
        assert match, f"a case this test cannot read: {line}"
        quoted = match["summary"]
        summary = json.loads(quoted) if quoted.startswith('"') else quoted[1:-1]
        cases.append((summary, match["empty"] == "true", match["why"]))
    return cases


CASES = _cases()


def test_the_table_is_read_whole() -> None:
    assert len(CASES) > 30
    assert {empty for _, empty, _ in CASES} == {True, False}


@pytest.mark.parametrize(("summary", "empty", "why"), CASES, ids=[why for _, _, why in CASES])
def test_an_ok_result_with_this_summary_is_empty_as_the_typescript_rule_says(summary: str, empty: bool, why: str) -> None:
    assert is_empty_result(summary) is empty, why


@pytest.mark.parametrize(
    ("summary", "empty", "why"),
    [
        ("n\u0131l", False, "a dotless i (\\u0131): JavaScript's /i folds ASCII only here, so must Python"),
        ("null\n", True, "a trailing line break is blank (and Python's $, unlike JavaScript's, would match before it anyway)"),
        ("null\nx", False, "text after the word"),
        ('{"n": NaN}', False, "NaN is not JSON"),
        ("[" * 100_000 + "]" * 100_000, False, "nested past Python's recursion limit: judged, never raised"),
    ],
)
def test_where_python_and_javascript_could_differ(summary: str, empty: bool, why: str) -> None:
    assert is_empty_result(summary) is empty, why

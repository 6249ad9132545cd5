"""The Python classifier beyond the shared vectors: its API, linear-time matching, JavaScript's spelling of values."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from toolgate._classify_formats import STRING_FORMATS
from toolgate._classify_js import number_text, stringify, truncate
from toolgate.classify import RegisteredTool, ToolSchemaError, Verdict, Violation, classify_call, registry_from


def one(parameters: dict[str, Any], arguments: object, name: str = "t") -> Verdict:
    registry = registry_from([RegisteredTool(name, repr(parameters), parameters)])
    return classify_call(name, arguments, registry)


GETLOAN = {
    "type": "object",
    "properties": {"loannumber": {"type": "string", "pattern": "^[0-9]+$"}},
    "required": ["loannumber"],
    "additionalProperties": False,
}


def test_a_verdict_is_frozen_data_with_the_primary_violation_first_in_category_order() -> None:
    verdict = one(GETLOAN, {"loan_number": 4471})
    assert verdict.valid is False
    assert verdict.category == "extra_argument"
    assert verdict.path == "loan_number"
    assert [v.category for v in verdict.violations] == ["missing_argument", "extra_argument"]
    assert isinstance(verdict.violations, tuple) and all(isinstance(v, Violation) for v in verdict.violations)
    with pytest.raises(dataclasses.FrozenInstanceError):
        verdict.valid = True  # type: ignore[misc]
    assert one(GETLOAN, '{"loannumber": "4471"}') == Verdict(valid=True, violations=())


def test_the_registry_names_its_tools_and_a_later_tool_of_the_same_name_wins() -> None:
    first = RegisteredTool("getloan", "1", GETLOAN)
    second = RegisteredTool("getloan", "2", {"type": "object"})
    registry = registry_from([first, RegisteredTool("listopenloans", "1", {"type": "object"}), second])
    assert registry.names == ["getloan", "listopenloans"]
    assert registry.get("getloan") is second
    assert registry.get("nosuch") is None


def test_a_schema_that_cannot_be_used_raises_tool_schema_error_every_time() -> None:
    for parameters in (
        {"$schema": "http://json-schema.org/draft-03/schema#", "type": "object"},
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}},
        {"type": "object", "properties": {"a": {"type": "string", "pattern": "(a)\\1"}}},
    ):
        for _ in range(2):
            with pytest.raises(ToolSchemaError, match=r"^the schema of t@"):
                one(parameters, {"a": "aa"})


@pytest.mark.parametrize("pattern", ["^(a+)+$", "^(a|aa)+$", "^(a|a?)+$"])
def test_patterns_match_in_linear_time(pattern: str) -> None:
    # Python's re takes longer than the age of the universe on these; RE2 takes microseconds
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}}
    started = time.perf_counter()
    verdict = one(schema, {"code": "a" * 50_000 + "!"})
    assert time.perf_counter() - started < 2
    assert verdict.category == "out_of_range" and verdict.path == "code"
    assert one(schema, {"code": "a" * 50_000}).valid


def test_pattern_properties_and_formats_on_long_inputs_in_linear_time() -> None:
    keyed = {"type": "object", "patternProperties": {"^(x+)+$": {"type": "number"}}}
    started = time.perf_counter()
    assert one(keyed, {"x" * 50_000: "no"}).category == "wrong_type"
    assert one(keyed, {"x" * 50_000 + "!": "no"}).valid
    formats = ["email", "hostname", "uri", "date-time", "ipv6", "duration", "uuid"]
    schema = {"type": "object", "properties": {f: {"type": "string", "format": f} for f in formats}}
    long = {f: "a" * 100_000 + "@" + "a-" * 50_000 + "!" for f in formats}
    assert {v.path for v in one(schema, long).violations} == set(formats)
    assert time.perf_counter() - started < 3


def test_values_are_spelled_as_javascript_spells_them() -> None:
    assert [number_text(x) for x in (2.0, 1e21, 1.5e-7, 0.000001, 123456789012345680000.0, -0.0, 2**53)] == [
        "2",
        "1e+21",
        "1.5e-7",
        "0.000001",
        "123456789012345680000",
        "0",
        "9007199254740992",
    ]
    assert stringify({"b": 1, "10": [True, None, 2.50], "2": "é\n"}) == '{"2":"é\\n","10":[true,null,2.5],"b":1}'
    # UTF-16 units, as JavaScript counts: the emoji is not cut in half
    assert truncate("x" * 58 + "😀😀", 60) == "x" * 58 + "…"


def test_large_integers_read_from_json_text_lose_precision_as_in_javascript() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "string"}}}
    assert one(schema, '{"n": 12345678901234567890}').message == (
        "Error: 'n' must be a string, you sent the number 12345678901234567000. Send it as \"12345678901234567000\"."
    )


def test_threads_classifying_at_once_share_the_cache_safely() -> None:
    from concurrent.futures import ThreadPoolExecutor

    tools = [RegisteredTool(f"t{i}", str(i), {**GETLOAN, "title": f"t{i}"}) for i in range(40)]
    registry = registry_from(tools)
    calls = [(f"t{i % 40}", {"loannumber": 4471} if i % 2 else {"loannumber": "4471"}) for i in range(800)]
    with ThreadPoolExecutor(8) as pool:
        verdicts = list(pool.map(lambda call: classify_call(call[0], call[1], registry), calls))
    assert [v.category for v in verdicts] == [("wrong_type" if i % 2 else None) for i in range(800)]


MIB = 1024 * 1024
# The values the server's format test uses (isomorphic/formats.test.ts): 1 MiB each, built to make a
# backtracking matcher work hard on each kind of format, with a character at the end that fails it.
HARD_VALUES = [
    "http://" + ":" * MIB,
    "a" * MIB + "!",
    "1" * MIB + "!",
    "a:" + "%aa" * (MIB // 3) + "%",
    "http://a/" + "/a" * (MIB // 2) + " ",
    "{" + "a." * (MIB // 2),
    "2020-01-01T12:00:00." + "1" * MIB + "!",
    "P" + "1" * MIB,
    "1:" * (MIB // 2),
    "a@" * (MIB // 2),
    "AAAA\n" * (MIB // 5) + "!",
    "a." * (MIB // 2) + "-",
    "/~" * (MIB // 2) + "~",
    "http://a" + "-a" * (MIB // 2) + "!",
    "http://" + "a " * (MIB // 2),
    "0" + "/" * MIB,
]


@pytest.mark.parametrize("format_name", sorted(STRING_FORMATS))
def test_every_format_is_checked_in_time_linear_in_the_value(format_name: str) -> None:
    # a bound for correctness on a loaded machine, not for speed: a backtracking check of 1 MiB takes hours
    check = STRING_FORMATS[format_name]
    for value in HARD_VALUES:
        started = time.perf_counter()
        check(value)
        assert time.perf_counter() - started < 2, f"{format_name} on {value[:12]!r}…"

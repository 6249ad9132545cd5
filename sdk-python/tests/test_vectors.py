"""The shared classifier vectors: every call, the Python classifier's verdict equals the TypeScript one.

test/vectors/classifier.jsonl is written from the TypeScript classifier (`npm run vectors`); the
TypeScript suite proves it current (test/vectors/classifier-vectors.test.ts), this one proves the
Python twin agrees on every vector: verdict, category, path, message and every violation.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from toolgate.classify import CATEGORIES, RegisteredTool, ToolSchemaError, Verdict, classify_call, registry_from

# beside the TypeScript suite in the repository; TOOLGATE_VECTORS names it when the tests run elsewhere
VECTORS = Path(os.environ.get("TOOLGATE_VECTORS") or Path(__file__).resolve().parents[2] / "test" / "vectors" / "classifier.jsonl")


def _load() -> list[dict[str, Any]]:
    """The vectors, each with its registry's tools (a registry line comes before the vectors naming it)."""
    registries: dict[str, list[dict[str, Any]]] = {}
    vectors: list[dict[str, Any]] = []
    for line in VECTORS.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        if "tools" in entry:
            registries[entry["registry"]] = entry["tools"]
        else:
            vectors.append({**entry, "tools": registries[entry["registry"]]})
    return vectors


ALL = _load()


def _as_expected(verdict: Verdict) -> dict[str, Any]:
    out: dict[str, Any] = {"valid": verdict.valid}
    if verdict.category:
        out["category"] = verdict.category
    if verdict.path:
        out["path"] = verdict.path
    if verdict.message:
        out["message"] = verdict.message
    out["violations"] = [
        {"category": v.category, "path": v.path, "message": v.message, "keyword": v.keyword} for v in verdict.violations
    ]
    return out


def _before_reason(message: str) -> str:
    """A ToolSchemaError's message up to its reason (the reason quotes the validator's own words)."""
    return message.split(": ", 1)[0]


def check(vector: dict[str, Any]) -> str | None:
    """None when the Python classifier agrees with the vector, else what differs."""
    registry = registry_from(RegisteredTool(t["name"], t["version"], t["parameters"]) for t in vector["tools"])
    expected = vector["expected"]
    try:
        verdict = classify_call(vector["tool"], vector["arguments"], registry)
    except ToolSchemaError as error:
        if "throws" in expected and _before_reason(str(error)) == _before_reason(expected["message"]):
            return None
        return f"raised ToolSchemaError({error}), expected {expected}"
    if "throws" in expected:
        return f"expected ToolSchemaError({expected['message']}), got {verdict}"
    got = _as_expected(verdict)
    if got == expected:
        return None
    return f"expected {json.dumps(expected, ensure_ascii=False)}\n     got {json.dumps(got, ensure_ascii=False)}"


def test_the_corpus_is_big_enough_and_covers_every_category() -> None:
    assert len(ALL) >= 2000
    found = {v["expected"].get("category") for v in ALL if "throws" not in v["expected"]}
    assert found == {*CATEGORIES, None} - {"not_allowed"}
    assert {v["draft"] for v in ALL} >= {"2020-12", "2019-09", "draft-07", "draft-06", "draft-04"}


def _groups() -> dict[str, list[dict[str, Any]]]:
    """The vectors by source (`classify.test`, `family/getloan`, `format/date`…): one test each."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for vector in ALL:
        groups.setdefault("/".join(vector["id"].split("/")[:2]), []).append(vector)
    return groups


GROUPS = _groups()


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_every_vector_agrees(group: str) -> None:
    vectors = GROUPS[group]
    problems = [f"{v['id']}: {problem}" for v in vectors if (problem := check(v)) is not None]
    assert not problems, f"{len(vectors) - len(problems)} of {len(vectors)} vectors agree; these do not:\n" + "\n".join(problems)

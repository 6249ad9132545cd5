"""The official JSON Schema Test Suite through the Python classifier, as isomorphic/json-schema-suite.test.ts runs it
through the server's.

The suite is vendored in the repository (test/json-schema-test-suite, its commit in the README there); TOOLGATE_JSON_SCHEMA_SUITE
names its `tests` folder when the tests run elsewhere. A case applies to tool arguments when its instance and its schema
are objects. Left out by design, as on the server: references to other documents (the suite's remotes, and the
meta-schemas, which jsonschema bundles but the server never reaches), since Toolgate resolves `$ref` only within the
schema. A schema the classifier cannot use (ToolSchemaError) agrees only with a case that is invalid.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from toolgate.classify import RegisteredTool, ToolSchemaError, classify_call, registry_from

ROOT = Path(
    os.environ.get("TOOLGATE_JSON_SCHEMA_SUITE") or Path(__file__).resolve().parents[2] / "test" / "json-schema-test-suite" / "tests"
)
DRAFTS = {
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
    "draft7": "http://json-schema.org/draft-07/schema#",
    "draft6": "http://json-schema.org/draft-06/schema#",
    "draft4": "http://json-schema.org/draft-04/schema#",
}
REMOTE = ("refRemote.json", "vocabulary.json")


def _files() -> list[tuple[str, Path]]:
    out: list[tuple[str, Path]] = []
    for draft in DRAFTS:
        folder = ROOT / draft
        out += [(draft, f) for f in sorted(folder.glob("*.json")) if f.name not in REMOTE]
        out += [(draft, f) for f in sorted((folder / "optional" / "format").glob("*.json"))]
    return out


def _verdict(schema: dict[str, Any], version: str, data: Any) -> bool | str | None:
    """The classifier's verdict; a ToolSchemaError's message; None for a reference to another document."""
    try:
        return classify_call("t", data, registry_from([RegisteredTool("t", version, schema)])).valid
    except ToolSchemaError as error:
        return None if "can't resolve reference" in str(error) else str(error)


def test_every_applicable_case_of_the_official_suite_agrees() -> None:
    agreed = 0
    skipped = 0
    disagreed: list[str] = []
    for draft, file in _files():
        for number, group in enumerate(json.loads(file.read_text(encoding="utf-8"))):
            if not isinstance(group["schema"], dict):
                continue
            schema = {"$schema": DRAFTS[draft], **group["schema"]}
            for case in group["tests"]:
                if not isinstance(case["data"], dict):
                    continue
                got = _verdict(schema, f"{draft}/{file.name}/{number}", case["data"])
                if got is None:
                    skipped += 1
                elif got == case["valid"] or (isinstance(got, str) and not case["valid"]):
                    agreed += 1
                else:
                    where = f"{draft}/{file.name}: {group['description']}: {case['description']}"
                    disagreed.append(f"{where}: expected {case['valid']}, got {got}")
    print(f"JSON Schema Test Suite through the Python classifier: {agreed} cases agree, {skipped} left out (other documents)")
    assert disagreed == []
    assert agreed > 1500

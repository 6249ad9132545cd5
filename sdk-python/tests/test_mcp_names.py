"""How an MCP server's tools are named in Toolgate, against the cases the TypeScript gateway is tested on.

test/vectors/mcp-tool-names.json holds the naming rule of ``toolgate mcp`` and ``withToolgate``
(``toolgateName`` in sdk/src/mcp.ts: ``<namespace>/<tool>``, the namespace the option or else the name the
server gives itself); test/vectors/mcp-tool-names.test.ts drives the gateway with them, this test the
McpGate both Python middlewares share, so that a case added there is checked here too.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from toolgate.mcp import SERVER_INFO, McpGate

# beside the TypeScript suite in the repository; TOOLGATE_MCP_NAME_VECTORS names it when the tests run elsewhere
CASES_FILE = Path(
    os.environ.get("TOOLGATE_MCP_NAME_VECTORS") or Path(__file__).resolve().parents[2] / "test" / "vectors" / "mcp-tool-names.json"
)
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))


def test_the_cases_are_read_whole() -> None:
    assert len(CASES) > 15
    assert {case["announced"] for case in CASES} == {"initialize", "meta", "nothing"}


@pytest.mark.parametrize("case", CASES, ids=[case["why"] for case in CASES])
def test_a_tool_is_named_as_the_typescript_gateway_names_it(case: dict[str, Any]) -> None:
    gate = McpGate(model={"name": "m"}, recorder="test", namespace=case.get("namespace"))
    if case["announced"] == "initialize":
        gate.server_initialized(case.get("serverInfo"))
    elif case["announced"] == "meta":
        gate.server_stamped({"tools": [], "_meta": {SERVER_INFO: case["serverInfo"]}})
    assert gate.tool_name(case["tool"]) == case["name"]

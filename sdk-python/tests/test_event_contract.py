"""The SDK's events against the published event contract (contracts/generated/event.schema.json).

The JSON Schema is generated from the server's zod contract (`npm run contracts`, kept current by
scripts/contracts.test.ts): the SDK's own description of an event (toolgate.event) must name the same
fields, and every event the dispatcher makes must be one the server's contract accepts.
"""

from __future__ import annotations

import json
import os
import typing
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from toolgate import Toolgate, ToolgateEvent, define_tool
from toolgate.event import MAX_TOOL_SET, ModelRef, Outcome, Result, Usage
from toolgate.reporter import REGISTER_LIMIT

SCHEMA_FILE = Path(
    os.environ.get("TOOLGATE_EVENT_SCHEMA") or Path(__file__).resolve().parents[2] / "contracts" / "generated" / "event.schema.json"
)
SCHEMA: dict[str, Any] = json.loads(SCHEMA_FILE.read_text())
VALIDATOR = Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)


def fields(typed_dict: Any) -> tuple[set[str], set[str]]:
    return set(typing.get_type_hints(typed_dict)), set(typed_dict.__required_keys__)


def test_the_sdks_event_type_names_the_contracts_fields_and_required_ones() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    for typed_dict, schema in [
        (ToolgateEvent, SCHEMA),
        (ModelRef, SCHEMA["properties"]["model"]),
        (Outcome, SCHEMA["properties"]["outcome"]),
        (Result, SCHEMA["properties"]["result"]),
        (Usage, SCHEMA["properties"]["usage"]),
    ]:
        names, required = fields(typed_dict)
        assert names == set(schema["properties"]), typed_dict.__name__
        assert required == set(schema.get("required", [])), typed_dict.__name__
    assert SCHEMA["properties"]["toolSet"]["maxItems"] == MAX_TOOL_SET
    category = SCHEMA["properties"]["outcome"]["properties"]["category"]["enum"]
    assert list(typing.get_args(typing.get_type_hints(Outcome)["category"])) == category


def test_the_reporter_registers_at_most_what_one_request_of_the_contract_takes() -> None:
    # the generated OpenAPI document beside the event schema: a larger request is refused whole
    openapi = json.loads((SCHEMA_FILE.parent / "openapi.json").read_text())
    register = openapi["paths"]["/api/trpc/tools.register"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert register["properties"]["tools"]["maxItems"] == REGISTER_LIMIT


LOAN = {"type": "object", "properties": {"loannumber": {"type": "string", "pattern": "^[0-9]+$"}}, "required": ["loannumber"]}


def broken(args: dict[str, Any]) -> None:
    raise RuntimeError("database unavailable")


def call(call_id: str, args: str, name: str = "getloan") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def test_every_event_the_dispatcher_makes_is_one_the_contract_accepts() -> None:
    events: list[ToolgateEvent] = []
    toolgate = Toolgate(
        tools=[
            define_tool(name="getloan", parameters=LOAN, handler=lambda args: {"balance": 1200}),
            define_tool(name="broken", parameters={"type": "object"}, handler=broken),
        ],
        model={"name": "acme-large", "version": "2026-11", "provider": "acme"},
        on_event=events.append,
    )
    run = toolgate.run(run_id="contract-run", metadata={"user": "u1"})
    run.handle_sync(
        [call("a", '{"loannumber": "12a"}'), call("b", "{loannumber: 7"), call("c", "{}", name="get_loan")], usage={"input_tokens": 10}
    )
    run.handle_sync([call("d", '{"loannumber": "12"}'), call("e", "{}", name="broken")], usage={"inputTokens": 20, "costUsd": 0.01})
    assert len(events) == 5
    for event in events:
        problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(event)]
        assert problems == [], event
    # the variety this covers: invalid, malformed, unknown tool, a correction, a handler error
    assert {e["outcome"].get("category") for e in events if "outcome" in e} >= {"out_of_range", "malformed_arguments", "unknown_tool"}
    assert any("correctsId" in e for e in events) and any(e.get("result", {}).get("status") == "error" for e in events)


def test_a_run_offered_more_tools_than_a_tool_set_holds_sends_the_first_ones() -> None:
    events: list[ToolgateEvent] = []
    tools = [define_tool(name=f"t{i}", parameters={"type": "object"}, handler=lambda args: "ok") for i in range(MAX_TOOL_SET + 5)]
    run = Toolgate(tools=tools, model={"name": "m"}, on_event=events.append).run(run_id="wide")
    run.handle_sync([call("a", "{}", name="t0")])
    assert events[0]["toolSet"] == [f"t{i}" for i in range(MAX_TOOL_SET)]
    assert VALIDATOR.is_valid(events[0])


def test_the_contract_refuses_what_the_server_refuses() -> None:
    good: dict[str, Any] = {
        "id": "a",
        "runId": "r",
        "timestamp": "2026-12-05T00:00:00Z",
        "model": {"name": "m"},
        "tool": "t",
        "arguments": {},
    }
    assert VALIDATOR.is_valid(good)
    for bad in [{**good, "extra": 1}, {**good, "arguments": [1]}, {**good, "step": -1}, {**good, "metadata": {"n": 1}}]:
        assert not VALIDATOR.is_valid(bad), bad

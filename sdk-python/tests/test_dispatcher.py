"""The dispatcher: provider shapes in and out, the gate, handlers sync and async with a timeout, corrections."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from toolgate import HandlerContext, Toolgate, ToolgateEvent, check, define_tool, normalize_calls, tool

LOAN_SCHEMA = {
    "type": "object",
    "properties": {"loannumber": {"type": "string", "pattern": "^[0-9]+$"}},
    "required": ["loannumber"],
    "additionalProperties": False,
}
ran: list[Any] = []


def getloan_handler(args: dict[str, Any]) -> dict[str, Any]:
    ran.append(args)
    return {"loannumber": args["loannumber"], "balance": 1200}


getloan = define_tool(name="getloan", description="A loan by its number", parameters=LOAN_SCHEMA, handler=getloan_handler)


def gate(*tools: Any, **options: Any) -> tuple[Toolgate, list[ToolgateEvent]]:
    events: list[ToolgateEvent] = []
    return Toolgate(
        tools=list(tools) or [getloan], model={"name": "acme-large", "version": "2026-11"}, on_event=events.append, **options
    ), events


def openai_call(call_id: str, args: str, name: str = "getloan") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": args}}


def test_each_provider_shape_is_answered_in_its_own_shape() -> None:
    toolgate, _ = gate()
    run = toolgate.run()
    assert run.handle_sync(openai_call("c1", '{"loannumber": "1"}')) == [
        {"role": "tool", "tool_call_id": "c1", "content": '{"loannumber":"1","balance":1200}'}
    ]
    responses = {"type": "function_call", "call_id": "r1", "name": "getloan", "arguments": '{"loannumber": "2"}', "id": "fc_1"}
    assert run.handle_sync({"output": [{"type": "reasoning"}, responses]}) == [
        {"type": "function_call_output", "call_id": "r1", "output": '{"loannumber":"2","balance":1200}'}
    ]
    anthropic = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me look."},
            {"type": "tool_use", "id": "t1", "name": "getloan", "input": {"loannumber": 3}},
        ],
    }
    [answer] = run.handle_sync(anthropic)
    assert answer["type"] == "tool_result" and answer["tool_use_id"] == "t1" and answer["is_error"] is True
    assert answer["content"] == toolgate.check("getloan", {"loannumber": 3}).message
    assert run.handle_sync({"name": "getloan", "arguments": {"loannumber": "4"}, "id": "p1"}) == [
        {"id": "p1", "name": "getloan", "content": '{"loannumber":"4","balance":1200}', "is_error": False}
    ]


class Function(BaseModel):
    name: str
    arguments: str


class ToolCall(BaseModel):
    id: str
    type: str = "function"
    function: Function


class Message(BaseModel):
    role: str = "assistant"
    content: str | None = None
    tool_calls: list[ToolCall] | None = None


def test_objects_with_model_dump_are_read_as_their_dicts() -> None:
    """The OpenAI and Anthropic clients answer Pydantic models (their own objects: tests/test_adapters.py)."""
    message = Message(tool_calls=[ToolCall(id="c9", function=Function(name="getloan", arguments='{"loannumber": "9"}'))])
    assert [(c.provider, c.call_id, c.arguments) for c in normalize_calls(message)] == [("openai", "c9", '{"loannumber": "9"}')]
    assert normalize_calls(Message(content="no calls")) == []


def test_an_invalid_call_never_reaches_the_handler_and_its_event_says_why() -> None:
    toolgate, events = gate()
    ran.clear()
    outcomes = toolgate.run(run_id="r").dispatch_sync([openai_call("a", '{"loannumber": 7}'), openai_call("b", "{loannumber: 7")])
    assert ran == []
    assert [o.status for o in outcomes] == ["invalid", "invalid"]
    assert [e["outcome"].get("category") for e in events] == ["wrong_type", "malformed_arguments"]
    # the arguments as the model wrote them: the object, or the raw text that was not JSON
    assert events[0]["arguments"] == {"loannumber": 7} and events[1]["arguments"] == "{loannumber: 7"
    assert "result" not in events[0]


def test_unknown_tools_are_refused_with_the_classifiers_answer() -> None:
    toolgate, events = gate()
    [outcome] = toolgate.run().dispatch_sync(openai_call("a", "{}", name="get_loan"))
    assert outcome.status == "invalid" and events[0]["outcome"]["category"] == "unknown_tool"
    assert outcome.content == check([getloan], "get_loan", "{}").message


def test_parallel_calls_run_concurrently_and_keep_their_ids() -> None:
    async def slow_async(args: dict[str, Any]) -> str:
        await asyncio.sleep(0.3)
        return "async " + str(args["n"])

    def slow_sync(args: dict[str, Any]) -> str:
        time.sleep(0.3)
        return "sync " + str(args["n"])

    schema = {"type": "object", "properties": {"n": {"type": "string"}}, "required": ["n"]}
    toolgate, _ = gate(
        define_tool(name="a", parameters=schema, handler=slow_async), define_tool(name="s", parameters=schema, handler=slow_sync)
    )
    calls = [openai_call(f"id{i}", json.dumps({"n": str(i)}), name="a" if i % 2 else "s") for i in range(6)]
    started = time.monotonic()
    results = toolgate.run().handle_sync(calls)
    assert time.monotonic() - started < 0.9  # six calls of 0.3 s each, at once
    assert [r["tool_call_id"] for r in results] == [f"id{i}" for i in range(6)]
    assert [r["content"] for r in results] == [("async " if i % 2 else "sync ") + str(i) for i in range(6)]


def test_a_handler_past_its_timeout_answers_an_error_is_recorded_as_a_timeout_and_is_told_to_stop() -> None:
    stopped = threading.Event()

    def hangs(args: dict[str, Any], context: HandlerContext) -> str:
        context.cancelled.wait(5)
        stopped.set()
        return "late"

    async def hangs_async(args: dict[str, Any]) -> str:
        await asyncio.sleep(5)
        return "late"

    toolgate, events = gate(
        define_tool(name="hangs", parameters={"type": "object"}, handler=hangs, timeout_ms=100),
        define_tool(name="hangs_async", parameters={"type": "object"}, handler=hangs_async),
        timeout_ms=150,
    )
    started = time.monotonic()
    outcomes = toolgate.run().dispatch_sync([openai_call("h", "{}", name="hangs"), openai_call("ha", "{}", name="hangs_async")])
    assert time.monotonic() - started < 1
    assert [o.content for o in outcomes] == [
        "Error: hangs did not answer within 100 ms. Try again later, or with a smaller request.",
        "Error: hangs_async did not answer within 150 ms. Try again later, or with a smaller request.",
    ]
    assert stopped.wait(1)
    # a timeout, not a tool error: Toolgate counts them apart (docs/events.md), as the TypeScript dispatcher records them
    assert [e["result"]["status"] for e in events] == ["timeout", "timeout"]


def test_a_handler_that_raises_answers_the_model_and_never_raises_into_the_harness() -> None:
    def broken(args: dict[str, Any]) -> None:
        raise RuntimeError("database unavailable")

    toolgate, events = gate(define_tool(name="broken", parameters={"type": "object"}, handler=broken))
    [result] = toolgate.run().handle_sync({"type": "tool_use", "id": "t", "name": "broken", "input": {}})
    assert result == {"type": "tool_result", "tool_use_id": "t", "content": "Error: broken failed: database unavailable", "is_error": True}
    assert events[0]["result"]["summary"] == "Error: broken failed: database unavailable"


def test_a_correction_links_to_the_call_it_corrects_and_usage_goes_on_the_turns_first_call() -> None:
    toolgate, events = gate()
    run = toolgate.run(run_id="loan-run", metadata={"user": "u1"})
    run.handle_sync(
        [openai_call("a", '{"loannumber": "12a"}'), openai_call("b", "{}", name="listopenloans")],
        usage={"input_tokens": 10, "output_tokens": 5},
    )
    run.handle_sync([])  # a response without tool calls is no turn of calls
    run.handle_sync([openai_call("c", '{"loannumber": "12"}')], usage={"inputTokens": 20, "costUsd": 0.01})
    bad, unknown, fixed = events
    assert fixed["correctsId"] == bad["id"] and "correctsId" not in unknown
    assert [e["step"] for e in events] == [0, 1, 2] and {e["runId"] for e in events} == {"loan-run"}
    # the calls of one response share its turn (docs/events.md, "Parallel calls")
    assert [e["turn"] for e in events] == [0, 0, 1]
    assert bad["usage"] == {"inputTokens": 10, "outputTokens": 5} and "usage" not in unknown
    assert fixed["usage"] == {"inputTokens": 20, "costUsd": 0.01}
    assert fixed["metadata"] == {"user": "u1"}


def test_a_known_tool_after_an_unknown_one_corrects_it() -> None:
    toolgate, events = gate()
    run = toolgate.run()
    run.handle_sync(openai_call("a", '{"loannumber": "1"}', name="get_loan"))
    run.handle_sync(openai_call("b", '{"loannumber": "1"}'))
    assert events[1]["correctsId"] == events[0]["id"]


class LoanQuery(BaseModel):
    loannumber: str = Field(pattern="^[0-9]+$", description="The loan's number")
    include: Literal["balance", "rate"] = "balance"


def test_a_pydantic_model_is_the_schema_and_the_handler_gets_the_instance() -> None:
    got: list[LoanQuery] = []

    def handler(query: LoanQuery) -> str:
        got.append(query)
        return query.include

    loan = define_tool(name="getloan", parameters=LoanQuery, handler=handler)
    toolgate, _ = gate(loan)
    assert toolgate.tools.by_name["getloan"].parameters["properties"]["loannumber"]["pattern"] == "^[0-9]+$"
    [ok, bad] = toolgate.run().dispatch_sync(
        [openai_call("a", '{"loannumber": "5", "include": "rate"}'), openai_call("b", '{"include": "due"}')]
    )
    assert ok.content == "rate" and got == [LoanQuery(loannumber="5", include="rate")]
    assert bad.status == "invalid"


def test_a_typed_function_is_a_tool() -> None:
    @tool
    async def listopenloans(customer: str, limit: int = 10, status: Literal["open", "late"] | None = None) -> list[str]:
        """The customer's open loans.

        More detail that is not the description."""
        return [customer] * min(limit, 2)

    assert listopenloans.description == "The customer's open loans."
    assert listopenloans.parameters == {
        "type": "object",
        "properties": {
            "customer": {"type": "string"},
            "limit": {"type": "integer"},
            "status": {"anyOf": [{"enum": ["open", "late"]}, {"type": "null"}]},
        },
        "required": ["customer"],
        "additionalProperties": False,
    }
    toolgate, _ = gate(listopenloans)
    [ok, bad] = toolgate.run().handle_sync(
        [{"name": "listopenloans", "arguments": {"customer": "c"}}, {"name": "listopenloans", "arguments": {"limit": 1}}]
    )
    assert ok["content"] == '["c","c"]' and bad["is_error"] is True


def test_a_function_whose_types_need_pydantic_gets_its_schema_from_pydantic() -> None:
    @tool(name="find")
    def find(query: LoanQuery, context: HandlerContext) -> str:
        return context.call_id

    assert find.parameters["properties"]["query"] == {"$ref": "#/$defs/LoanQuery"}
    assert find.context_parameter == "context"


def test_tools_in_each_providers_request_shape() -> None:
    toolgate, _ = gate()
    definition = {"name": "getloan", "description": "A loan by its number", "parameters": LOAN_SCHEMA}
    assert toolgate.openai_tools() == [{"type": "function", "function": definition}]
    assert toolgate.responses_tools() == [{"type": "function", **definition}]
    assert toolgate.anthropic_tools() == [{"name": "getloan", "description": "A loan by its number", "input_schema": LOAN_SCHEMA}]


def test_bad_tool_definitions_say_what_is_wrong() -> None:
    with pytest.raises(TypeError, match="defined twice"):
        Toolgate(tools=[getloan, getloan], model={"name": "m"})
    with pytest.raises(TypeError, match="must describe an object"):
        define_tool(name="x", parameters={"type": "string"}, handler=print)
    with pytest.raises(TypeError, match="Expected a tool call"):
        normalize_calls(42)
    with pytest.raises(TypeError, match="Not a tool call"):
        normalize_calls({"foo": 1})


def test_handle_works_inside_a_running_event_loop() -> None:
    async def agent() -> None:
        toolgate, _ = gate()
        run = toolgate.run()
        assert (await run.handle(openai_call("a", '{"loannumber": "1"}')))[0]["tool_call_id"] == "a"
        assert run.handle_sync(openai_call("b", '{"loannumber": "1"}'))[0]["tool_call_id"] == "b"

    asyncio.run(agent())


#: A schema ``define_tool`` accepts but Toolgate cannot use: a ``$ref`` to a definition that is not there.
UNRESOLVABLE = {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}
#: A schema whose check of deep enough arguments recurses past Python's limit.
RECURSIVE = {"type": "object", "properties": {"x": {"$ref": "#"}}}


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"x": value}
    return value


def _uncheckable_gate(**options: Any) -> tuple[Toolgate, list[ToolgateEvent], list[str]]:
    ran_here: list[str] = []

    def handler(name: str) -> Any:
        def run(args: dict[str, Any]) -> str:
            ran_here.append(f"{name} {args['loannumber']}" if name == "getloan" else name)
            return "loan" if name == "getloan" else "ran"

        return run

    toolgate, events = gate(
        define_tool(name="broken", parameters=UNRESOLVABLE, handler=handler("broken")),
        define_tool(name="deep", parameters=RECURSIVE, handler=handler("deep")),
        define_tool(name="getloan", parameters=LOAN_SCHEMA, handler=handler("getloan")),
        **options,
    )
    return toolgate, events, ran_here


def _uncheckable_turn() -> list[dict[str, Any]]:
    def call(call_id: str, name: str, args: Any) -> dict[str, Any]:
        return {"type": "tool_use", "id": call_id, "name": name, "input": args}

    return [
        call("1", "getloan", {"loannumber": "1"}),
        call("2", "broken", {"a": 1}),
        call("3", "deep", _nested(3000)),
        call("4", "getloan", {"loannumber": 4}),
        call("5", "deep", _nested(2)),
    ]


def test_a_call_toolgate_cannot_check_is_answered_with_why_never_run_and_recorded_unchecked() -> None:
    toolgate, events, ran_here = _uncheckable_gate()
    outcomes = toolgate.run().dispatch_sync(_uncheckable_turn())
    assert [o.status for o in outcomes] == ["ok", "unchecked", "unchecked", "invalid", "ok"]
    assert sorted(ran_here) == ["deep", "getloan 1"]
    broken, deep = outcomes[1], outcomes[2]
    assert broken.verdict is None and deep.verdict is None
    assert broken.unchecked == "the tool's schema cannot be compiled: can't resolve reference #/$defs/missing"
    assert deep.unchecked and "recursion" in deep.unchecked
    assert broken.content.startswith(
        "Error: 'broken' was not run: Toolgate cannot check this call, because the tool's schema cannot be compiled"
    )
    assert "the tool's developer must fix its JSON Schema" in broken.content
    assert broken.result == {"type": "tool_result", "tool_use_id": "2", "content": broken.content, "is_error": True}
    event = next(e for e in events if e["tool"] == "broken")
    assert "outcome" not in event
    assert event["metadata"] == {"unchecked": broken.unchecked}
    assert event["result"] == {"status": "error", "latencyMs": 0, "summary": broken.content}
    assert outcomes[3].verdict is not None and outcomes[3].verdict.category == "wrong_type"


def test_with_fail_open_a_call_whose_schema_cannot_be_used_runs_and_is_recorded_unchecked() -> None:
    toolgate, events, ran_here = _uncheckable_gate(fail_open=True)
    outcomes = toolgate.run(metadata={"team": "loans"}).dispatch_sync(_uncheckable_turn()[:2])
    assert [o.status for o in outcomes] == ["ok", "ok"]
    assert sorted(ran_here) == ["broken", "getloan 1"]
    assert outcomes[1].verdict is None and outcomes[1].content == "ran"
    assert outcomes[1].unchecked == "the tool's schema cannot be compiled: can't resolve reference #/$defs/missing"
    event = next(e for e in events if e["tool"] == "broken")
    assert "outcome" not in event
    assert event["metadata"] == {"team": "loans", "unchecked": outcomes[1].unchecked}
    assert event["result"]["status"] == "ok"
    assert next(e for e in events if e["tool"] == "getloan")["metadata"] == {"team": "loans"}


def test_an_empty_result_is_reported_even_without_record_results_so_that_toolgate_can_flag_it() -> None:
    # empty as Toolgate's rule (isomorphic/outcome.ts) says, which the TypeScript dispatcher applies too
    answers: dict[str, Any] = {"0": None, "1": [], "2": "  ", "3": {"balance": 1}, "4": {"results": []}, "5": "None", "6": {"count": 0}}
    toolgate, events = gate(
        define_tool(name="getloan", parameters=LOAN_SCHEMA, handler=lambda args: answers[args["loannumber"]]),
    )
    toolgate.run().handle_sync([openai_call(f"c{n}", json.dumps({"loannumber": n})) for n in answers])
    summaries = {e["arguments"]["loannumber"]: e["result"].get("summary") for e in events}  # type: ignore[index]
    assert summaries == {"0": "null", "1": "[]", "2": "  ", "3": None, "4": '{"results":[]}', "5": "None", "6": None}


def test_the_runs_first_event_names_the_tools_it_carries_or_the_runs_own_tool_set() -> None:
    other = define_tool(name="searchpayments", description="Payments of a loan", parameters=LOAN_SCHEMA, handler=getloan_handler)
    toolgate, events = gate(getloan, other)
    run = toolgate.run()
    run.handle_sync([openai_call("c1", '{"loannumber": "1"}'), openai_call("c2", '{"loannumber": "2"}')])
    run.handle_sync(openai_call("c3", '{"loannumber": "3"}'))
    assert [e.get("toolSet") for e in sorted(events, key=lambda e: e["step"])] == [["getloan", "searchpayments"], None, None]
    subset, subset_events = gate(getloan, other)
    subset.run(tool_set=["getloan"]).handle_sync(openai_call("c4", '{"loannumber": "4"}'))
    assert [e.get("toolSet") for e in subset_events] == [["getloan"]]

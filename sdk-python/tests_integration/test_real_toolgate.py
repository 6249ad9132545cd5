"""The SDK against the real Toolgate over HTTP (driven by sdk-python/python.exhaustive.test.ts)."""

from __future__ import annotations

import time
from typing import Any

from conftest import Forwarder

from toolgate import ReporterError, Toolgate, define_tool

LOAN = define_tool(
    name="getloan",
    description="A loan by its number",
    parameters={
        "type": "object",
        "properties": {"loannumber": {"type": "string", "pattern": "^[0-9]+$"}},
        "required": ["loannumber"],
        "additionalProperties": False,
    },
    handler=lambda args: {"loannumber": args["loannumber"], "balance": 1200},
)
MODEL = {"provider": "acme", "name": "acme-large", "version": "2026-11"}


def gate(url: str, key: str, errors: list[ReporterError], **reporter: Any) -> Toolgate:
    options = {"flush_interval_ms": 20, "retry_delay_ms": 20, "max_retry_delay_ms": 100, "on_error": errors.append, **reporter}
    return Toolgate(url=url, api_key=key, model=MODEL, tools=[LOAN], reporter=options)  # type: ignore[arg-type]


def calls(toolgate: Toolgate, run_id: str, count: int, start: int = 0) -> list[str]:
    """``count`` turns of one call each: every fifth sends the loan number as a number (invalid), the next turn corrects it."""
    run = toolgate.run(run_id=run_id)
    ids = []
    for i in range(start, start + count):
        args = f'{{"loannumber": {i}}}' if i % 5 == 0 else f'{{"loannumber": "{i}"}}'
        [outcome] = run.dispatch_sync({"id": f"c{i}", "type": "function", "function": {"name": "getloan", "arguments": args}})
        ids.append(outcome.event["id"])
    return ids


def test_every_event_arrives_once_with_the_tools_registered(toolgate_url: str, api_key: str, expect: dict[str, Any]) -> None:
    errors: list[ReporterError] = []
    toolgate = gate(toolgate_url, api_key, errors)
    ids = calls(toolgate, "py-once", 20)
    stats = toolgate.shutdown(10_000)
    assert errors == []
    assert stats is not None and (stats.sent, stats.dropped, stats.rejected) == (20, 0, 0)
    expect["once"] = {"runId": "py-once", "ids": ids, "invalid": 4, "corrections": 4}


def test_toolgate_down_and_back_every_buffered_event_stored_once(forwarder: Forwarder, api_key: str, expect: dict[str, Any]) -> None:
    errors: list[ReporterError] = []
    toolgate = gate(forwarder.url, api_key, errors, batch_size=10, max_buffer=100)
    before = calls(toolgate, "py-outage", 30)
    toolgate.flush(10_000)
    assert toolgate.stats() is not None and toolgate.stats().sent == 30  # type: ignore[union-attr]

    forwarder.stop()
    during = calls(toolgate, "py-outage", 105, 30)  # five more than the buffer holds: the newest five are dropped
    time.sleep(0.3)
    assert toolgate.stats().dropped == 5  # type: ignore[union-attr]
    assert any(e.kind == "network" for e in errors)
    forwarder.start()
    until = time.monotonic() + 15
    while toolgate.stats().buffered > 0:  # type: ignore[union-attr]
        assert time.monotonic() < until, f"backlog not drained: {toolgate.stats()}"
        time.sleep(0.05)
    stats = toolgate.shutdown(5000)
    assert stats is not None and stats.sent == 130 and stats.dropped == 5
    expect["outage"] = {"runId": "py-outage", "ids": before + during[:100]}


def test_a_refused_key_never_fails_the_agent(toolgate_url: str, expect: dict[str, Any]) -> None:
    errors: list[ReporterError] = []
    toolgate = gate(toolgate_url, "tg_not_a_real_key_000000000000", errors)
    started = time.perf_counter()
    ids = calls(toolgate, "py-refused", 10)
    assert time.perf_counter() - started < 2
    stats = toolgate.shutdown(5000)
    assert stats is not None and stats.dropped == 10 and stats.sent == 0
    assert any(e.kind in ("register", "http") and e.status == 401 for e in errors)
    expect["refused"] = {"runId": "py-refused", "ids": [], "notStored": ids}

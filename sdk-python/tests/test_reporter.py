"""The reporter against real HTTP servers on loopback: healthy, down, slow, 503 with Retry-After, refusing the key."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from conftest import Loopback, accept_all

from toolgate import ApiKeyError, Reporter, ReporterError, ToolgateEvent, retry_after_seconds

KEY = "tg_test_key"


def event(i: int = 0, tool: str = "getloan") -> ToolgateEvent:
    return {
        "id": str(uuid.uuid4()),
        "runId": "run-1",
        "step": i,
        "timestamp": "2026-12-05T00:00:00.000Z",
        "model": {"name": "acme-large"},
        "tool": tool,
        "arguments": {"loannumber": str(i)},
        "outcome": {"valid": True},
    }


def record_latencies(reporter: Reporter, count: int) -> list[float]:
    """The time each record() takes, in ms, sorted."""
    out = []
    for i in range(count):
        e = event(i)
        started = time.perf_counter()
        reporter.record(e)
        out.append((time.perf_counter() - started) * 1000)
    return sorted(out)


def p99(values: list[float]) -> float:
    return values[int(len(values) * 0.99) - 1]


def wait_until(predicate: Any, timeout: float = 5.0) -> None:
    until = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < until, "timed out waiting"
        time.sleep(0.01)


def test_batches_every_event_once_and_registers_tools_first(loopback: Loopback) -> None:
    reporter = Reporter(url=loopback.url + "/", api_key=KEY, batch_size=10, flush_interval_ms=50)
    reporter.register_tools([{"name": "getloan", "parameters": {"type": "object"}}])
    sent = [event(i) for i in range(25)]
    for e in sent:
        reporter.record(e)
    stats = reporter.shutdown(2000)
    assert stats.sent == 25 and stats.dropped == 0 and stats.buffered == 0
    assert loopback.requests[0][0] == "/api/trpc/tools.register"
    assert sorted(e["id"] for e in loopback.events()) == sorted(e["id"] for e in sent)
    assert all(len(b) <= 10 for b in loopback.batches())
    # each event names the version the server gave its tool's schema
    assert {e["toolVersion"] for e in loopback.events()} == {"v1"}


def test_an_event_names_the_version_of_its_schema_when_it_was_recorded_also_after_a_change(loopback: Loopback) -> None:
    # the server's version of a schema: v1 for the first, v2 for the one with a `term` (an MCP server changed its tool)
    def versions(path: str, body: Any) -> tuple[int, dict[str, str], Any]:
        if not path.endswith("tools.register"):
            return accept_all(path, body)
        named = [{"name": t["name"], "version": "v2" if "term" in t["parameters"]["properties"] else "v1"} for t in body["tools"]]
        return 200, {}, {"result": {"data": {"tools": named}}}

    loopback.behaviour = versions
    reporter = Reporter(url=loopback.url, api_key=KEY, flush_interval_ms=10_000)
    before = {"name": "getloan", "parameters": {"type": "object", "properties": {"amount": {}}}}
    reporter.register_tools([before])
    reporter.record(event(1))
    reporter.flush(2000)
    reporter.record(event(2))  # v1 is known: this one is final at once
    reporter.register_tools([{**before, "parameters": {"type": "object", "properties": {"amount": {}, "term": {}}}}])
    reporter.record(event(3))  # recorded under v2, before the server named it
    reporter.flush(2000)
    reporter.register_tools([before])
    reporter.record(event(4))  # back to the first schema, whose version is known
    reporter.shutdown(2000)
    assert [(e["step"], e.get("toolVersion")) for e in loopback.events()] == [(1, "v1"), (2, "v1"), (3, "v2"), (4, "v1")]


def test_a_partial_batch_waits_at_most_the_flush_interval(loopback: Loopback) -> None:
    reporter = Reporter(url=loopback.url, api_key=KEY, flush_interval_ms=100)
    started = time.monotonic()
    reporter.record(event())
    wait_until(lambda: reporter.stats().sent == 1)
    assert 0.09 <= time.monotonic() - started < 1.0
    reporter.shutdown(1000)


def test_toolgate_down_never_delays_the_agent_and_nothing_is_lost_up_to_the_buffer(closed_port: str) -> None:
    errors: list[ReporterError] = []
    reporter = Reporter(url=closed_port, api_key=KEY, batch_size=50, max_buffer=1000, retry_delay_ms=20, on_error=errors.append)
    latencies = record_latencies(reporter, 1000)
    assert p99(latencies) <= 1.0, f"p99 {p99(latencies):.3f} ms"
    reporter.record(event())  # one past the buffer
    stats = reporter.stats()
    assert stats.buffered == 1000 and stats.dropped == 1
    wait_until(lambda: reporter.stats().retried >= 2)
    assert any(e.kind == "network" and e.will_retry for e in errors)
    assert [e.kind for e in errors].count("dropped") == 1  # once per outage, not per event
    started = time.monotonic()
    stats = reporter.shutdown(300)
    assert time.monotonic() - started < 0.8
    assert stats.dropped == 1001 and stats.sent == 0


def test_a_slow_toolgate_10s_never_delays_the_agent_and_shutdown_keeps_its_deadline(loopback: Loopback) -> None:
    release = threading.Event()

    def slow(path: str, body: Any) -> tuple[int, dict[str, str], Any]:
        release.wait(10)
        return accept_all(path, body)

    loopback.behaviour = slow
    reporter = Reporter(url=loopback.url, api_key=KEY, batch_size=20, flush_interval_ms=10)
    try:
        reporter.record(event())
        wait_until(lambda: len(loopback.requests) == 1)  # the sender is stuck in a request now
        latencies = record_latencies(reporter, 1000)
        assert p99(latencies) <= 1.0, f"p99 {p99(latencies):.3f} ms"
        started = time.monotonic()
        stats = reporter.shutdown(400)
        assert time.monotonic() - started < 1.0
        assert stats.dropped == 1001
    finally:
        release.set()


def test_503_with_retry_after_is_waited_out_and_the_retry_sends_the_same_ids(loopback: Loopback) -> None:
    answers = iter([(503, {"retry-after": "1"}, {"error": {"message": "busy"}})])

    def busy_once(path: str, body: Any) -> tuple[int, dict[str, str], Any]:
        return next(answers, None) or accept_all(path, body)

    loopback.behaviour = busy_once
    errors: list[ReporterError] = []
    reporter = Reporter(url=loopback.url, api_key=KEY, retry_delay_ms=10, flush_interval_ms=10, on_error=errors.append)
    latencies = record_latencies(reporter, 5)
    wait_until(lambda: reporter.stats().sent == 5, timeout=5)
    (first, body1, at1), (_, body2, at2) = loopback.requests
    assert first.endswith("ingest.batch")
    assert [e["id"] for e in body1["events"]] == [e["id"] for e in body2["events"]]
    assert at2 - at1 >= 0.95  # Retry-After: 1, not the 10 ms backoff
    assert errors[0].kind == "http" and "HTTP 503: busy" in errors[0].message and "retrying in 1000 ms" in errors[0].message
    assert reporter.stats().retried == 1
    assert max(latencies) < 5
    reporter.shutdown(1000)


def test_a_retry_after_past_the_shutdown_deadline_sends_nothing_more(loopback: Loopback) -> None:
    loopback.behaviour = lambda path, body: (429, {"retry-after": "1"}, {"error": {"message": "slow down"}})
    reporter = Reporter(url=loopback.url, api_key=KEY, flush_interval_ms=10)
    for i in range(3):
        reporter.record(event(i))
    started = time.monotonic()
    stats = reporter.shutdown(1500)
    assert time.monotonic() - started < 1.8
    assert len(loopback.requests) <= 2
    assert stats.dropped == 3 and stats.sent == 0


def test_a_refused_key_drops_the_batch_without_retrying(loopback: Loopback) -> None:
    loopback.behaviour = lambda path, body: (401, {}, {"error": {"message": "Unknown API key"}})
    errors: list[ReporterError] = []
    reporter = Reporter(url=loopback.url, api_key=KEY, flush_interval_ms=10, on_error=errors.append)
    record_latencies(reporter, 200)
    reporter.flush(2000)
    stats = reporter.shutdown(500)
    assert stats.dropped == 200 and stats.retried == 0
    assert errors[0].kind == "http" and errors[0].status == 401 and "Unknown API key" in errors[0].message


def test_events_the_server_refuses_one_by_one_are_counted_and_shown(loopback: Loopback) -> None:
    loopback.behaviour = lambda path, body: (
        200,
        {},
        {"result": {"data": {"accepted": 1, "duplicates": 1, "rejected": [{"index": 2, "id": "x", "path": "step", "message": "bad"}]}}},
    )
    errors: list[ReporterError] = []
    reporter = Reporter(url=loopback.url, api_key=KEY, on_error=errors.append)
    for i in range(3):
        reporter.record(event(i))
    stats = reporter.shutdown(2000)
    assert (stats.sent, stats.rejected) == (2, 1)
    assert errors[0].kind == "rejected" and "x: step: bad" in errors[0].message


def test_the_byte_bound_drops_new_events(loopback: Loopback) -> None:
    reporter = Reporter(url=loopback.url, api_key=KEY, max_buffer_bytes=2000, flush_interval_ms=5000)
    for i in range(20):
        reporter.record(event(i))
    stats = reporter.stats()
    assert stats.buffered < 20 and stats.buffered + stats.dropped == 20
    reporter.shutdown(1000)


def test_an_event_that_is_not_json_is_rejected_alone(loopback: Loopback) -> None:
    errors: list[ReporterError] = []
    reporter = Reporter(url=loopback.url, api_key=KEY, on_error=errors.append)
    bad = event()
    bad["arguments"] = {"when": object()}
    reporter.record(bad)
    reporter.record(event(1))
    stats = reporter.shutdown(2000)
    assert (stats.rejected, stats.sent) == (1, 1)
    assert "cannot be written as JSON" in errors[0].message


def test_safe_from_many_threads(loopback: Loopback) -> None:
    reporter = Reporter(url=loopback.url, api_key=KEY, batch_size=37, flush_interval_ms=10)

    def records() -> None:
        for i in range(250):
            reporter.record(event(i))

    threads = [threading.Thread(target=records) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats = reporter.shutdown(5000)
    assert stats.sent == 2000
    assert len({e["id"] for e in loopback.events()}) == 2000


def test_a_key_a_header_cannot_carry_is_refused_at_once_without_showing_it() -> None:
    with pytest.raises(ApiKeyError, match=r'"…" \(U\+2026\) at character 4') as raised:
        Reporter(url="http://127.0.0.1:1", api_key="tg_…")
    assert "tg_…" not in str(raised.value).split("(tg_")[0]


def test_retry_after_reads_seconds_and_dates() -> None:
    assert retry_after_seconds("2") == 2
    assert retry_after_seconds(None) is None and retry_after_seconds("soon") is None
    assert retry_after_seconds("Thu, 01 Jan 2099 00:00:10 GMT", now=4070908800.0) == 10
    assert retry_after_seconds("Thu, 01 Jan 1970 00:00:00 GMT") == 0


def test_unknown_options_are_named() -> None:
    with pytest.raises(TypeError, match="Unknown reporter option 'batchsize'"):
        Reporter(url="http://127.0.0.1:1", api_key=KEY, batchsize=3)

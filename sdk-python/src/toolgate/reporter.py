"""Sends events to Toolgate's ``ingest.batch`` in the background, without ever getting in the agent's way.

The twin of the TypeScript SDK's ``sdk/src/reporter.ts``: batched, bounded, retried without ever
changing an event's id (the server answers a re-sent id as a duplicate, so a retry cannot store an
event twice). ``record`` never waits on the network and never raises; the sending happens on one
daemon thread. Safe to call from any thread and from asyncio code.
"""

from __future__ import annotations

import atexit
import contextlib
import email.utils
import json
import random
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .api_key import authorization_header
from .event import ToolgateEvent
from .tools import canonical_json

ReporterErrorKind = Literal["network", "http", "rejected", "dropped", "register"]

#: Events per ``ingest.batch`` request (contracts/request-limits.ts).
INGEST_LIMIT = 1000
#: Tools per ``tools.register`` request (the contract's maxItems; tests/test_event_contract.py checks it).
REGISTER_LIMIT = 500


class ReporterError(Exception):
    """What went wrong in the background: given to ``on_error``, never raised."""

    def __init__(
        self, kind: ReporterErrorKind, message: str, *, status: int | None = None, events: int | None = None, will_retry: bool | None = None
    ):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.status = status
        self.events = events
        self.will_retry = will_retry


@dataclass(frozen=True)
class ReporterStats:
    #: Events the server has (accepted, or already had under the same id).
    sent: int
    #: Events given up: the buffer was full, the server refused a whole batch, or shutdown ran out of time.
    dropped: int
    #: Requests repeated after a network error, 429 or 5xx.
    retried: int
    #: Events the server refused one by one (the batch went through), or that could not be written as JSON.
    rejected: int
    #: Events waiting or being sent now.
    buffered: int


@dataclass
class _Entry:
    event: ToolgateEvent
    json: str | None
    size: int
    #: the tool's schema registered when the event was recorded (_schema_of), whose version the event names
    schema: str | None = None


def _schema_of(tool: Mapping[str, Any]) -> str:
    """A tool's name, description and parameters as one string: what ``tools.register`` gives a version to."""
    return canonical_json({"name": tool["name"], "description": tool.get("description", ""), "parameters": tool["parameters"]})


@dataclass
class _Answer:
    kind: Literal["ok", "retry", "refused"]
    data: Any = None
    status: int = 0
    message: str = ""
    delay_s: float | None = None


@dataclass
class ReporterOptions:
    """Batching, buffer and retry settings (the same names as the TypeScript SDK's, in snake_case)."""

    batch_size: int = 500
    max_batch_bytes: int = 3 * 1024 * 1024
    flush_interval_ms: int = 1000
    max_buffer: int = 10_000
    max_buffer_bytes: int = 16 * 1024 * 1024
    retry_delay_ms: int = 500
    max_retry_delay_ms: int = 30_000
    request_timeout_ms: int = 10_000
    #: Flush at interpreter exit for at most this long (0: off).
    exit_flush_timeout_ms: int = 5000
    on_error: Callable[[ReporterError], None] | None = None
    extra_headers: Mapping[str, str] = field(default_factory=dict)


def retry_after_seconds(header: str | None, now: float | None = None) -> float | None:
    """``Retry-After`` in seconds or as an HTTP date, in seconds from now; None when absent or unreadable."""
    if not header:
        return None
    try:
        seconds = float(header)
        if seconds >= 0 and seconds != float("inf"):
            return seconds
        return None
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def reporter_for(url: str | None, api_key: str | None, options: ReporterOptions | Mapping[str, Any] | None) -> Reporter | None:
    """The reporter a Toolgate (or the MCP middleware) sends through; None without both a URL and a key."""
    if not (url and api_key):
        return None
    if isinstance(options, ReporterOptions):
        return Reporter(url=url, api_key=api_key, options=options)
    return Reporter(url=url, api_key=api_key, **dict(options or {}))


class Reporter:
    """Queues events and sends them to Toolgate in batches from a background thread."""

    def __init__(self, *, url: str, api_key: str, options: ReporterOptions | None = None, **overrides: Any) -> None:
        # a key that cannot be sent would fail every request as "cannot reach" and be retried for ever
        self._authorization = authorization_header(api_key)
        base = options or ReporterOptions()
        for name, value in overrides.items():
            if not hasattr(base, name):
                raise TypeError(f"Unknown reporter option {name!r}. Options: {', '.join(ReporterOptions.__dataclass_fields__)}.")
            setattr(base, name, value)
        self.options = base
        self._batch_size = min(INGEST_LIMIT, max(1, base.batch_size))
        self._url = url.rstrip("/")
        self._lock = threading.Condition(threading.Lock())
        self._queue: deque[_Entry] = deque()
        self._queued_bytes = 0
        self._in_flight: list[_Entry] = []
        self._in_flight_bytes = 0
        self._registered: dict[str, str] = {}
        self._pending_tools: dict[str, dict[str, Any]] = {}
        #: _schema_of -> the version the server gave that schema: an event names the version of the schema its tool had
        #: here when it was recorded, not a later one's, nor an earlier one's while the new one is sent
        self._versions: dict[str, str] = {}
        self._sent = self._dropped = self._retried = self._rejected = 0
        self._closed = False
        self._dropping = False
        self._drain = 0
        self._deadline: float | None = None
        self._failures = 0
        self._retry_at = 0.0
        self._split_next: int | None = None
        # started here, not at the first event: starting a thread takes milliseconds the agent's call must not wait
        self._thread = threading.Thread(target=self._loop, name="toolgate-reporter", daemon=True)
        self._thread.start()
        if base.exit_flush_timeout_ms > 0:
            atexit.register(self._at_exit)

    # -- the caller's side -------------------------------------------------------------------

    def stats(self) -> ReporterStats:
        with self._lock:
            return ReporterStats(self._sent, self._dropped, self._retried, self._rejected, len(self._queue) + len(self._in_flight))

    def record(self, event: ToolgateEvent) -> None:
        """Queues one event. Never raises, never waits on the network."""
        try:
            entry = self._entry_of(event)
        except (TypeError, ValueError, RecursionError) as error:
            with self._lock:
                self._rejected += 1
            self._report(
                ReporterError(
                    "rejected",
                    f"The event {event.get('id')} (tool {event.get('tool')}) cannot be written as JSON: {error}. "
                    "Are its arguments nested deeper than Toolgate keeps (64 levels), or not plain JSON? The event was not sent.",
                    events=1,
                )
            )
            return
        full: str | None = None
        with self._lock:
            held = len(self._queue) + len(self._in_flight)
            if self._closed:
                full = "the reporter was shut down"
            elif held >= self.options.max_buffer:
                full = f"the buffer holds {self.options.max_buffer} events (max_buffer) while Toolgate is not taking them"
            elif self._queued_bytes + self._in_flight_bytes + entry.size > self.options.max_buffer_bytes:
                limit = self.options.max_buffer_bytes
                full = f"the buffer would hold more than {limit} bytes (max_buffer_bytes) while Toolgate is not taking them"
            if full is not None:
                self._dropped += 1
                first = not self._dropping
                self._dropping = True
            else:
                self._queue.append(entry)
                self._queued_bytes += entry.size
                if len(self._queue) in (1, self._batch_size):
                    # the first event starts the flush interval, a full batch goes at once; a backlog while Toolgate
                    # is away does not wake the sender per event
                    self._lock.notify_all()
        if full is not None and first:
            self._report(ReporterError("dropped", f"Dropping new events: {full}. See stats().dropped for the count.", events=1))

    def register_tools(self, tools: list[dict[str, Any]]) -> None:
        """Registers tool schemas with ``tools.register`` before the next batch; unchanged ones are not sent again."""
        with self._lock:
            for tool in tools:
                key = _schema_of(tool)
                if self._registered.get(tool["name"]) == key:
                    continue
                self._registered[tool["name"]] = key
                self._pending_tools[tool["name"]] = tool
            if self._pending_tools:
                self._lock.notify_all()

    def flush(self, timeout_ms: int | None = None) -> None:
        """Sends everything queued so far. Returns when the buffer is empty or ``timeout_ms`` passed (what remains stays queued)."""
        until = None if timeout_ms is None else time.monotonic() + timeout_ms / 1000
        with self._lock:
            if self._closed:
                return
            if until is not None:
                self._deadline = max(self._deadline or 0.0, until)
            self._drain += 1
            self._lock.notify_all()  # a retry sleeping in the background now works under this deadline
            try:
                while not self._closed and (self._queue or self._in_flight or self._pending_tools):
                    now = time.monotonic()
                    if until is not None and now >= until:
                        break
                    # the server asked to wait past the deadline: nothing more to do before it
                    if self._deadline is not None and self._retry_at >= self._deadline and self._retry_at > now:
                        break
                    self._lock.wait(0.05 if until is None else min(0.05, until - now))
            finally:
                self._drain -= 1
                if self._drain == 0:
                    self._deadline = None

    def shutdown(self, timeout_ms: int = 10_000) -> ReporterStats:
        """Flushes (for at most ``timeout_ms``), then stops: later events are dropped; what could not be sent is counted as dropped."""
        self.flush(timeout_ms)
        left = 0
        with self._lock:
            if not self._closed:
                self._closed = True
                left = len(self._queue) + len(self._in_flight)
                self._dropped += left
                self._queue.clear()
                self._in_flight = []
                self._queued_bytes = self._in_flight_bytes = 0
                self._lock.notify_all()
        if left:
            self._report(ReporterError("dropped", f"Shutdown: {left} events could not be sent in time and are dropped.", events=left))
        atexit.unregister(self._at_exit)
        return self.stats()

    async def aflush(self, timeout_ms: int | None = None) -> None:
        """``flush`` for asyncio code: waits in a worker thread, not on the event loop."""
        import asyncio

        await asyncio.to_thread(self.flush, timeout_ms)

    async def ashutdown(self, timeout_ms: int = 10_000) -> ReporterStats:
        """``shutdown`` for asyncio code."""
        import asyncio

        return await asyncio.to_thread(self.shutdown, timeout_ms)

    def _at_exit(self) -> None:
        if not self._closed:
            self.shutdown(self.options.exit_flush_timeout_ms)

    # -- the sender thread --------------------------------------------------------------------

    def _loop(self) -> None:
        try:
            self._send_loop()
        except Exception as error:  # never let the thread die silently
            self._report(ReporterError("network", f"Unexpected reporter failure: {error!r}"))

    def _send_loop(self) -> None:
        oldest_since: float | None = None
        while True:
            with self._lock:
                while True:
                    if self._closed:
                        return
                    now = time.monotonic()
                    if self._queue and oldest_since is None:
                        oldest_since = now
                    ready = (
                        bool(self._pending_tools)
                        or bool(self._in_flight)
                        or len(self._queue) >= self._batch_size
                        or (bool(self._queue) and (self._drain > 0 or now - (oldest_since or now) >= self.options.flush_interval_ms / 1000))
                    )
                    if ready:
                        break
                    if self._queue:
                        self._lock.wait(max(0.001, (oldest_since or now) + self.options.flush_interval_ms / 1000 - now))
                    else:
                        oldest_since = None
                        self._lock.wait()
                registering = bool(self._pending_tools)
                if not registering and not self._in_flight:
                    self._in_flight = self._take_batch()
                    self._in_flight_bytes = sum(e.size for e in self._in_flight)
                    self._queued_bytes -= self._in_flight_bytes
            if registering:
                self._send_registrations()
                continue
            self._send_batch()
            oldest_since = None

    def _take_batch(self) -> list[_Entry]:
        """The next batch from the front (under the lock): ≤ batch_size, ≤ max_batch_bytes, at least one."""
        limit = min(self._batch_size, self._split_next or INGEST_LIMIT, len(self._queue))
        size = 20
        batch: list[_Entry] = []
        while len(batch) < limit:
            entry = self._queue[0]
            text = self._json_of(entry)
            if batch and size + len(text) + 1 > self.options.max_batch_bytes:
                break
            size += len(text) + 1
            batch.append(self._queue.popleft())
        return batch

    def _send_batch(self) -> None:
        with self._lock:
            batch = self._in_flight
        count = len(batch)
        # only this thread writes an entry's JSON once it is queued: built outside the lock, which record() takes
        body = '{"events":[' + ",".join(self._json_of(e) for e in batch) + "]}"
        answer = self._post("ingest.batch", body, count)
        if answer is None:
            return  # out of time or shut down: stays in flight, sent first next time
        with self._lock:
            if self._in_flight is not batch:
                return  # shutdown counted it already
            if answer.kind == "refused" and answer.status == 413 and count > 1:
                # too large for the server: put it back and send halves
                self._split_next = max(1, count // 2)
                self._queue.extendleft(reversed(batch))
                self._queued_bytes += self._in_flight_bytes
                self._in_flight, self._in_flight_bytes = [], 0
                return
            self._in_flight, self._in_flight_bytes = [], 0
            if not self._queue:
                self._split_next = None
            report: ReporterError | None = None
            if answer.kind == "ok":
                data = answer.data if isinstance(answer.data, dict) else {}
                rejected = data.get("rejected") or []
                self._sent += int(data.get("accepted", 0)) + int(data.get("duplicates", 0))
                self._rejected += len(rejected)
                self._dropping = False
                if rejected:
                    shown = "; ".join(
                        f"{r.get('id') or '#' + str(r.get('index'))}: {(r.get('path') + ': ') if r.get('path') else ''}{r.get('message')}"
                        for r in rejected[:3]
                    )
                    more = "; ..." if len(rejected) > 3 else ""
                    report = ReporterError(
                        "rejected", f"Toolgate refused {len(rejected)} of {count} events: {shown}{more}", events=len(rejected)
                    )
            else:
                self._dropped += count
                report = ReporterError(
                    "http",
                    f"Toolgate refused a batch of {count} events (HTTP {answer.status}): {answer.message}",
                    status=answer.status,
                    events=count,
                )
            self._lock.notify_all()
        if report is not None:
            self._report(report)

    def _send_registrations(self) -> None:
        with self._lock:
            tools = list(self._pending_tools.values())[:REGISTER_LIMIT]
        answer = self._post("tools.register", json.dumps({"tools": tools}, ensure_ascii=False), 0)
        if answer is None:
            with self._lock:
                if not self._closed:
                    self._lock.wait(0.05)
            return
        with self._lock:
            for tool in tools:
                if self._pending_tools.get(tool["name"]) is tool:
                    del self._pending_tools[tool["name"]]
            if answer.kind == "ok" and isinstance(answer.data, dict):
                sent = {tool["name"]: _schema_of(tool) for tool in tools}
                for registered in answer.data.get("tools") or []:
                    schema = sent.get(registered["name"])
                    if schema is not None:
                        self._versions[schema] = registered["version"]
            if answer.kind == "refused":
                for tool in tools:
                    self._registered.pop(tool["name"], None)
            self._lock.notify_all()
        if answer.kind == "refused":
            self._report(
                ReporterError(
                    "register", f"Toolgate refused the tool schemas (HTTP {answer.status}): {answer.message}", status=answer.status
                )
            )

    def _post(self, procedure: str, body: str, events: int) -> _Answer | None:
        """POSTs until the answer is something other than "try again"; None when the deadline (or shutdown) comes first.

        The wait between attempts is shared by the background sender, flush, shutdown and the exit flush:
        no request goes out before the time the server asked for (Retry-After) or the backoff after the
        failures in a row so far.
        """
        data = body.encode("utf-8")
        while True:
            with self._lock:
                if self._closed:
                    return None
                now = time.monotonic()
                if self._retry_at > now:
                    # a flush whose deadline comes first returns by itself; this waits for the time the server may be asked again
                    self._lock.wait(self._retry_at - now)  # woken early by a flush or shutdown: look again
                    continue
                timeout = self.options.request_timeout_ms / 1000
                if self._deadline is not None:
                    timeout = max(0.05, min(timeout, self._deadline - now))
            answer = self._attempt(procedure, data, timeout)
            if answer.kind != "retry":
                with self._lock:
                    self._failures = 0
                return answer
            with self._lock:
                self._failures += 1
                backoff = min(self.options.max_retry_delay_ms, self.options.retry_delay_ms * 2 ** (self._failures - 1)) / 1000
                delay = answer.delay_s if answer.delay_s is not None else backoff * (0.5 + random.random() / 2)
                self._retry_at = time.monotonic() + delay
                out_of_time = self._deadline is not None and self._retry_at >= self._deadline
                closed = self._closed
                if not out_of_time and not closed:
                    self._retried += 1
                self._lock.notify_all()
            kind: ReporterErrorKind = "http" if answer.message.startswith("HTTP") else "network"
            then = "out of time, kept queued" if out_of_time else f"retrying in {round(delay * 1000)} ms"
            self._report(ReporterError(kind, f"{procedure}: {answer.message}; {then}", events=events, will_retry=not out_of_time))
            if closed:
                return None

    def _attempt(self, procedure: str, data: bytes, timeout: float) -> _Answer:
        headers = {"content-type": "application/json", "authorization": self._authorization, **self.options.extra_headers}
        request = urllib.request.Request(f"{self._url}/api/trpc/{procedure}", data=data, headers=headers, method="POST")
        status: int
        text: bytes
        retry_after: str | None
        reason: str
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, text, retry_after, reason = response.status, response.read(), None, response.reason
        except urllib.error.HTTPError as error:
            try:
                text = error.read()
            except OSError:
                text = b""
            status, retry_after, reason = error.code, error.headers.get("retry-after"), str(error.reason)
        except (OSError, ValueError) as error:
            why = getattr(error, "reason", None) or error
            return _Answer("retry", message=f"cannot reach {self._url} ({why})")
        try:
            payload = json.loads(text)
        except ValueError:
            payload = None
        if 200 <= status < 300:
            return _Answer("ok", data=(payload or {}).get("result", {}).get("data") if isinstance(payload, dict) else None)
        message = reason or "no message"
        if isinstance(payload, dict) and isinstance(payload.get("error"), dict) and isinstance(payload["error"].get("message"), str):
            message = payload["error"]["message"]
        if status == 429 or status >= 500:
            return _Answer("retry", status=status, message=f"HTTP {status}: {message}", delay_s=retry_after_seconds(retry_after))
        return _Answer("refused", status=status, message=message)

    # -- events ------------------------------------------------------------------------------

    def _json_of(self, entry: _Entry) -> str:
        """The event as sent, serialized once (a retry sends the same bytes), naming the schema version registered for its tool."""
        if entry.json is None:
            event: Mapping[str, Any] = entry.event
            version = self._versions.get(entry.schema) if "toolVersion" not in entry.event and entry.schema is not None else None
            if version is not None:
                event = {**entry.event, "toolVersion": version}
            entry.json = json.dumps(event, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return entry.json

    def _entry_of(self, event: ToolgateEvent) -> _Entry:
        entry = _Entry(event, None, 0, self._registered.get(event["tool"]))
        final = "toolVersion" in event or entry.schema is None or entry.schema in self._versions
        text = self._json_of(entry) if final else json.dumps(event, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        entry.size = len(text) + 1
        return entry

    def _report(self, error: ReporterError) -> None:
        callback = self.options.on_error
        if callback is None:
            return
        with contextlib.suppress(Exception):  # the harness's callback must not break the reporter either
            callback(error)

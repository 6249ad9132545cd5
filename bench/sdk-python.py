"""npm run bench:sdk-python [-- --calls N]   (after scripts/test-python.sh --install; default 3,000 calls per case)

What the Python SDK's reporter adds to an agent's tool call while Toolgate is healthy, down (a closed
port), slow (answers after 10 s), answering 503 with Retry-After: 1, or refusing the key (401): the same
OpenAI-shaped calls go through `await run.dispatch(...)` of a dispatcher without a reporter and of one
reporting to that server, interleaved in one asyncio loop, back to back (no pause between calls: the
worst case for the sender thread competing with the agent). Prints p50/p99/max per call of both, and of
`Reporter.record` alone (the only reporter work on the agent's path). docs/PERFORMANCE.md has the figures.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from toolgate import Toolgate, define_tool

CALLS = int(sys.argv[sys.argv.index("--calls") + 1]) if "--calls" in sys.argv else 3000
release = threading.Event()
MODE = {"value": "ok"}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        mode = MODE["value"]
        headers: dict[str, str] = {}
        answer: dict[str, Any]
        if mode == "slow":
            release.wait(10)
        if mode == "503":
            status, answer, headers = (
                503,
                {"error": {"message": "busy"}},
                {"retry-after": "1"},
            )
        elif mode == "401":
            status, answer = 401, {"error": {"message": "Unknown API key"}}
        elif self.path.endswith("tools.register"):
            status, answer = (
                200,
                {"result": {"data": {"tools": [{"name": t["name"], "version": "v1"} for t in body["tools"]]}}},
            )
        else:
            status, answer = (
                200,
                {
                    "result": {
                        "data": {
                            "accepted": len(body["events"]),
                            "duplicates": 0,
                            "rejected": [],
                        }
                    }
                },
            )
        data = json.dumps(answer).encode()
        try:
            self.send_response(status)
            for name, value in {
                "content-type": "application/json",
                "content-length": str(len(data)),
                **headers,
            }.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


getloan = define_tool(
    name="getloan",
    parameters={
        "type": "object",
        "properties": {
            "loannumber": {"type": "string", "pattern": "^[0-9]+$"},
            "months": {"type": "integer", "minimum": 1, "maximum": 36},
        },
        "required": ["loannumber"],
        "additionalProperties": False,
    },
    handler=lambda args: {"loannumber": args["loannumber"], "balance": 1200},
)


def percentiles(values: list[float]) -> str:
    values = sorted(values)
    return f"p50 {values[len(values) // 2]:.3f}  p99 {values[int(len(values) * 0.99) - 1]:.3f}  max {values[-1]:.2f}"


async def case(name: str, url: str) -> None:
    MODE["value"] = name if name in ("slow", "503", "401") else "ok"
    quiet = Toolgate(tools=[getloan], model={"name": "bench"})
    reporting = Toolgate(
        tools=[getloan],
        model={"name": "bench"},
        url=url,
        api_key="tg_bench",
        reporter={"max_buffer": 100_000},
    )
    assert reporting.reporter is not None
    record = reporting.reporter.record
    recorded: list[float] = []

    def timed(event: Any) -> None:
        t = time.perf_counter()
        record(event)
        recorded.append((time.perf_counter() - t) * 1000)

    reporting.reporter.record = timed  # type: ignore[method-assign]
    base, gated = quiet.run(), reporting.run()
    without: list[float] = []
    with_reporter: list[float] = []
    for i in range(CALLS + 300):
        call = {
            "id": f"c{i}",
            "type": "function",
            "function": {
                "name": "getloan",
                "arguments": f'{{"loannumber":"{1000 + i}","months":{1 + i % 36}}}',
            },
        }
        t = time.perf_counter()
        await base.dispatch(call)
        a = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        await gated.dispatch(call)
        b = (time.perf_counter() - t) * 1000
        if i >= 300:  # warm-up
            without.append(a)
            with_reporter.append(b)
    del recorded[:300]
    print(f"{name:8} dispatch without reporter: {percentiles(without)} ms")
    print(f"{name:8} dispatch with reporter:    {percentiles(with_reporter)} ms")
    print(f"{name:8} Reporter.record alone:     {percentiles(recorded)} ms   {reporting.reporter.stats()}")
    t = time.perf_counter()
    await reporting.ashutdown(500)
    print(f"{name:8} shutdown(500 ms) took {(time.perf_counter() - t) * 1000:.0f} ms")


async def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    print(f"Python {sys.version.split()[0]}, {CALLS} calls per case, OpenAI-shaped, back to back")
    for name in ("healthy", "down", "slow", "503", "401"):
        await case(name, closed_port() if name == "down" else url)
    release.set()


asyncio.run(main())

"""Real HTTP servers on loopback for the reporter's tests: one that answers as told, and a closed port."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

#: (status, headers, body) for one request, given its path and parsed body.
Behaviour = Callable[[str, Any], tuple[int, dict[str, str], Any]]


@dataclass
class Loopback:
    url: str
    requests: list[tuple[str, Any, float]] = field(default_factory=list)
    behaviour: Behaviour | None = None

    def events(self) -> list[dict[str, Any]]:
        return [e for path, body, _ in self.requests if path.endswith("ingest.batch") for e in body["events"]]

    def batches(self) -> list[list[dict[str, Any]]]:
        return [body["events"] for path, body, _ in self.requests if path.endswith("ingest.batch")]


def accept_all(path: str, body: Any) -> tuple[int, dict[str, str], Any]:
    """What Toolgate answers when all is well."""
    if path.endswith("tools.register"):
        return 200, {}, {"result": {"data": {"tools": [{"name": t["name"], "version": "v1", "created": True} for t in body["tools"]]}}}
    return 200, {}, {"result": {"data": {"accepted": len(body["events"]), "duplicates": 0, "rejected": []}}}


@pytest.fixture
def loopback() -> Iterator[Loopback]:
    server_state = Loopback(url="")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length", "0"))
            body = json.loads(self.rfile.read(length))
            server_state.requests.append((self.path, body, time.monotonic()))
            status, headers, answer = (server_state.behaviour or accept_all)(self.path, body)
            data = json.dumps(answer).encode()
            try:
                self.send_response(status)
                for name, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the client gave up (a slow answer past its timeout)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server_state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server_state
    server.shutdown()
    server.server_close()


@pytest.fixture
def closed_port() -> str:
    """An address on loopback where nothing listens (connection refused at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"

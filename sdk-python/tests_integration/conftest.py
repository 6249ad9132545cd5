"""Against a REAL Toolgate: sdk-python/python.exhaustive.test.ts starts the app, makes a project and its key,
runs these tests with TOOLGATE_URL / TOOLGATE_API_KEY, and checks in the database what they wrote to
TOOLGATE_PY_OUT (the event ids each scenario expects stored)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def toolgate_url() -> str:
    return os.environ["TOOLGATE_URL"]


@pytest.fixture(scope="session")
def api_key() -> str:
    return os.environ["TOOLGATE_API_KEY"]


_expected: dict[str, Any] = {}


@pytest.fixture(scope="session")
def expect() -> Iterator[dict[str, Any]]:
    """What each scenario expects in the database; written for the TypeScript side at the end of the session."""
    yield _expected
    with open(os.environ["TOOLGATE_PY_OUT"], "w", encoding="utf-8") as out:
        json.dump(_expected, out)


class Forwarder:
    """A TCP relay on loopback in front of the real Toolgate: stop() is Toolgate going down, start() it coming back."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = 0
        self.listener: socket.socket | None = None
        self.connections: list[socket.socket] = []
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        self.port = listener.getsockname()[1]
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        if self.listener:
            with contextlib.suppress(OSError):
                self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() blocked on it (close alone does not)
            self.listener.close()
            self.listener = None
        for connection in self.connections:
            connection.close()
        self.connections = []

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.upstream)
            self.connections += [client, server]
            threading.Thread(target=self._pipe, args=(client, server), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
            target.shutdown(socket.SHUT_WR)
        except OSError:
            pass


@pytest.fixture
def forwarder(toolgate_url: str) -> Iterator[Forwarder]:
    host, port = toolgate_url.removeprefix("http://").split(":")
    relay = Forwarder((host, int(port)))
    yield relay
    relay.stop()

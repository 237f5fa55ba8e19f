"""A real server in a subprocess and the few raw HTTP calls the client tests make to set games up."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any
from unittest import mock

from tests.service.servers import ROOT, queue_worker, running

#: The server of the tests: its games expire after 5 minutes.
SETTINGS = {
    "TG_LOBBY_TTL": "300",
    "TG_GAME_TTL": "300",
    "TG_FINISHED_TTL": "300",
    "TG_HISTORY_TTL": "300",
    "TG_PLAYER_TTL": "300",
    "TG_DAILY_TTL": "300",
}


@contextlib.contextmanager
def server() -> Iterator[str]:
    """``python -m service`` on a free port (the embedded store, or Redis at $REDIS_URL with a worker of the job queue)
    with ``SETTINGS``; yields its URL."""
    with contextlib.ExitStack() as stack:
        with mock.patch.dict(os.environ, SETTINGS):  # the server's environment only: it is copied at its start
            port, _ = stack.enter_context(running([sys.executable, "-m", "service"]))
            stack.enter_context(queue_worker())
        yield f"http://127.0.0.1:{port}"


def call(url: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}/v1{path}", data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"null")


def lobby(url: str, game: str, players: int, seed: int, **options: Any) -> tuple[str, str]:
    """A new lobby: its id and the host token."""
    created = call(url, "POST", "/games", {"game": game, "players": players, "seed": seed, "options": options})
    return created["game_id"], created["host_token"]


def client(url: str, game_id: str, *args: str, token: str | None = None) -> subprocess.Popen[str]:
    """``python -m thegame_core.client play`` for ``game_id``, the token in TG_TOKEN (never on the command line)."""
    command = [sys.executable, "-m", "thegame_core.client", "play", "--url", url, "--game", game_id, *args]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)} | ({"TG_TOKEN": token} if token else {})
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


class CuttingProxy:
    """A TCP relay to ``url`` on 127.0.0.1 that cuts every event stream after ``limit`` bytes of the answer (anywhere,
    mid-event too), as a flaky network would; other requests pass whole. ``cuts`` counts the streams it cut."""

    def __init__(self, url: str, limit: int) -> None:
        self.target = urllib.parse.urlsplit(url).port
        self.limit = limit
        self.cuts = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                downstream, _ = self.listener.accept()
                threading.Thread(target=self._relay, args=(downstream,), daemon=True).start()

    def _relay(self, downstream: socket.socket) -> None:
        with downstream, socket.create_connection(("127.0.0.1", self.target)) as upstream:
            request = downstream.recv(65536)
            upstream.sendall(request)
            threading.Thread(target=_pump, args=(downstream, upstream), daemon=True).start()
            limit = self.limit if b"/events" in request.split(b"\r\n", 1)[0] else None
            if not _pump(upstream, downstream, limit):
                self.cuts += 1
            for end in (downstream, upstream):  # a close alone would not wake the other thread's recv
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)


def _pump(source: socket.socket, sink: socket.socket, limit: int | None = None) -> bool:
    """Copy ``source`` to ``sink`` until either closes (``True``) or ``limit`` bytes have passed (``False``)."""
    sent = 0
    with contextlib.suppress(OSError):
        while chunk := source.recv(4096):
            if limit is not None and sent + len(chunk) > limit:
                sink.sendall(chunk[: limit - sent])
                return False
            sink.sendall(chunk)
            sent += len(chunk)
    return True

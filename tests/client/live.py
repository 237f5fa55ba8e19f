"""A real server in a subprocess and the few raw HTTP calls the client tests make to set games up."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from typing import Any
from unittest import mock

from tests.service.servers import ROOT, running

#: The server of the tests: its games expire after 5 minutes; no rate limit (other tests share 127.0.0.1 and Redis).
SETTINGS = {"TG_LOBBY_TTL": "300", "TG_GAME_TTL": "300", "TG_FINISHED_TTL": "300", "TG_LIMITS": "off"}


@contextlib.contextmanager
def server() -> Iterator[str]:
    """``python -m service`` on a free port (the embedded store, or Redis at $REDIS_URL) with ``SETTINGS``; yields
    its URL."""
    with contextlib.ExitStack() as stack:
        with mock.patch.dict(os.environ, SETTINGS):  # the server's environment only: it is copied at its start
            port, _ = stack.enter_context(running([sys.executable, "-m", "service"]))
        yield f"http://127.0.0.1:{port}"


def call(url: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}/v1{path}", data=data, method=method, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"null")


def lobby(url: str, game: str, players: int, seed: int) -> tuple[str, str]:
    """A new lobby: its id and the host token."""
    created = call(url, "POST", "/games", {"game": game, "players": players, "seed": seed})
    return created["game_id"], created["host_token"]


def client(url: str, game_id: str, *args: str, token: str | None = None) -> subprocess.Popen[str]:
    """``python -m thegame_core.client play`` for ``game_id``, the token in TG_TOKEN (never on the command line)."""
    command = [sys.executable, "-m", "thegame_core.client", "play", "--url", url, "--game", game_id, *args]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)} | ({"TG_TOKEN": token} if token else {})
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

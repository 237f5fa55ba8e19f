"""The event stream through real servers: across two processes sharing Redis, the documented curl session, and
access logs that never hold a stream's ``?token=``."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from events_reader import EventReader
from gameclient import without_results
from servers import ROOT, free_port
from test_docs import shell_block
from test_metrics import parsed, value

REDIS_URL = os.environ.get("REDIS_URL")
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "service/gunicorn_conf.py", "service:create_app()"]
DEV_SERVER = [sys.executable, "-m", "service"]
BOOT_SECONDS = 60  # a loaded machine can take long to start gunicorn and its workers


def wait_until_healthy(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + BOOT_SECONDS
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=2).close()
            return
        except OSError:  # not listening yet, or still booting its workers
            time.sleep(0.1)
    raise AssertionError("the server did not answer /v1/health")


@contextmanager
def server(command: list[str], **env: str) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """``command`` serving on a free loopback port (its standard error kept in a pipe); stopped on exit."""
    port = free_port()
    environ = {"TG_LIMITS": "off", **os.environ, "PORT": str(port), "TG_STREAM_KEEPALIVE": "1", **env}
    bind = ["--bind", f"127.0.0.1:{port}"] if "gunicorn" in command else []
    process = subprocess.Popen([*command, *bind], cwd=ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until_healthy(port, process)
        yield port, process
    finally:
        process.terminate()
        process.wait(timeout=15)


def call(port: int, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1{path}", method=method)
    if body is not None:
        request.data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def open_stream(port: int, path: str) -> tuple[http.client.HTTPConnection, EventReader]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", f"/v1{path}")
    answer = connection.getresponse()
    assert answer.status == 200 and answer.getheader("Content-Type", "").startswith("text/event-stream")
    return connection, EventReader(iter(lambda: answer.read1(65536), b""))


@pytest.mark.skipif(not REDIS_URL, reason="two processes share a store only through Redis: set REDIS_URL (CI does)")
def test_a_change_made_through_one_process_reaches_a_stream_held_by_another() -> None:
    with server(GUNICORN) as (streaming, _), server(DEV_SERVER) as (changing, _):
        created = call(changing, "POST", "/games", {"players": 2, "seed": 11})
        game, host = created["game_id"], created["host_token"]
        ann = call(changing, "POST", f"/games/{game}/seats", {"name": "Ann"})["token"]
        call(changing, "POST", f"/games/{game}/seats", {"name": "Robo", "bot": "greedy"}, host)
        connection, events = open_stream(streaming, f"/games/{game}/events?token={ann}")
        try:
            assert events.next_event().data["version"] == 2
            started = call(changing, "POST", f"/games/{game}/start", {"first_seat": 0}, host)
            assert [event.data["version"] for event in events.until(started["version"])] == [3]
            seen = call(changing, "GET", f"/games/{game}", token=ann)
            action = seen["legal_actions"][0]
            played = call(changing, "POST", f"/games/{game}/actions", action, ann)
            assert events.until(played["version"])[-1].view == without_results(played)
        finally:
            connection.close()


def spectator_waits(port: int) -> dict[str, float]:
    """The server's count of changes its spectators waited for the seats' streams with, by what ended the wait."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        scraped = parsed(answer.read().decode())
    return {
        ended_by: value(scraped, "tg_spectator_waits_total", ended_by=ended_by) for ended_by in ("seats", "timeout")
    }


@pytest.mark.skipif(not REDIS_URL, reason="two processes share a store only through Redis: set REDIS_URL (CI does)")
def test_a_spectator_s_server_waits_for_the_seat_stream_another_server_holds() -> None:
    """Seat 0's stream on one server, a spectator's on another, and moves one at a time: the spectator's server
    hands it each change only once the seat's server said its stream wrote it. Told by the spectator's server's own
    count: each change waited, and each wait was ended by the seat's server's word, never by the time running out
    (20 s here, so a lost word cannot pass for a slow one; the count is checked after each change)."""
    with server(DEV_SERVER) as (seats, _), server(DEV_SERVER, TG_SEATS_FIRST_MS="20000") as (watching, _):
        created = call(seats, "POST", "/games", {"game": "the-game", "players": 2, "seed": 5})
        game, host = created["game_id"], created["host_token"]
        tokens = [call(seats, "POST", f"/games/{game}/seats", {"name": name})["token"] for name in ("Ann", "Bob")]
        started = call(seats, "POST", f"/games/{game}/start", {"first_seat": 0}, host)["version"]
        seat_connection, seat = open_stream(seats, f"/games/{game}/events?token={tokens[0]}")
        spectator_connection, spectator = open_stream(watching, f"/games/{game}/events")
        try:
            assert seat.next_event().data["version"] == spectator.next_event().data["version"] == started
            before, versions = spectator_waits(watching), []
            for _ in range(30):
                view = call(seats, "GET", f"/games/{game}")
                if view["status"] != "playing":
                    break
                token = tokens[view["waiting_for"][0]]
                action = call(seats, "GET", f"/games/{game}", token=token)["legal_actions"][-1]
                played = call(seats, "POST", f"/games/{game}/actions", action, token)["version"]
                assert seat.until(played)[-1].data["version"] == played
                versions += [event.data["version"] for event in spectator.until(played)]
                waits = spectator_waits(watching)
                assert (waits["seats"] - before["seats"], waits["timeout"] - before["timeout"]) == (len(versions), 0)
        finally:
            seat_connection.close()
            spectator_connection.close()
    assert len(versions) >= 10 and versions == sorted(set(versions))


def test_the_documented_curl_session() -> None:
    with server(DEV_SERVER) as (port, _):
        script = shell_block("docs/api.md", "### Event stream").replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [word.partition(".")[0] for word in lines[0].split()] == ["id:", "1", "id:", "2", "id:", "3"]
    assert json.loads(lines[1])["version"] == 3 and len(lines) == 2


@pytest.mark.parametrize("command", [GUNICORN, DEV_SERVER], ids=["gunicorn", "python -m service"])
def test_access_logs_hold_the_path_but_never_the_query_token(command: list[str], tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    with server(command, GUNICORN_ACCESS_LOG=str(log)) as (port, process):
        created = call(port, "POST", "/games", {"players": 1})
        token = call(port, "POST", f"/games/{created['game_id']}/seats", {"name": "Ann"})["token"]
        connection, events = open_stream(port, f"/games/{created['game_id']}/events?token={token}")
        events.next_event()
        connection.close()
        process.terminate()
        _, errors = process.communicate(timeout=15)
    written = log.read_text() if "gunicorn" in command else errors.decode()
    assert f"/v1/games/{created['game_id']}/events" in written
    assert token not in written and "token=" not in written

"""The proxy configuration we ship (``deploy/nginx.conf``), run by Debian's nginx before two gunicorn servers over a
Redis of the test's own, limits on: events pass at once, the limits see the address that connected to the proxy
(``TG_TRUSTED_PROXY_HEADER``), not one a client made up, answers are compressed, ``/metrics`` stays inside, and two
bot clients play a whole game through it. Everything listens on 127.0.0.1 and is stopped at the end."""

from __future__ import annotations

import gzip
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from events_reader import EventReader
from redis_cluster import available, free_node_port, redis_server
from servers import ROOT, free_port, running
from test_crashes import Turns, processes_marked, start_followers, watched_games
from test_faults import Traffic, wait_for

from tests.client.test_live_games import play_whole_game

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
pytestmark = pytest.mark.skipif(
    NGINX is None or not available(), reason="nginx (nginx-light) or redis-server is not installed"
)
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]
CREATIONS = 3  # each client address's burst of creations (TG_CREATE_RATE)
RESTART_STREAMS = 40  # streams (and players) through a rolling restart
TURNS = 12  # whole turns each player plays


def nginx_config(directory: Path, port: int, servers: list[int]) -> Path:
    """``deploy/nginx.conf`` listening on ``port`` before ``servers``, logging into ``directory``."""
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    replaced = {
        "listen 8080;": f"listen 127.0.0.1:{port};",
        "server 127.0.0.1:8001 ": f"server 127.0.0.1:{servers[0]} ",
        "server 127.0.0.1:8002 ": f"server 127.0.0.1:{servers[1]} ",
        "/var/log/nginx/": f"{directory}/",
    }
    for shipped, test in replaced.items():
        assert shipped in text, shipped
        text = text.replace(shipped, test)
    path = directory / "nginx.conf"
    path.write_text(text)
    return path


def request(
    port: int, method: str, path: str, body: object = None, source: str = "127.0.0.1", **headers: str
) -> http.client.HTTPResponse:
    """One request to 127.0.0.1:``port`` from the local address ``source``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    data = None if body is None else json.dumps(body).encode()
    connection.request(method, path, data, {"Content-Type": "application/json", **headers})
    return connection.getresponse()


@dataclass(frozen=True)
class Proxied:
    """nginx's port before two gunicorn servers, and each server's test mark (``TG_TEST_MARK``: its processes)."""

    port: int
    marks: tuple[str, str]


@contextmanager
def proxied(directory: Path, **settings: str) -> Iterator[Proxied]:
    """nginx (the shipped configuration) before two gunicorn servers over a Redis of the test's own."""
    redis_port, port, marks = free_node_port(), free_port(), (uuid.uuid4().hex, uuid.uuid4().hex)
    settings = {
        "TG_LIMITS": "on",
        "TG_TRUSTED_PROXY_HEADER": "X-Forwarded-For",
        "WEB_CONCURRENCY": "1",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        **settings,
    }
    with ExitStack() as stack, pytest.MonkeyPatch.context() as environment:
        for name, value in settings.items():
            environment.setenv(name, value)
        stack.enter_context(redis_server(redis_port, directory, config=ROOT / "deploy" / "redis.conf"))
        servers = []
        for mark in marks:
            environment.setenv("TG_TEST_MARK", mark)
            servers.append(stack.enter_context(running(GUNICORN))[0])
        user = ["user root;"] if os.geteuid() == 0 else []  # its workers read and write the test's directory
        command = [str(NGINX), "-c", str(nginx_config(directory, port, servers)), "-p", str(directory)]
        command += [
            "-e",
            str(directory / "error.log"),
            "-g",
            " ".join(["daemon off;", f"pid {directory}/nginx.pid;", *user]),
        ]
        nginx = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    if request(port, "GET", "/v1/health/ready").status == 200:
                        break
                except OSError:
                    time.sleep(0.1)
            yield Proxied(port, marks)
        finally:
            nginx.terminate()
            nginx.wait(timeout=10)


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """nginx's port, before two gunicorn servers; each client address may create ``CREATIONS`` games."""
    with proxied(tmp_path_factory.mktemp("proxy"), TG_CREATE_RATE=f"{CREATIONS}/600") as running_proxy:
        yield running_proxy.port


def test_events_pass_at_once(proxy: int) -> None:
    created = json.loads(request(proxy, "POST", "/v1/games", {"players": 1}).read())
    url = f"/v1/games/{created['game_id']}"
    seat = json.loads(request(proxy, "POST", f"{url}/seats", {"name": "Ann"}).read())
    stream = request(proxy, "GET", f"{url}/events", Authorization=f"Bearer {seat['token']}")
    assert stream.status == 200 and stream.getheader("Content-Type", "").startswith("text/event-stream")
    events = EventReader(iter(lambda: stream.read1(65536), b""))
    assert events.next_event().data["version"] == 1  # the lobby, at once (buffered, it would wait for more bytes)
    assert request(proxy, "POST", f"{url}/start", {}, Authorization=f"Bearer {created['host_token']}").status == 200
    assert events.next_event().data["version"] == 2  # the start, as it happened
    stream.close()


def test_the_limits_see_the_address_that_connected_not_one_the_client_wrote(proxy: int) -> None:
    """Each address's creations are its own, and a client that writes another address in X-Forwarded-For gains
    nothing: nginx replaces the header."""
    made_up = {"X-Forwarded-For": "203.0.113.7"}
    statuses = [request(proxy, "POST", "/v1/games", {"players": 1}, "127.0.0.2", **made_up).status for _ in range(4)]
    assert statuses == [201] * CREATIONS + [429]
    assert request(proxy, "POST", "/v1/games", {"players": 1}, "127.0.0.3").status == 201  # another client


def test_answers_are_compressed_and_metrics_stay_inside(proxy: int) -> None:
    for path in ("/v1/games/catalog", "/web/app.js"):
        answer = request(proxy, "GET", path, **{"Accept-Encoding": "gzip"})
        assert answer.status == 200 and answer.getheader("Content-Encoding") == "gzip", path
        assert gzip.decompress(answer.read())
    assert request(proxy, "GET", "/metrics").status == 404


def test_two_bot_clients_play_a_whole_game_through_the_proxy(proxy: int) -> None:
    url = f"http://127.0.0.1:{proxy}"
    entries = play_whole_game(url, "the-game", ("greedy", "greedy"))
    assert entries


def master(mark: str) -> int:
    """The gunicorn master of the server marked ``mark``: its marked process whose parent is not marked."""
    marked = processes_marked(mark)
    return next(pid for pid, parent in marked.items() if parent not in marked)


def test_a_rolling_restart_under_load_loses_no_move_and_every_stream_resumes(tmp_path: Path) -> None:
    """One server stopped (``TERM``) and the other's workers replaced (``HUP``) while clients play whole turns and
    follow event streams through the proxy: a request cut by a restart is retried by its client with the same
    ``Idempotency-Key`` (safe), every turn is applied once, and every stream resumes with ``Last-Event-ID``, missing
    no version and repeating none."""
    with proxied(tmp_path, TG_CREATE_RATE="1000/1", TG_STREAMS_PER_CLIENT="0") as running_proxy:
        traffic = Traffic(f"http://127.0.0.1:{running_proxy.port}")
        games = list(watched_games(traffic, RESTART_STREAMS))
        followers = start_followers(traffic.base, games)
        players = [Turns(traffic, game_id, token, turns=TURNS) for game_id, token in games]
        threads = [threading.Thread(target=player.run) for player in players]
        for thread in threads:
            thread.start()
        wait_for(lambda: sum(player.answered for player in players) >= RESTART_STREAMS, 60)
        os.kill(master(running_proxy.marks[0]), signal.SIGTERM)  # stopped: nginx sends everything to the other
        wait_for(lambda: sum(player.answered for player in players) >= 2 * RESTART_STREAMS, 60)
        os.kill(master(running_proxy.marks[1]), signal.SIGHUP)  # new workers, the old ones finish and go
        for thread in threads:
            thread.join(180)
        assert not any(thread.is_alive() for thread in threads)
        final = 2 + 3 * TURNS
        for game_id, _ in games:
            seen, view = traffic.call("GET", f"/v1/games/{game_id}")
            assert seen.status == 200 and view["version"] == final  # every turn once
        wait_for(lambda: all(follower.versions[-1] == final for follower in followers), 60)
        for follower in followers:  # each version once, in order, across the reconnections
            assert follower.versions == list(range(follower.versions[0], final + 1))
        cut = sum(player.cut for player in players)
        print(
            f"\nrolling restart through nginx: {RESTART_STREAMS} streams and {RESTART_STREAMS} players; {cut} requests "
            f"cut or refused and retried; every turn applied once; {len(followers)} of {RESTART_STREAMS} streams "
            "resumed without a gap"
        )

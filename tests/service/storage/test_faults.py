"""Fault injection: Redis stopped and restarted under traffic, against the production server (gunicorn, a
subprocess) with the limits on.

Players in threads create, seat, start and play games over real sockets while the test stops its own
``redis-server`` (nothing on disk, so it comes back empty) and starts it again on the same port. Asserted: every
answer is a 2xx, a 4xx, or ``503 store_unavailable`` (never another 5xx, never a dropped connection); the service
answers again after the restart without being restarted itself; and every game anyone created is, read back,
either whole and consistent (all its fields, a state that loads and replays to its log) or absent (only games
created before the restart, which the empty Redis lost).
"""

from __future__ import annotations

import json
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from gameclient import SORTED_DECK
from redis_cluster import available, free_node_port, redis_server
from servers import running

import thegame_core as tg
from service.storage.store import game_key

PLAYERS = 3
#: Redis running; stopped; being started again; running again (empty).
UP, DOWN, STARTING, BACK = "up", "down", "starting", "back"
ENOUGH = 30  # answers of each phase


@dataclass(frozen=True)
class Seen:
    """One answer: the phases in which its request started and ended, its status and error code."""

    started: str
    ended: str
    status: int
    error: str | None


@dataclass
class Traffic:
    """What the players saw: every answer, the games they created (by the phases of their creation), and the
    requests that got no HTTP answer at all."""

    base: str
    phase: str = UP
    answers: list[Seen] = field(default_factory=list)
    games: dict[str, tuple[str, str]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[Seen, Any]:
        headers = {"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        started = self.phase
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, answer = response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            status, answer = error.code, json.loads(error.read())
        seen = Seen(started, self.phase, status, answer.get("error") if isinstance(answer, dict) else None)
        with self.lock:
            self.answers.append(seen)
        return seen, answer

    def play_one(self) -> None:
        """A 1-player game on the sorted deck: lobby, seat, start, then cards 2, 3, ... and turn ends."""
        seen, created = self.call("POST", "/v1/games", {"players": 1, "deck": SORTED_DECK})
        if seen.status != 201:
            return
        with self.lock:
            self.games[created["game_id"]] = (seen.started, seen.ended)
        url = f"/v1/games/{created['game_id']}"
        seen, seat = self.call("POST", f"{url}/seats", {"name": "ann"})
        if seen.status != 201 or self.call("POST", f"{url}/start", {}, created["host_token"])[0].status != 200:
            return
        for card in range(2, 12):
            if self.call("POST", f"{url}/plays", {"card": card, "pile": "asc1"}, seat["token"])[0].status != 200:
                return
            if card % 2 and self.call("POST", f"{url}/turn/end", None, seat["token"])[0].status != 200:
                return

    def player(self) -> None:
        while not self.stop.is_set():
            try:
                self.play_one()
            except (OSError, ValueError) as error:  # no answer, or not JSON: the server failed the client
                with self.lock:
                    self.failures.append(f"{self.phase}: {error!r}")

    def within(self, phase: str) -> list[Seen]:
        """The answers whose requests started and ended in ``phase``."""
        with self.lock:
            return [seen for seen in self.answers if seen.started == seen.ended == phase]

    def successes(self, phase: str) -> int:
        return sum(200 <= seen.status < 300 for seen in self.within(phase))


def wait_for(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)


def play_through(traffic: Traffic, outage: Callable[[], None]) -> None:
    """Players play while ``outage`` happens (it moves ``traffic.phase`` from ``DOWN`` on), then play again; they
    stop at the end."""
    players = [threading.Thread(target=traffic.player) for _ in range(PLAYERS)]
    for player in players:
        player.start()
    try:
        wait_for(lambda: traffic.successes(UP) >= ENOUGH, 30)
        outage()
        traffic.phase = BACK
        wait_for(lambda: traffic.successes(BACK) >= ENOUGH, 30)
    finally:
        traffic.stop.set()
        for player in players:
            player.join(30)


def run_through_a_restart(traffic: Traffic, redis_up: ExitStack, port: int, directory: Path) -> None:
    """Traffic with Redis up, stopped, then started again (empty, same port)."""

    def restart() -> None:
        redis_up.close()
        traffic.phase = DOWN
        wait_for(lambda: len(traffic.within(DOWN)) >= ENOUGH, 30)
        traffic.phase = STARTING
        redis_up.enter_context(redis_server(port, directory))

    play_through(traffic, restart)


def assert_whole(store: redis.Redis, traffic: Traffic, game_id: str) -> None:
    """The stored game has every field, its state loads, and its public log is the log the service serves."""
    fields = store.hgetall(game_key(game_id))
    assert {b"rev", b"meta", b"state"} <= set(fields), fields.keys()
    seen, view = traffic.call("GET", f"/v1/games/{game_id}")
    assert seen.status == 200 and view["version"] == int(fields[b"rev"]) - 1
    _, log = traffic.call("GET", f"/v1/games/{game_id}/log")
    state = tg.loads(fields[b"state"])  # checks card conservation too
    service_facts = ("version", "bot", "auto")  # what the log adds to an action
    assert state.public_log() == [
        {k: v for k, v in entry.items() if k not in service_facts} for entry in log["entries"]
    ]


def assert_absent(traffic: Traffic, game_id: str) -> None:
    seen, _ = traffic.call("GET", f"/v1/games/{game_id}")
    assert (seen.status, seen.error) == (404, "unknown_game")


@pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")
def test_redis_stopped_and_restarted_under_traffic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_node_port()
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{port}/0")
    monkeypatch.setenv("TG_LIMITS", "on")
    for budget in ("TG_CREATE_RATE", "TG_CHANGE_RATE"):
        monkeypatch.setenv(budget, "1000000/1")  # on, never spent: the limits' Redis calls are in every request
    gunicorn = [sys.executable, "-m", "gunicorn", "--config", "service/gunicorn_conf.py", "service:create_app()"]
    with ExitStack() as redis_up:
        redis_up.enter_context(redis_server(port, tmp_path))
        with running(gunicorn) as (web, _):
            traffic = Traffic(f"http://127.0.0.1:{web}")
            run_through_a_restart(traffic, redis_up, port, tmp_path)
            assert not traffic.failures, traffic.failures[:3]
            assert all(seen.status < 500 or seen.error == "store_unavailable" for seen in traffic.answers)
            down = traffic.within(DOWN)
            assert len(down) >= ENOUGH and {(seen.status, seen.error) for seen in down} == {(503, "store_unavailable")}
            assert traffic.successes(BACK) >= ENOUGH  # recovered, and the server was never restarted
            store = redis.Redis(port=port)
            for game_id, (started, ended) in traffic.games.items():
                if ended == UP:
                    assert_absent(traffic, game_id)  # Redis came back empty
                elif started == BACK or store.exists(game_key(game_id)):
                    assert_whole(store, traffic, game_id)
                else:
                    assert_absent(traffic, game_id)

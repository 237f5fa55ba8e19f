"""Crashes under load, against the production server (gunicorn, two workers) over a Redis of the test's own started
with the configuration we ship (``deploy/redis.conf``): what docs/api.md, "Durability", promises.

- Redis killed (``kill -9``) while players play, then started again on its files: no acknowledged move lost, every
  game back, only ``503 store_unavailable`` meanwhile, and every open event stream resumes.
- Both gunicorn workers killed (``kill -9``) while whole turns (three actions each) are in flight: every turn is
  applied whole or not at all, and once only, however the clients retried it (same ``Idempotency-Key``); the
  killed workers' open streams stop counting in ``/metrics``.

Each test prints the figures docs/benchmarks.md ("Crashes") reports (``pytest -s`` shows them).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from gameclient import SORTED_DECK
from redis_cluster import available, free_node_port, redis_server
from servers import ROOT, processes_marked, running
from test_faults import BACK, DOWN, ENOUGH, STARTING, Traffic, play_through, wait_for
from test_metrics import parsed, value

from thegame_core.client.api import Api
from thegame_core.client.stream import Backoff, GaveUp, follow

pytestmark = pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")

SHIPPED = ROOT / "deploy" / "redis.conf"
GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]
STREAMS = 4


@dataclass
class Acknowledged(Traffic):
    """The players' traffic, noting each game's highest version a play or turn end was acknowledged at."""

    moves: dict[str, int] = field(default_factory=dict)
    acknowledged: int = 0

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[Any, Any]:
        seen, answer = super().call(method, path, body, token)
        if seen.status == 200 and path.endswith(("/plays", "/turn/end")):
            game_id = path.split("/")[3]
            with self.lock:
                self.moves[game_id] = max(self.moves.get(game_id, 0), answer["version"])
                self.acknowledged += 1
        return seen, answer


@dataclass
class Follower:
    """One seat's event stream, followed by the bot client's ``follow`` (it reconnects with ``Last-Event-ID``) until
    its stream ends after ``stop()``: it then tries no other server that may have taken the port since."""

    api: Api
    versions: list[int] = field(default_factory=list)
    reconnections: int = 0
    stopped: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        backoff = Backoff(first=0.2, most=1.0, attempts=40, report=self.reconnecting, sleep=self.pause)
        try:
            for view, _, _ in follow(self.api, backoff):
                self.versions.append(view["version"])
        except GaveUp:  # the server is gone: the test is over
            return

    def reconnecting(self, line: str) -> None:
        """The stream ended or failed: ``follow`` reconnects after a pause."""
        self.reconnections += 1

    def pause(self, seconds: float) -> None:
        if self.stopped.wait(seconds):
            raise GaveUp("the test is over")

    def stop(self) -> None:
        self.stopped.set()


def watched_games(traffic: Traffic, count: int) -> Iterator[tuple[str, str]]:
    """``count`` started 1-player games: (game id, seat token)."""
    for _ in range(count):
        _, created = traffic.call("POST", "/v1/games", {"players": 1, "deck": SORTED_DECK})
        url = f"/v1/games/{created['game_id']}"
        _, seat = traffic.call("POST", f"{url}/seats", {"name": "watcher"})
        assert traffic.call("POST", f"{url}/start", {}, created["host_token"])[0].status == 200
        yield created["game_id"], seat["token"]


def start_followers(base: str, games: list[tuple[str, str]]) -> list[Follower]:
    followers = [Follower(Api(base, game_id, token, timeout=10)) for game_id, token in games]
    for follower in followers:
        threading.Thread(target=follower.run, daemon=True).start()
    wait_for(lambda: all(follower.versions for follower in followers), 60)
    assert all(follower.versions for follower in followers)
    return followers


def assert_streams_resume(traffic: Traffic, games: list[tuple[str, str]], followers: list[Follower]) -> None:
    """A play in each watched game reaches its stream, which reconnected by itself."""
    for game_id, token in games:
        seen, _ = traffic.call("POST", f"/v1/games/{game_id}/plays", {"card": 2, "pile": "asc1"}, token)
        assert seen.status == 200
    wait_for(lambda: all(follower.versions[-1] >= 3 for follower in followers), 60)
    assert [follower.versions[-1] for follower in followers] == [3] * len(followers)


def assert_only_503(traffic: Traffic) -> None:
    """Every request had an answer, a 2xx or ``503 store_unavailable``, and play went on after the outage."""
    assert not traffic.failures, traffic.failures[:3]
    assert all(seen.status < 300 or (seen.status, seen.error) == (503, "store_unavailable") for seen in traffic.answers)
    assert traffic.successes(BACK) >= ENOUGH  # recovered, and the service was never restarted


def losses(traffic: Traffic, before: dict[str, int]) -> tuple[int, int]:
    """Games gone, and acknowledged versions missing from the games as they now stand."""
    games = moves = 0
    for game_id in traffic.games:
        seen, view = traffic.call("GET", f"/v1/games/{game_id}")
        games += seen.status == 404
        moves += max(0, before.get(game_id, 0) - (view["version"] if seen.status == 200 else 0))
    return games, moves


@contextmanager
def serving(
    redis_url: str, queue_url: str | None = None, mark: str = ""
) -> Iterator[tuple[Acknowledged, list[tuple[str, str]], list[Follower]]]:
    """gunicorn (two workers) on ``redis_url`` (its job queue on ``queue_url``, needed beside a Redis Cluster), its
    processes marked ``mark`` (``TG_TEST_MARK``, for ``workers``): its traffic, ``STREAMS`` watched games and their
    followers."""
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("REDIS_URL", redis_url)
        if mark:
            environment.setenv("TG_TEST_MARK", mark)
        if queue_url is not None:
            environment.setenv("TG_QUEUE_URL", queue_url)
        environment.setenv("WEB_CONCURRENCY", "2")
        with running(GUNICORN) as (web, _):
            traffic = Acknowledged(f"http://127.0.0.1:{web}")
            games = list(watched_games(traffic, STREAMS))
            followers = start_followers(traffic.base, games)
            try:
                yield traffic, games, followers
            finally:
                for follower in followers:
                    follower.stop()


def test_redis_killed_under_load_loses_no_acknowledged_move(tmp_path: Path) -> None:
    port = free_node_port()
    with ExitStack() as redis_up:
        server = redis_up.enter_context(redis_server(port, tmp_path, config=SHIPPED))
        with serving(f"redis://127.0.0.1:{port}/0") as (traffic, games, followers):
            before: dict[str, int] = {}
            killed = []

            def crash() -> None:
                server.kill()  # SIGKILL, mid-traffic
                server.wait()
                killed.append(time.monotonic())
                traffic.phase = DOWN
                with traffic.lock:
                    before.update(traffic.moves)
                redis_up.close()
                wait_for(lambda: len(traffic.within(DOWN)) >= ENOUGH, 30)
                traffic.phase = STARTING
                redis_up.enter_context(redis_server(port, tmp_path, config=SHIPPED))  # on the same files

            play_through(traffic, crash)
            back = time.monotonic()
            assert_only_503(traffic)
            down = traffic.within(DOWN)
            assert len(down) >= ENOUGH and {(seen.status, seen.error) for seen in down} == {(503, "store_unavailable")}
            assert losses(traffic, before) == (0, 0)
            assert_streams_resume(traffic, games, followers)
            print(
                f"\nRedis kill -9: {len(before)} games in play, none lost nor any acknowledged move; "
                f"{len(traffic.games)} games, all back; {len(down)} answers while down, all 503; "
                f"{back - killed[0]:.1f} s from the kill to play again; {len(followers)} of {STREAMS} streams resumed"
            )


def workers(mark: str) -> set[int]:
    """gunicorn's workers: the marked processes whose parent is marked too (the master)."""
    marked = processes_marked(mark)
    return {pid for pid, parent in marked.items() if parent in marked}


@dataclass
class Turns:
    """One 1-player game played by whole turns (two plays and the turn's end: three versions), each sent until it
    is answered, with the same ``Idempotency-Key``: a retry after a cut connection or a ``503``."""

    traffic: Traffic
    game_id: str
    token: str
    turns: int
    answered: int = 0
    cut: int = 0  # requests that got no answer (their worker was killed), or a 502, 503 or 504: retried
    longest: float = 0.0  # seconds the longest turn took, from its first try to its answer

    def run(self) -> None:
        url = f"/v1/games/{self.game_id}/turns"
        for turn in range(self.turns):
            began = time.monotonic()
            cards = [{"card": 2 + 2 * turn + n, "pile": "asc1"} for n in range(2)]
            request = urllib.request.Request(
                self.traffic.base + url,
                data=json.dumps({"plays": cards, "end_turn": True}).encode(),
                headers={
                    "Content-Type": "application/json",
                    "Authorization": f"Bearer {self.token}",
                    "Idempotency-Key": f"turn-{turn}",
                },
                method="POST",
            )
            for _ in range(200):
                try:
                    with urllib.request.urlopen(request, timeout=10) as answer:
                        assert answer.status == 200
                        self.answered += 1
                        self.longest = max(self.longest, time.monotonic() - began)
                        break
                except urllib.error.HTTPError as refused:  # the store away, or a proxy whose server went
                    assert refused.code in (502, 503, 504), refused.read()
                    self.cut += 1
                except OSError:  # reset, refused, cut short: the worker died under the request
                    self.cut += 1
                time.sleep(0.05)


def test_gunicorn_workers_killed_mid_request_leave_nothing_half_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port, mark = free_node_port(), uuid.uuid4().hex
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{port}/0")
    monkeypatch.setenv("WEB_CONCURRENCY", "2")
    monkeypatch.setenv("TG_TEST_MARK", mark)
    with redis_server(port, tmp_path, config=SHIPPED), running(GUNICORN) as (web, _):
        traffic = Traffic(f"http://127.0.0.1:{web}")
        games = list(watched_games(traffic, 8))
        followers = start_followers(traffic.base, games[:STREAMS])
        players = [Turns(traffic, game_id, token, turns=12) for game_id, token in games]
        threads = [threading.Thread(target=player.run) for player in players]
        for thread in threads:
            thread.start()
        wait_for(lambda: sum(player.answered for player in players) >= 16, 30)
        killed = workers(mark)
        assert len(killed) == 2
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        for thread in threads:
            thread.join(120)
        assert not any(thread.is_alive() for thread in threads)
        respawned = workers(mark)
        assert len(respawned) == 2 and not respawned & killed
        for game_id, _ in games:
            seen, view = traffic.call("GET", f"/v1/games/{game_id}")
            assert seen.status == 200 and view["version"] == 2 + 3 * 12  # every turn once, whole

        def scrape() -> float:
            with urllib.request.urlopen(f"{traffic.base}/metrics", timeout=10) as answer:
                return value(parsed(answer.read().decode()), "tg_open_streams")

        wait_for(lambda: scrape() == STREAMS, 60)
        assert scrape() == STREAMS  # the killed workers' streams no longer count; the reconnected ones do
        for follower in followers:
            follower.stop()
        cut = sum(player.cut for player in players)
        print(
            f"\ngunicorn kill -9 of both workers: {cut} requests cut mid-flight and retried, "
            f"{len(games)} games x 12 whole turns each applied once; {STREAMS} streams counted again"
        )

"""The proxy configuration we ship (``deploy/nginx.conf``), run by Debian's nginx before two gunicorn servers over a
Redis of the test's own, limits on: events pass at once, the limits see the address that connected to the proxy
(``TG_TRUSTED_PROXY_HEADER``), not one a client made up, answers are compressed, ``/metrics`` stays inside, and two
bot clients play a whole game through it. Everything listens on 127.0.0.1 and is stopped at the end."""

from __future__ import annotations

import gzip
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from events_reader import EventReader
from proxy import NGINX, SHIPPED, Proxied, proxied, proxy_answers, request
from redis_cluster import available
from servers import processes_marked
from test_crashes import Follower, Turns, start_followers, watched_games
from test_faults import Traffic, wait_for

from tests.client.test_live_games import play_whole_game

pytestmark = pytest.mark.skipif(
    NGINX is None or not available(), reason="nginx (nginx-light) or redis-server is not installed"
)
CREATIONS = 3  # each client address's burst of creations (TG_CREATE_RATE)
RESTART_STREAMS = 200  # streams (and players) through a rolling restart, as issue 30 asks
TURNS = 12  # whole turns each player plays


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """nginx's port, before two gunicorn servers; each client address may create ``CREATIONS`` games."""
    settings = {"TG_CREATE_RATE": f"{CREATIONS}/600", "TG_STREAM_KEEPALIVE": "1"}  # a closed stream ends at once
    with proxied(tmp_path_factory.mktemp("proxy"), **settings) as running_proxy:
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


def test_a_stopped_server_is_skipped_and_never_leaves_the_proxy_without_one(tmp_path: Path) -> None:
    """With one server stopped (its master gone), every request is answered by the other: nginx tries the stopped
    one now and then (refused) and sends the request on at once, and counting it out never leaves nginx without a
    server (``no live upstreams``, a ``502`` without trying)."""
    with proxied(tmp_path, TG_CREATE_RATE="1000/1") as running_proxy:  # not the module's proxy's limit
        port, mark = running_proxy.port, running_proxy.marks[0]
        os.kill(running_proxy.master(0), signal.SIGTERM)
        wait_for(lambda: not processes_marked(mark), 60)
        statuses = []
        for _ in range(10):
            created = request(port, "POST", "/v1/games", {"players": 1})
            statuses.append(created.status)
            statuses.append(request(port, "GET", f"/v1/games/{json.loads(created.read())['game_id']}").status)
    errors = (tmp_path / "error.log").read_text()
    assert statuses == [201, 200] * 10
    assert "(111: Connection refused) while connecting to upstream" in errors  # tried, and skipped
    assert "no live upstreams" not in errors


@dataclass(frozen=True)
class Restart:
    """What clients saw through a rolling restart: requests cut or refused (each retried until answered), the
    ``502``s the proxy answered (turns and streams), stream reconnections, the longest a turn took (its retries
    included), and the whole run's seconds."""

    streams: int
    cut: int
    bad_gateway: int
    reconnections: int
    longest_turn: float
    seconds: float

    def __str__(self) -> str:
        return (
            f"rolling restart through nginx: {self.streams} streams and {self.streams} players; {self.cut} requests "
            f"cut or refused and retried; {self.bad_gateway} answered 502 by the proxy; every turn applied once; "
            f"{self.streams} of {self.streams} streams resumed without a gap, after {self.reconnections} "
            f"reconnections; longest turn {self.longest_turn:.1f} s (retries included); {self.seconds:.0f} s in all"
        )


def rolling_restart(
    directory: Path, streams: int, turns: int, graceful: int | None = None, config: Path = SHIPPED
) -> Restart:
    """One server stopped (``TERM``) and the other's workers replaced (``HUP``) while ``streams`` players play
    ``turns`` whole turns each and ``streams`` event streams are followed through the proxy: a request cut by a
    restart is retried by its client with the same ``Idempotency-Key`` (safe), every turn is applied once, and every
    stream, once cut by a restart, resumes with ``Last-Event-ID``, missing no version and repeating none (asserted
    here). ``graceful``: gunicorn's ``--graceful-timeout`` (the seconds a stopped worker's streams stay open; the
    config's 10 unless given); ``config``: the proxy's configuration (``deploy/nginx.conf`` unless given)."""
    began = time.monotonic()
    loose = {"TG_CREATE_RATE": "1000/1", "TG_CHANGE_RATE": "10000/1", "TG_STREAMS_PER_CLIENT": "0"}  # one address
    if graceful is not None:
        loose["GUNICORN_CMD_ARGS"] = f"--graceful-timeout {graceful}"
    with proxied(directory, config, **loose) as running_proxy:
        traffic = Traffic(f"http://127.0.0.1:{running_proxy.port}")
        games = list(watched_games(traffic, streams))
        followers = start_followers(traffic.base, games)
        try:
            players = restarted_under_load(running_proxy, traffic, games, turns)
            reconnections = assert_every_stream_resumed(traffic, games, followers, turns)
        finally:
            for follower in followers:
                follower.stop()
    cut, longest = sum(player.cut for player in players), max(player.longest for player in players)
    return Restart(streams, cut, proxy_answers(directory, 502), reconnections, longest, time.monotonic() - began)


def restarted_under_load(
    running_proxy: Proxied, traffic: Traffic, games: list[tuple[str, str]], turns: int
) -> list[Turns]:
    """Each game played ``turns`` whole turns by its player, while server 0 is stopped (``TERM``) once a turn per game
    is answered and server 1's workers are replaced (``HUP``) after a second one: the players, once every turn of
    every game is answered and found applied once."""
    players = [Turns(traffic, game_id, token, turns=turns) for game_id, token in games]
    threads = [threading.Thread(target=player.run) for player in players]
    for thread in threads:
        thread.start()
    wait_for(lambda: sum(player.answered for player in players) >= len(games), 120)
    os.kill(running_proxy.master(0), signal.SIGTERM)  # stopped: nginx sends everything to the other
    wait_for(lambda: sum(player.answered for player in players) >= 2 * len(games), 120)
    os.kill(running_proxy.master(1), signal.SIGHUP)  # new workers, the old ones finish and go
    for thread in threads:
        thread.join(300)
    assert not any(thread.is_alive() for thread in threads)
    for game_id, _ in games:
        seen, view = traffic.call("GET", f"/v1/games/{game_id}")
        assert seen.status == 200 and view["version"] == 2 + 3 * turns  # every turn once
    return players


def assert_every_stream_resumed(
    traffic: Traffic, games: list[tuple[str, str]], followers: list[Follower], turns: int
) -> int:
    """Once every stream has been cut (at least once), one more move in each game after its ``turns`` turns, which
    every stream must show, having received each version once and in order across its reconnections: the
    reconnections."""
    wait_for(lambda: all(follower.reconnections for follower in followers), 120)
    final = 2 + 3 * turns
    move = {"card": 2 * turns + 2, "pile": "asc1"}
    for game_id, token in games:
        assert traffic.call("POST", f"/v1/games/{game_id}/plays", move, token)[0].status == 200
    wait_for(lambda: all(follower.versions[-1] == final + 1 for follower in followers), 120)
    for follower in followers:
        assert follower.versions == list(range(follower.versions[0], final + 2))
    return sum(follower.reconnections for follower in followers)


def test_a_rolling_restart_under_load_loses_no_move_and_every_stream_resumes(tmp_path: Path) -> None:
    """The rolling restart above with ``RESTART_STREAMS`` players and streams, a stopped worker's streams cut after 3 s
    (``bench/rolling_restart.py`` runs it with gunicorn's settings as we ship them: 10 s)."""
    print(f"\n{rolling_restart(tmp_path, RESTART_STREAMS, TURNS, graceful=3)}")

"""A game's end outlives it (its record, log and results), and so do a daily deal's result and a rating: with
``TG_WAIT_REPLICAS``, the write that ends a game, the one that posts a daily result and those that rate a game are
confirmed by that many
replicas (``WAIT``, on the connection that wrote, to the master that holds the key) before they are answered. A Redis
of the test's own and its replica, then a Redis Cluster of three masters and three replicas, on 127.0.0.1; a replica
is stopped (``SIGSTOP``) to show what an unconfirmed write does: it is answered after ``TG_WAIT_MS``, logged and
counted, and on a cluster only the writes on the stopped replica's master wait for it."""

from __future__ import annotations

import logging
import queue
import secrets
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from datetime import date
from pathlib import Path
from typing import Any, cast

import pytest
import redis
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, FakeClock, started
from players_client import Player
from redis_cluster import Cluster, available, cluster_nodes, free_node_port, redis_server
from servers import ROOT
from test_complete_games import win_sorted_game
from test_daily import SECRET, TODAY, YESTERDAY, create, play_to_end
from test_metrics import parsed, value

from service import create_app, metrics
from service.daily.board import Deal
from service.ratings import Ratings
from service.ratings.store import history_key
from service.storage.store import game_key

pytestmark = pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")


@contextmanager
def late(port: int, seconds: float) -> Iterator[int]:
    """A relay on a port of its own to 127.0.0.1:``port`` that hands on what ``port`` answers ``seconds`` late (what
    it is sent goes on at once): a replica that follows the master through it takes each write in that late, and
    acknowledges it as soon as it has it. Its threads end with their connections, closed at the end."""
    listener = socket.create_server(("127.0.0.1", 0))
    opened: list[socket.socket] = [listener]

    def pump(source: socket.socket, target: socket.socket, delay: float) -> None:
        held: queue.Queue[tuple[float, bytes]] = queue.Queue()

        def send() -> None:
            with suppress(OSError):
                while chunk := held.get():  # b"": the source closed
                    time.sleep(max(0.0, chunk[0] + delay - time.monotonic()))
                    target.sendall(chunk[1])

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        with suppress(OSError):
            while data := source.recv(65536):
                held.put((time.monotonic(), data))
        held.put((0.0, b""))

    def serve() -> None:
        with suppress(OSError):
            while True:
                near, _ = listener.accept()
                far = socket.create_connection(("127.0.0.1", port))
                opened.extend((near, far))
                threading.Thread(target=pump, args=(near, far, 0.0), daemon=True).start()
                threading.Thread(target=pump, args=(far, near, seconds), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield listener.getsockname()[1]
    finally:
        for each in opened:
            with suppress(OSError):
                each.shutdown(socket.SHUT_RDWR)
            each.close()


@contextmanager
def master_and_replica(
    directory: Path, late_by: float = 0.0
) -> Iterator[tuple[int, subprocess.Popen[bytes], redis.Redis]]:
    """The master's port, the replica's process and a client of the replica, once it follows the master (through a
    relay that hands it the master's writes ``late_by`` seconds late, if asked)."""
    master, replica = free_node_port(), free_node_port()
    (directory / "master").mkdir()
    (directory / "replica").mkdir()
    config = ROOT / "deploy" / "redis.conf"
    with (
        redis_server(master, directory / "master", config=config),
        late(master, late_by) if late_by else nullcontext(master) as followed,
        redis_server(
            replica, directory / "replica", "--replicaof", "127.0.0.1", str(followed), config=config
        ) as process,
    ):
        follower = redis.Redis(port=replica)
        for _ in range(100):
            if "master_link_status:up" in str(follower.info("replication")):
                break
            follower.connection_pool.disconnect()
            time.sleep(0.1)
        yield master, process, follower
        follower.close()


#: How long a write waits for its replica: long enough that a running replica on a loaded machine (CI's two cores
#: busy with the rest of the suite) always answers in time (300 ms did not, once), short enough that each write held
#: back by a stopped replica costs the test little.
WAIT_MS = 2000


def unconfirmed() -> float:
    """``tg_unconfirmed_writes_total``, as a scrape reads it."""
    return value(parsed(metrics.exposition()[0].decode()), "tg_unconfirmed_writes_total")


def test_the_end_of_a_game_waits_for_its_replica(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with master_and_replica(tmp_path) as (master, replica, follower):
        app = create_app(
            {"REDIS_URL": f"redis://127.0.0.1:{master}/0", "TESTING": True, "WAIT_REPLICAS": 1, "WAIT_MS": WAIT_MS}
        )
        http = app.test_client()
        confirmed = started(http, players=1, deck=SORTED_DECK)
        before = unconfirmed()
        with caplog.at_level(logging.WARNING, logger="service.storage.replicas"):
            win_sorted_game(confirmed)
        key = game_key(confirmed.game_id)
        assert follower.hget(key, "rev") == redis.Redis(port=master).hget(key, "rev")  # the end, on the replica
        assert unconfirmed() == before and "replicas" not in caplog.text

        away = started(http, players=1, deck=SORTED_DECK)
        replica.send_signal(signal.SIGSTOP)  # the replica takes nothing in
        try:
            with caplog.at_level(logging.WARNING, logger="service.storage.replicas"):
                assert away.play(0, 2, "asc1").status_code == 200  # not an end: not waited for
                assert unconfirmed() == before
                win_sorted_game(away)  # its end waits WAIT_MS, then is answered
            assert unconfirmed() == before + 1
            assert f"the end of game {away.game_id} is confirmed by 0 of 1 replicas" in caplog.text
        finally:
            replica.send_signal(signal.SIGCONT)
        assert away.view(0).get_json()["status"] == "won"


def test_a_finished_game_s_longer_expiry_is_confirmed_with_its_end(tmp_path: Path) -> None:
    """A finished game outlives ``TG_FINISHED_TTL`` when a player keeps it in their history (``TG_HISTORY_TTL``) or,
    for a daily game, until the end of the day after its day (the board links it): the write that ends the game sets
    that expiry, so the replica has it once the end is answered. Here the replica takes in each write half a second
    late: an expiry set after the end's ``WAIT`` would not be there yet. (A game on yesterday's deal is practice: no
    result is posted after its end, whose own ``WAIT`` would cover an earlier expiry on a single Redis.)"""
    with master_and_replica(tmp_path, late_by=0.5) as (master, _, follower):
        clock = FakeClock()
        config = {"REDIS_URL": f"redis://127.0.0.1:{master}/0", "TESTING": True, "CLOCK": clock}
        config |= {"WAIT_REPLICAS": 1, "WAIT_MS": WAIT_MS, "DAILY_SECRET": SECRET, "FINISHED_TTL": 60}
        http = create_app(config).test_client()
        practice = create(http, day=YESTERDAY)
        kept = create(http, day=YESTERDAY, headers=Player(http).headers())
        for created, longer in ((practice, 16 * 3600 - 3600), (kept, 89 * 24 * 3600)):  # 08:00 to midnight; 90 days
            play_to_end(http, clock, created)
            assert follower.ttl(game_key(created["game_id"])) > longer, created  # not yet TG_FINISHED_TTL's 60 s


def test_a_rating_waits_for_its_replica(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Rating a game writes its decision, each player's rating and history, and each player's place on the board:
    each write is confirmed by the replica, or answered after ``TG_WAIT_MS``, logged and counted."""
    with master_and_replica(tmp_path) as (master, replica, follower):
        url = f"redis://127.0.0.1:{master}/0"

        def ratings(wait_ms: int) -> Ratings:
            config = {"REDIS_URL": url, "TESTING": True, "WAIT_REPLICAS": 1, "WAIT_MS": wait_ms}
            return cast(Ratings, create_app(config).extensions["service"].ratings)

        players = [secrets.token_urlsafe(12) for _ in range(2)]
        caplog.set_level(logging.WARNING, logger="service.storage.replicas")
        before = unconfirmed()
        ratings(WAIT_MS).rate_game("ninja", "rated-1", [1, 0], players, 1_800_000_000_000)
        assert unconfirmed() == before and "replicas" not in caplog.text
        assert follower.hexists(history_key(players[0], "ninja"), "rated-1")  # on the replica as it was answered

        replica.send_signal(signal.SIGSTOP)  # the replica takes nothing in
        try:  # a short wait: five writes wait for it
            ratings(100).rate_game("ninja", "rated-2", [0, 1], players, 1_800_000_060_000)
        finally:
            replica.send_signal(signal.SIGCONT)
        assert unconfirmed() == before + 5  # the decision, two ratings, two places on the board
        assert "the rating of game rated-2 is confirmed by 0 of 1 replicas" in caplog.text
        assert f"{players[1]}'s rating after game rated-2 is confirmed by 0 of 1 replicas" in caplog.text
        assert f"{players[1]}'s place on the ninja leaderboard is confirmed by 0 of 1 replicas" in caplog.text
        assert ratings(WAIT_MS).current(players[0], "ninja").games == 2  # written all the same


def replica_of(cluster: Cluster, master: int) -> int:
    """The port of ``master``'s replica."""
    for port in cluster.servers:
        if redis.Redis(port=port).info("replication").get("master_port") == master:
            return port
    raise AssertionError(f"no replica follows {master}")


def reader(port: int) -> redis.Redis:
    """A client that reads a cluster replica's own data (``READONLY``: not redirected to its master)."""
    client = redis.Redis(port=port, single_connection_client=True)
    client.execute_command("READONLY")
    return client


def daily_game(http: FlaskClient, client: redis.RedisCluster, away_from: int) -> dict[str, Any]:
    """A new daily game whose key is not on the master ``away_from`` (each game's slot follows its drawn id)."""
    while True:
        created = create(http)
        if client.get_node_from_key(game_key(created["game_id"])).port != away_from:
            return created


def played_with_a_stopped_replica(
    http: FlaskClient, clock: FakeClock, created: dict[str, Any], replica: subprocess.Popen[bytes]
) -> None:
    replica.send_signal(signal.SIGSTOP)
    try:
        assert play_to_end(http, clock, created)["status"] in ("won", "lost")
    finally:
        replica.send_signal(signal.SIGCONT)


def test_on_a_cluster_each_lasting_write_waits_for_its_own_master_s_replica(
    tmp_path: Path, queue_client: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    """The game's end waits for the replica of its game's master, the daily result for the replica of its deal's
    master (both ``WAIT`` on the connection that wrote to that master): a stopped replica holds back only the
    writes of its own master."""
    clock = FakeClock()
    with cluster_nodes(1) as cluster:
        config = {"REDIS_URL": cluster.url, "QUEUE_CLIENT": queue_client, "TESTING": True, "CLOCK": clock}
        config |= {"WAIT_REPLICAS": 1, "WAIT_MS": WAIT_MS, "DAILY_SECRET": SECRET, "DAILY_PREFIX": "test:"}
        app = create_app(config)
        http, client = app.test_client(), app.extensions["service"].store.client
        deal = Deal("the-game", 2, date.fromisoformat(TODAY))
        entries = deal.key("test:", "entries")
        deal_master = client.get_node_from_key(entries).port
        caplog.set_level(logging.WARNING, logger="service.storage.replicas")

        confirmed = daily_game(http, client, away_from=deal_master)
        before = unconfirmed()
        play_to_end(http, clock, confirmed)
        assert unconfirmed() == before and "replicas" not in caplog.text
        key = game_key(confirmed["game_id"])
        game_master = client.get_node_from_key(key).port
        assert reader(replica_of(cluster, game_master)).hget(key, "rev") == client.hget(key, "rev")  # the end
        assert reader(replica_of(cluster, deal_master)).hlen(entries) == 1  # the result

        on_the_deal = daily_game(http, client, away_from=deal_master)
        played_with_a_stopped_replica(http, clock, on_the_deal, cluster.servers[replica_of(cluster, deal_master)])
        assert unconfirmed() == before + 1
        assert "the daily result of" in caplog.text and "the end of game" not in caplog.text

        caplog.clear()
        on_the_game = daily_game(http, client, away_from=deal_master)
        game_master = client.get_node_from_key(game_key(on_the_game["game_id"])).port
        played_with_a_stopped_replica(http, clock, on_the_game, cluster.servers[replica_of(cluster, game_master)])
        assert unconfirmed() == before + 2
        assert f"the end of game {on_the_game['game_id']} is confirmed by 0 of 1" in caplog.text
        assert "daily result" not in caplog.text
        assert app.extensions["service"].daily.board.rank(deal, "nobody").count == 3  # every result posted

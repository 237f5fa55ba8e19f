"""A game's end outlives it (its record, log and results): with ``TG_WAIT_REPLICAS``, the write that ends a game is
confirmed by that many replicas (``WAIT``, on the connection that wrote) before it is answered, where a single
Redis has replicas. A Redis of the test's own and its replica, on 127.0.0.1; the replica is stopped (``SIGSTOP``)
to show what an unconfirmed end does: it is answered after ``TG_WAIT_MS``, logged and counted."""

from __future__ import annotations

import logging
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from gameclient import SORTED_DECK, started
from redis_cluster import available, free_node_port, redis_server
from servers import ROOT
from test_complete_games import win_sorted_game
from test_metrics import parsed, value

from service import create_app, metrics
from service.storage.store import game_key

pytestmark = pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")


@contextmanager
def master_and_replica(directory: Path) -> Iterator[tuple[int, subprocess.Popen[bytes], redis.Redis]]:
    """The master's port, the replica's process and a client of the replica, once it follows the master."""
    master, replica = free_node_port(), free_node_port()
    (directory / "master").mkdir()
    (directory / "replica").mkdir()
    config = ROOT / "deploy" / "redis.conf"
    with (
        redis_server(master, directory / "master", config=config),
        redis_server(replica, directory / "replica", "--replicaof", "127.0.0.1", str(master), config=config) as process,
    ):
        follower = redis.Redis(port=replica)
        for _ in range(100):
            if "master_link_status:up" in str(follower.info("replication")):
                break
            follower.connection_pool.disconnect()
            __import__("time").sleep(0.1)
        yield master, process, follower
        follower.close()


def unconfirmed() -> float:
    """``tg_unconfirmed_writes_total``, as a scrape reads it."""
    return value(parsed(metrics.exposition()[0].decode()), "tg_unconfirmed_writes_total")


def test_the_end_of_a_game_waits_for_its_replica(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with master_and_replica(tmp_path) as (master, replica, follower):
        app = create_app(
            {"REDIS_URL": f"redis://127.0.0.1:{master}/0", "TESTING": True, "WAIT_REPLICAS": 1, "WAIT_MS": 300}
        )
        http = app.test_client()
        confirmed = started(http, players=1, deck=SORTED_DECK)
        before = unconfirmed()
        with caplog.at_level(logging.WARNING, logger="service.storage.store"):
            win_sorted_game(confirmed)
        key = game_key(confirmed.game_id)
        assert follower.hget(key, "rev") == redis.Redis(port=master).hget(key, "rev")  # the end, on the replica
        assert unconfirmed() == before and "replicas" not in caplog.text

        away = started(http, players=1, deck=SORTED_DECK)
        replica.send_signal(signal.SIGSTOP)  # the replica takes nothing in
        try:
            with caplog.at_level(logging.WARNING, logger="service.storage.store"):
                assert away.play(0, 2, "asc1").status_code == 200  # not an end: not waited for
                assert unconfirmed() == before
                win_sorted_game(away)  # its end waits 300 ms, then is answered
            assert unconfirmed() == before + 1
            assert f"the end of game {away.game_id} is confirmed by 0 of 1 replicas" in caplog.text
        finally:
            replica.send_signal(signal.SIGCONT)
        assert away.view(0).get_json()["status"] == "won"

"""A failover under load: a Redis Cluster of three masters and three replicas (started by the test, a node timeout
of one second), the production server (gunicorn, two workers) on it, players and event streams, and one master
killed (``kill -9``) mid-play. Its replica takes over; meanwhile the games on its slots answer ``503
store_unavailable`` and nothing else fails; then play goes on without restarting the service, and every open stream
resumes. Replication is asynchronous, so the failover may lose the writes the replica had not received: the test
counts them (docs/api.md, "Durability"), and prints its figures (``pytest -s``; docs/benchmarks.md, "Crashes").
"""

from __future__ import annotations

import sys
import threading
import time

import pytest
from redis_cluster import available, cluster_nodes
from servers import running
from test_crashes import STREAMS, Acknowledged, assert_streams_resume, start_followers, watched_games
from test_faults import BACK, DOWN, ENOUGH, PLAYERS, UP, wait_for

pytestmark = pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")

GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]
#: Acknowledged moves a failover may lose here: what the replica had not received when its master died, a few
#: milliseconds of writes on this machine (0 in every run so far).
MAY_LOSE = 5


def test_a_master_killed_mid_play_fails_over_to_its_replica(monkeypatch: pytest.MonkeyPatch) -> None:
    with cluster_nodes(1, "--cluster-node-timeout", "1000") as cluster:
        monkeypatch.setenv("REDIS_URL", cluster.url)
        monkeypatch.setenv("WEB_CONCURRENCY", "2")
        with running(GUNICORN) as (web, _):
            traffic = Acknowledged(f"http://127.0.0.1:{web}")
            games = list(watched_games(traffic, STREAMS))
            followers = start_followers(traffic.base, games)
            players = [threading.Thread(target=traffic.player) for _ in range(PLAYERS)]
            for player in players:
                player.start()
            try:
                wait_for(lambda: traffic.successes(UP) >= ENOUGH, 30)
                victim = cluster.masters()[0]
                cluster.servers[victim].kill()
                cluster.servers[victim].wait()
                killed = time.monotonic()
                traffic.phase = DOWN
                with traffic.lock:
                    before = dict(traffic.moves)
                wait_for(lambda: len(cluster.masters()) == 3, 30)  # a replica took the dead master's slots
                promoted = time.monotonic()
                traffic.phase = BACK
                wait_for(lambda: traffic.successes(BACK) >= ENOUGH, 30)
                back = time.monotonic()
            finally:
                traffic.stop.set()
                for player in players:
                    player.join(30)
            assert not traffic.failures, traffic.failures[:3]
            assert all(
                seen.status < 300 or (seen.status, seen.error) == (503, "store_unavailable") for seen in traffic.answers
            )
            assert len(cluster.masters()) == 3 and traffic.successes(BACK) >= ENOUGH
            lost_games = lost_moves = 0
            for game_id in traffic.games:
                seen, view = traffic.call("GET", f"/v1/games/{game_id}")
                lost_games += seen.status == 404
                lost_moves += max(0, before.get(game_id, 0) - (view["version"] if seen.status == 200 else 0))
            assert lost_moves <= MAY_LOSE
            assert_streams_resume(traffic, games, followers)
            refused = sum(seen.status == 503 for seen in traffic.answers)
            print(
                f"\nfailover: master killed, replica promoted {promoted - killed:.1f} s later, play again "
                f"{back - killed:.1f} s after the kill; {refused} answers 503 meanwhile, no other 5xx; "
                f"{len(traffic.answers)} requests, {len(traffic.games)} games, {lost_games} games and {lost_moves} "
                f"acknowledged moves lost; {len(followers)} of {STREAMS} streams resumed"
            )

"""A failover under load: a Redis Cluster of three masters and three replicas (started by the test, a node timeout
of one second), the production server (gunicorn, two workers) on it, players and event streams, and one master
killed (``kill -9``) mid-play. Its replica takes over; meanwhile the games on its slots answer ``503
store_unavailable`` and nothing else fails; then play goes on without restarting the service (not even one of its
workers: the same processes serve before and after), and every open stream resumes. Replication is asynchronous,
so the failover may lose the writes the replica had not received: the test counts them (docs/api.md, "Durability"),
and prints its figures (``pytest -s``; docs/benchmarks.md, "Crashes").
"""

from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path

import pytest
from redis_cluster import available, cluster_nodes, free_node_port, redis_server
from test_crashes import STREAMS, assert_only_503, assert_streams_resume, losses, serving, workers
from test_faults import DOWN, play_through, wait_for

pytestmark = pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")

GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]
#: Acknowledged moves a failover may lose here: what the replica had not received when its master died, a few
#: milliseconds of writes on this machine (0 in every run so far).
MAY_LOSE = 5


def test_a_master_killed_mid_play_fails_over_to_its_replica(tmp_path: Path) -> None:
    queue_port = free_node_port()  # the job queue needs a plain Redis beside the cluster (docs/api.md, "Run it")
    mark = uuid.uuid4().hex  # the server's processes
    with (
        cluster_nodes(1, "--cluster-node-timeout", "1000") as cluster,
        redis_server(queue_port, tmp_path),
        serving(cluster.url, f"redis://127.0.0.1:{queue_port}/0", mark) as (traffic, games, followers),
    ):
        before: dict[str, int] = {}
        times = []
        booted = workers(mark)
        assert len(booted) == 2

        def failover() -> None:
            victim = cluster.masters()[0]
            cluster.servers[victim].kill()
            cluster.servers[victim].wait()
            times.append(time.monotonic())
            traffic.phase = DOWN
            with traffic.lock:
                before.update(traffic.moves)
            wait_for(lambda: len(cluster.masters()) == 3, 30)  # a replica took the dead master's slots
            times.append(time.monotonic())

        play_through(traffic, failover)
        back = time.monotonic()
        assert_only_503(traffic)
        lost_games, lost_moves = losses(traffic, before)
        assert lost_moves <= MAY_LOSE
        assert_streams_resume(traffic, games, followers)
        assert workers(mark) == booted  # no worker restarted: none timed out nor died through the failover
        refused = sum(seen.status == 503 for seen in traffic.answers)
        print(
            f"\nfailover: master killed, replica promoted {times[1] - times[0]:.1f} s later, play again "
            f"{back - times[0]:.1f} s after the kill; {refused} answers 503 meanwhile, no other 5xx; "
            f"{len(traffic.answers)} requests, {len(traffic.games)} games, {lost_games} games and {lost_moves} "
            f"acknowledged versions lost; {len(followers)} of {STREAMS} streams resumed"
        )

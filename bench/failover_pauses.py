"""Whether a master killed in a Redis Cluster stops a gunicorn worker: while clients create players (a transaction
on the cluster) on a worker whose cluster client meets the dead master, the liveness route of the same worker is
asked every 0.2 s. A worker that keeps serving answers it in milliseconds; a pause of the cluster client that blocks
the worker (redis-py's ``time.sleep``, if bound before gevent patched it: docs/api.md, "A Redis Cluster") holds it.

A cluster of three masters without replicas (the dead master's slots stay down: every try meets it) on 127.0.0.1,
gunicorn with one worker as we ship it; prints the slowest liveness answer, and the players' answers (status, seconds):

    .venv/bin/python bench/failover_pauses.py --clients 6 --creations 5
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "service"
sys.path[:0] = [str(ROOT), str(TESTS)]  # the tests' helpers, by name

from redis_cluster import cluster_nodes, free_node_port, redis_server  # noqa: E402
from servers import running  # noqa: E402

GUNICORN = [sys.executable, "-m", "gunicorn", "--config", "python:service.gunicorn_conf", "service:create_app()"]


def timed(base: str, path: str, body: object = None) -> tuple[str, float]:
    """One request: its status (or the error that replaced it) and its seconds."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, {"Content-Type": "application/json"})
    began = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status = str(answer.status)
    except urllib.error.HTTPError as refused:
        status = str(refused.code)
    except OSError as error:
        status = type(error).__name__
    return status, time.monotonic() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=6, help="clients creating players at once")
    parser.add_argument("--creations", type=int, default=5, help="players each client creates")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tg-pauses-") as directory, cluster_nodes() as cluster:
        queue = free_node_port()
        with redis_server(queue, Path(directory)):
            os.environ |= {"REDIS_URL": cluster.url, "TG_QUEUE_URL": f"redis://127.0.0.1:{queue}/0"}
            os.environ["WEB_CONCURRENCY"] = "1"
            with running(GUNICORN) as (port, _):
                base = f"http://127.0.0.1:{port}"
                assert timed(base, "/v1/players", {"name": "ann"})[0] == "201"
                victim = cluster.masters()[0]
                cluster.servers[victim].kill()
                cluster.servers[victim].wait()
                answers: list[tuple[str, float]] = []

                def client() -> None:
                    for _ in range(options.creations):
                        answers.append(timed(base, "/v1/players", {"name": "ann"}))

                clients = [threading.Thread(target=client) for _ in range(options.clients)]
                for thread in clients:
                    thread.start()
                lives, deadline = [timed(base, "/v1/health/live")[1]], time.monotonic() + 120
                while any(thread.is_alive() for thread in clients) and time.monotonic() < deadline:
                    time.sleep(0.2)
                    lives.append(timed(base, "/v1/health/live")[1])
                for thread in clients:
                    thread.join(60)
    print(f"liveness asked {len(lives)} times during the creations: slowest answer {max(lives) * 1000:.1f} ms")
    statuses = {status: sum(seen == status for seen, _ in answers) for status in sorted({s for s, _ in answers})}
    print(f"{len(answers)} creations: {statuses}; slowest {max(seconds for _, seconds in answers):.2f} s")


if __name__ == "__main__":
    main()

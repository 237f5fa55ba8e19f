"""``python -m service worker``: worker processes of the job queue on a Redis of the test's own. A worker killed
(SIGKILL) in the middle of an analysis loses nothing: once its heartbeat is missed the queue gives its job to the
next worker, which works it out and stores it once, the same analysis as offline."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest
from flask.testing import FlaskClient
from redis_cluster import available, free_node_port, redis_server
from servers import ROOT
from test_analysis_http import ended

from service import create_app
from service.analysis.work import BOT, seed_of
from thegame_core.analysis import analyse

#: Enough playouts that the one decision takes seconds: the worker is killed while at it.
ROLLOUTS = 600
HEARTBEAT_MS = 1500
WAIT = 120  # seconds a step may take on a loaded machine before the test gives up


@pytest.fixture
def redis_url() -> Iterator[str]:
    if not available():
        pytest.skip("TG_REDIS_SERVERS=off, or redis-server is not installed")
    port = free_node_port()
    with tempfile.TemporaryDirectory() as folder, redis_server(port, Path(folder)):
        yield f"redis://127.0.0.1:{port}/0"


def worker(redis_url: str, log: IO[bytes]) -> subprocess.Popen[bytes]:
    environment = {
        **os.environ,
        "REDIS_URL": redis_url,
        "TG_QUEUE_URL": "",
        "TG_ANALYSIS_ROLLOUTS": str(ROLLOUTS),
        "TG_QUEUE_HEARTBEAT_MS": str(HEARTBEAT_MS),
    }
    command = [sys.executable, "-m", "service", "worker"]
    return subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=log)


def until(condition: object, what: str, log: IO[bytes]) -> None:
    ends = time.monotonic() + WAIT
    while time.monotonic() < ends:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    log.seek(0)
    raise AssertionError(f"{what}: not within {WAIT} s; the workers said:\n{log.read().decode()[-3000:]}")


@pytest.fixture
def log() -> Iterator[IO[bytes]]:
    """The workers' standard error, shown when a step does not come."""
    with tempfile.TemporaryFile() as file:
        yield file


def test_a_worker_killed_mid_analysis_hands_it_to_the_next_which_stores_it_once(redis_url: str, log: IO[bytes]) -> None:
    settings = {
        "REDIS_URL": redis_url,
        "TESTING": True,
        "ANALYSIS_ROLLOUTS": ROLLOUTS,
        "QUEUE_HEARTBEAT_MS": HEARTBEAT_MS,
    }
    app = create_app(settings)
    http: FlaskClient = app.test_client()
    analyses = app.extensions["service"].analyses
    game, _ = ended(http)
    assert http.get(f"/v1/games/{game}/analysis").status_code == 202  # queued: this process never works it out
    first = worker(redis_url, log)
    try:
        until(lambda: getattr(analyses.queue.waiting(game), "position", None) == 0, "the first worker began", log)
        assert analyses.store.result(game) is None
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        first.kill()
    assert analyses.store.result(game) is None, "killed before it was done"
    second = worker(redis_url, log)
    try:
        until(lambda: analyses.store.result(game) is not None, "the next worker stored it", log)
        answer = http.get(f"/v1/games/{game}/analysis")
        assert answer.status_code == 200
        replay = http.get(f"/v1/games/{game}/log").json["replay"]  # type: ignore[index]
        assert answer.json == analyse(replay, BOT, ROLLOUTS, seed_of(game)).to_dict()
        until(lambda: analyses.queue.waiting(game) is None, "off the queue", log)
        assert analyses.queue.client.llen(f"{app.extensions['service'].jobs.namespace}:analysis") == 0
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(timeout=30) == 0  # a stop asked for: the worker ends cleanly

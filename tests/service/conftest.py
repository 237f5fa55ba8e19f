"""Fixtures: an app per test over fakeredis, or over the real Redis at $REDIS_URL (CI sets it).

xdist-safe: every game has a random id, so parallel workers never touch each other's keys; nothing is
ever flushed: the tests' games expire after TEST_TTL seconds instead.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import fakeredis
import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock
from lobbies import Lobbies
from redis_cluster import available, redis_cluster

from service import create_app
from service.ratings import rated_games

#: The tests mirror the service's packages (http/, api/, play/, clock/, storage/, streams/, limits/, web/). They
#: import the helpers beside this file, and each other by name (test_cluster runs other folders' tests again on a
#: Redis Cluster): every folder is on the path. Test module names are unique across the folders.
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(folder) for folder in sorted(HERE.iterdir()) if any(folder.glob("test_*.py"))]

REDIS_URL = os.environ.get("REDIS_URL") or None
TEST_TTL = 300
TTLS = {
    "LOBBY_TTL": TEST_TTL,
    "GAME_TTL": TEST_TTL,
    "FINISHED_TTL": TEST_TTL,
    "HISTORY_TTL": TEST_TTL,
    "PLAYER_TTL": TEST_TTL,
    "DAILY_TTL": TEST_TTL,
}
#: Whole games of bots alone play at once here (test_reactions.py checks the floor production keeps).
NO_FLOOR = {"BOTS_ALONE_MS": 0}


@pytest.fixture
def connect() -> Iterator[Callable[[], redis.Redis]]:
    """New clients of one store: the real Redis, or one fakeredis server (apps sharing it model processes)."""
    server = fakeredis.FakeServer()
    clients: list[redis.Redis] = []

    def new_client() -> redis.Redis:
        client = redis.Redis.from_url(REDIS_URL) if REDIS_URL else fakeredis.FakeRedis(server=server)
        clients.append(client)
        return client

    yield new_client
    for client in clients:
        client.close()


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """A local Redis Cluster of three masters, started once per test process (each xdist worker has its own)."""
    if not available():
        pytest.skip("TG_REDIS_SERVERS=off, or redis-server and redis-cli are not installed")
    with redis_cluster() as url:
        yield url


@pytest.fixture
def redis_client(connect: Callable[[], redis.Redis]) -> redis.Redis:
    return connect()


@pytest.fixture
def queue_client() -> Iterator[redis.Redis]:
    """The job queue's plain Redis: the real one at $REDIS_URL (also beside a Redis Cluster of games, as in
    production), or a fakeredis of its own."""
    client = redis.Redis.from_url(REDIS_URL) if REDIS_URL else fakeredis.FakeRedis()
    yield client
    client.close()


@pytest.fixture
def make_app(redis_client: redis.Redis, queue_client: redis.Redis) -> Iterator[Callable[..., Flask]]:
    """Apps on one store and one job queue of the test's own, whose jobs run in a thread of the app that sends one
    (stopped after the test)."""
    apps: list[Flask] = []
    queue = {"QUEUE_CLIENT": queue_client, "QUEUE_NAMESPACE": f"test-jobs-{secrets.token_hex(8)}", "QUEUE_THREAD": True}

    def make(**config: Any) -> Flask:
        settings = {"REDIS_URL": REDIS_URL, "REDIS_CLIENT": redis_client, "TESTING": True, **TTLS, **NO_FLOOR, **queue}
        app = create_app({**settings, **config})
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["service"].jobs.stop()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app()


@pytest.fixture
def http(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def rated_app(make_app: Callable[..., Flask], redis_client: redis.Redis) -> Iterator[Flask]:
    """An app whose leaderboards are the test's own (a prefix of their own), dropped after it: tests sharing a
    Redis never see each other's boards."""
    app = make_app(RATINGS_PREFIX=f"test-{secrets.token_hex(6)}:")
    yield app
    boards = app.extensions["service"].ratings.boards
    redis_client.delete(*(key for game in rated_games() for key in boards.keys(game)))


@pytest.fixture
def rated_http(rated_app: Flask) -> FlaskClient:
    return rated_app.test_client()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def timed(make_app: Callable[..., Flask], clock: FakeClock) -> FlaskClient:
    """A client of an app whose clock the test moves (``clock.advance``)."""
    return make_app(CLOCK=clock).test_client()


@pytest.fixture
def lobbies(make_app: Callable[..., Flask]) -> Lobbies:
    """An app with a lobby index of its own and a clock the test moves (``lobbies.py``)."""
    return Lobbies(make_app)

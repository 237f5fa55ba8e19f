"""Fixtures: an app per test over fakeredis, or over the real Redis at $REDIS_URL (CI sets it).

xdist-safe: every game has a random id, so parallel workers never touch each other's keys; nothing is
ever flushed: the tests' games expire after TEST_TTL seconds instead.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import fakeredis
import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service import create_app

REDIS_URL = os.environ.get("REDIS_URL") or None
TEST_TTL = 300
TTLS = {"LOBBY_TTL": TEST_TTL, "GAME_TTL": TEST_TTL, "FINISHED_TTL": TEST_TTL}


@pytest.fixture
def redis_client() -> Iterator[redis.Redis]:
    """One store shared by every app of a test (two apps model two server processes)."""
    client = redis.Redis.from_url(REDIS_URL) if REDIS_URL else fakeredis.FakeRedis(server=fakeredis.FakeServer())
    yield client
    client.close()


@pytest.fixture
def make_app(redis_client: redis.Redis) -> Callable[..., Flask]:
    def make(**config: Any) -> Flask:
        return create_app({"REDIS_URL": REDIS_URL, "REDIS_CLIENT": redis_client, "TESTING": True, **TTLS, **config})

    return make


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app()


@pytest.fixture
def http(app: Flask) -> FlaskClient:
    return app.test_client()

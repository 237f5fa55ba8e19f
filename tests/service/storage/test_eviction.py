"""The shipped Redis configuration (``deploy/redis.conf``) persists every write and never evicts, and the service
refuses to serve a Redis that may evict (every game key has a TTL, so ``volatile-*`` policies drop live games)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask.testing import FlaskClient
from redis_cluster import available, free_node_port, redis_server
from servers import ROOT

from service import create_app

pytestmark = pytest.mark.skipif(not available(), reason="TG_REDIS_SERVERS=off, or redis-server is not installed")

SHIPPED = ROOT / "deploy" / "redis.conf"


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[redis.Redis]:
    """A Redis of the test's own, as the shipped configuration starts it."""
    port = free_node_port()
    with redis_server(port, tmp_path, config=SHIPPED):
        client = redis.Redis(port=port)
        yield client
        client.close()


def test_the_shipped_configuration_appends_every_write_synced_each_second_and_never_evicts(
    own_redis: redis.Redis,
) -> None:
    settings = own_redis.config_get("appendonly", "appendfsync", "maxmemory-policy")
    assert settings == {"appendonly": "yes", "appendfsync": "everysec", "maxmemory-policy": "noeviction"}


def app_on(client: redis.Redis) -> FlaskClient:
    port = client.connection_pool.connection_kwargs["port"]
    return create_app({"REDIS_URL": f"redis://127.0.0.1:{port}/0", "TESTING": True}).test_client()


def error_of(response: object) -> tuple[int, str]:
    body = response.get_json()  # type: ignore[attr-defined]
    return response.status_code, body["error"]  # type: ignore[attr-defined]


def test_a_redis_that_may_evict_is_refused_at_start_and_served_once_it_no_longer_may(
    own_redis: redis.Redis, caplog: pytest.LogCaptureFixture
) -> None:
    own_redis.config_set("maxmemory-policy", "volatile-lru")
    with caplog.at_level(logging.ERROR, logger="service.storage.eviction"):
        http = app_on(own_redis)
    assert "refusing to serve: Redis may evict live games (maxmemory-policy volatile-lru)" in caplog.text
    for response in (http.get("/v1/health"), http.post("/v1/games", json={"players": 1}), http.get("/")):
        assert error_of(response) == (503, "store_may_evict") and response.headers["Retry-After"]
    assert own_redis.dbsize() == 0  # nothing was written
    own_redis.config_set("maxmemory-policy", "noeviction")
    assert http.get("/v1/health").status_code == 200  # the health check looks again
    assert http.post("/v1/games", json={"players": 1}).status_code == 201


def test_a_policy_changed_while_serving_is_noticed_by_the_next_health_check(own_redis: redis.Redis) -> None:
    http = app_on(own_redis)
    assert http.post("/v1/games", json={"players": 1}).status_code == 201
    own_redis.config_set("maxmemory-policy", "allkeys-lru")
    assert error_of(http.get("/v1/health")) == (503, "store_may_evict")
    assert error_of(http.post("/v1/games", json={"players": 1})) == (503, "store_may_evict")

"""The Redis client of a process: Redis, a Redis Cluster, or an embedded fakeredis, from ``REDIS_URL``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import fakeredis
import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode
from redis.exceptions import RedisClusterException
from redis.retry import Retry

#: What a store that cannot answer raises: any Redis error, or a cluster none of whose nodes answers.
STORE_FAILURES = (redis.RedisError, RedisClusterException)
#: ``REDIS_URL`` schemes naming a Redis Cluster (any one node: the client discovers the others) -> the plain scheme.
CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
REDIS_TIMEOUTS = {"socket_connect_timeout": 2, "socket_timeout": 5}
#: Connections to one Redis per process, shared by its requests and streams. Under gevent a burst of greenlets
#: (thousands of streams woken or opened at once) waits for a free one, up to 5 s, instead of failing as
#: redis-py's default pool does past 100.
REDIS_CONNECTIONS = 64
#: How often a cluster client tries a command or transaction again after a node failed (redis-py's default), at once
#: rather than after redis-py's growing pauses: each try refreshes the cluster's slots, and past the last the request
#: answers ``503 store_unavailable`` at once (clients send it again) instead of holding its reader through the
#: failover (a player's creation waited up to 24 s with the pauses: ``bench/failover_pauses.py``).
CLUSTER_RETRIES = 10


def redis_client(settings: Mapping[str, Any]) -> redis.Redis | redis.RedisCluster:
    """The configured client: an injected one, Redis or a Redis Cluster at ``REDIS_URL``, or an embedded fakeredis.
    A cluster client learns the cluster's nodes and slots here, so one of the URL's nodes must answer at start."""
    if settings.get("REDIS_CLIENT") is not None:
        return settings["REDIS_CLIENT"]  # type: ignore[no-any-return]
    url = settings["REDIS_URL"]
    if not url:
        return fakeredis.FakeRedis()
    scheme, _, rest = url.partition("://")
    if scheme in CLUSTER_SCHEMES:
        first, others = seed_nodes(rest)
        retry = Retry(NoBackoff(), CLUSTER_RETRIES)
        return redis.RedisCluster.from_url(
            f"{CLUSTER_SCHEMES[scheme]}://{first}", startup_nodes=others, retry=retry, **REDIS_TIMEOUTS
        )
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=5, **REDIS_TIMEOUTS)
    return redis.Redis(connection_pool=pool)


def queue_client(settings: Mapping[str, Any], store: redis.Redis | redis.RedisCluster) -> redis.Redis:
    """The job queue's plain Redis: an injected one, the one at ``QUEUE_URL`` (``TG_QUEUE_URL``), else the store's
    own (the Redis at ``REDIS_URL``, or the embedded store)."""
    if settings.get("QUEUE_CLIENT") is not None:
        return settings["QUEUE_CLIENT"]  # type: ignore[no-any-return]
    url = settings.get("QUEUE_URL")
    if url:
        return redis.Redis.from_url(url, **REDIS_TIMEOUTS)
    if isinstance(store, redis.RedisCluster):
        raise ValueError("the job queue needs a plain Redis: set TG_QUEUE_URL (service/jobs.py says why)")
    return store


def seed_nodes(rest: str) -> tuple[str, list[ClusterNode]]:
    """A cluster URL's part after the scheme, with its nodes split: the URL of the first (its user, password and
    path kept) and the others (``h1:7000,h2:7000,h3:7000/0``). Several nodes let a worker that starts while one of
    them is down (a master killed, before or after its replica took over) still find the cluster: with one, every
    worker that restarted then would fail to start, and gunicorn stops when a worker cannot boot."""
    netloc, slash, path = rest.partition("/")
    user, at, hosts = netloc.rpartition("@")
    first, *others = hosts.split(",")
    nodes = [ClusterNode(*_host_port(node)) for node in others if node]  # type: ignore[no-untyped-call]
    return f"{user}{at}{first}{slash}{path}", nodes


def _host_port(node: str) -> tuple[str, int]:
    host, _, port = node.rpartition(":")
    return (host, int(port)) if host else (node, 6379)

"""Writes that outlive their game (its end, a daily result), confirmed by replicas before they are answered.

Redis replicates asynchronously: a master that dies loses what its replicas had not received, and a failover
promotes one of them. ``WAIT <replicas> <ms>`` blocks until that many replicas have acknowledged every write made
*on its own connection*, so the write and ``WAIT`` go as one pipeline down one connection to the master that holds
the key: the single Redis, or on a Redis Cluster the master of the key's slot. (The cluster client would send a
``WAIT``, which names no key, to every master on other connections: each would answer at once, confirming nothing.)
A write the replicas do not confirm within ``wait_ms`` stands (the master has it and sends it on): it is answered,
logged and counted (``tg_unconfirmed_writes``).
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from redis.commands.core import Script

from .. import metrics

log = logging.getLogger(__name__)


class Replicas:
    """How many replicas confirm a lasting write, and for how long (ms) it waits for them (0 replicas: none)."""

    def __init__(self, client: redis.Redis | redis.RedisCluster, count: int, wait_ms: int) -> None:
        self.client, self.count, self.wait_ms = client, count, wait_ms

    def run(self, script: Script, keys: list[str], args: list[str | int], what: str) -> Any:
        """``script``'s answer, once ``count`` replicas have its write (``wait_ms`` at most). The script answers
        ``1`` when it wrote; ``what`` names the write in the log line of an unconfirmed one."""
        if not self.count:
            return script(keys=keys, args=args)
        with self._master(keys[0]).pipeline(transaction=False) as pipeline:
            script(keys=keys, args=args, client=pipeline)
            pipeline.wait(self.count, self.wait_ms)
            answer, confirmed = pipeline.execute()
        if answer == 1 and int(confirmed) < self.count:
            log.warning("%s is confirmed by %s of %s replicas", what, confirmed, self.count)
            metrics.get().unconfirmed.inc()
        return answer

    def _master(self, key: str) -> redis.Redis:
        """A client of the master holding ``key``: on a cluster, its slot's master as the client's slot table
        says (after a failover the cluster client's other commands, such as the load before a write, renew it)."""
        if isinstance(self.client, redis.RedisCluster):
            return self.client.get_redis_connection(self.client.get_node_from_key(key))  # type: ignore[no-untyped-call]
        return self.client

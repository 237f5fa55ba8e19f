"""The store's eviction policy, checked: a Redis that may evict keys would drop live games without a word.

Every game key has a TTL, so ``volatile-*`` policies would pick games when memory runs short, and ``allkeys-*``
ones too. Only ``noeviction`` (a full Redis refuses writes: ``503``, nothing lost) is safe. The check reads
``INFO memory`` (allowed where ``CONFIG`` is renamed away, as managed Redis services do) on every node the client
knows, replicas included: a replica becomes the master after a failover.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import fakeredis
import redis

from ..errors import ApiError
from .redis_client import STORE_FAILURES

log = logging.getLogger(__name__)

SAFE_POLICY = "noeviction"


def eviction_policies(client: redis.Redis | redis.RedisCluster) -> set[str]:
    """The ``maxmemory-policy`` of every node (the embedded store never evicts)."""
    if isinstance(client, fakeredis.FakeRedis):
        return {SAFE_POLICY}
    if isinstance(client, redis.RedisCluster):
        every = client.get_nodes()  # type: ignore[no-untyped-call]
        nodes = [node.redis_connection for node in every if node.redis_connection is not None]
    else:
        nodes = [client]
    return {str(node.info("memory")["maxmemory_policy"]) for node in nodes}


@dataclass
class EvictionGuard:
    """Whether the process refuses to serve because its Redis may evict: set at start and by every readiness
    check (so a Redis reconfigured with ``CONFIG SET maxmemory-policy noeviction`` is served again at once)."""

    client: redis.Redis | redis.RedisCluster
    refused: str | None = None  # the unsafe policies, as logged; None: served

    def check(self) -> None:
        """Read the policies; log when the verdict changes. A Redis that cannot be reached raises."""
        unsafe = sorted(eviction_policies(self.client) - {SAFE_POLICY})
        refused = ", ".join(unsafe) or None
        if refused and refused != self.refused:
            log.error(
                "refusing to serve: Redis may evict live games (maxmemory-policy %s); set maxmemory-policy "
                "noeviction (deploy/redis.conf)",
                refused,
            )
        elif self.refused and not refused:
            log.warning("Redis now has maxmemory-policy noeviction: serving again")
        self.refused = refused

    def check_at_start(self) -> None:
        """The first check; a Redis away at start is no reason not to start (readiness tells, and checks again)."""
        try:
            self.check()
        except STORE_FAILURES as error:
            log.warning("store unavailable at start (%s): its eviction policy is checked when it answers", error)

    def refusal(self) -> ApiError | None:
        """The answer to every request while the policy is unsafe."""
        if self.refused is None:
            return None
        return ApiError("store_may_evict", f"the game store may evict live games (maxmemory-policy {self.refused})")

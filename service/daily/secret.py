"""The secret daily deals are keyed by: without it nobody can deal a day before the server publishes its seed.

``TG_DAILY_SECRET`` when set (every process of the service must be given the same one); else 32 random bytes drawn
by the first process that needs them and kept in Redis (``SET NX``, no expiry), so every process agrees without
configuration. Losing that key (a flushed store) changes every deal not yet played.
"""

from __future__ import annotations

import secrets

import redis


class DailySecret:
    """The secret, read once per process."""

    def __init__(self, client: redis.Redis | redis.RedisCluster, key: str, configured: str | None) -> None:
        self.client = client
        self.key = key
        self.value = None if not configured else configured.encode()

    def get(self) -> bytes:
        if self.value is None:
            self.client.set(self.key, secrets.token_hex(32), nx=True)
            stored = self.client.get(self.key)
            assert stored is not None, "the daily secret was just written"
            self.value = stored if isinstance(stored, bytes) else str(stored).encode()
        return self.value

"""GameStore: one Redis hash per game, changed only by optimistic compare-and-set transactions.

Key ``tg:{<game_id>}:game`` (the hash tag keeps a game on one Redis Cluster slot) holds the fields
``meta`` (the service record), ``state`` (``thegame_core.dumps``) and one ``i:<digest of caller and key>`` per
remembered Idempotency-Key. A change WATCHes the key, reads, computes in Python, and writes in
MULTI/EXEC: a concurrent writer makes EXEC fail and the change is recomputed from the new data, so no
update is lost, nothing is applied twice and nothing is half-written.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import redis

from .errors import ApiError

T = TypeVar("T")


def game_key(game_id: str) -> str:
    return f"tg:{{{game_id}}}:game"


@dataclass(frozen=True)
class Snapshot:
    """The stored fields of one game as read (``None`` where absent)."""

    meta: str | None
    state: str | None
    idem: str | None = None


@dataclass
class Change(Generic[T]):
    """What a transaction computed: fields to write (none: read only) and their TTL, or the game's
    deletion, and the result."""

    result: T
    writes: dict[str, str] = field(default_factory=dict)
    ttl: int = 0
    delete: bool = False


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def _read(connection: redis.Redis | redis.client.Pipeline, key: str, idem_field: str | None) -> Snapshot:
    values = connection.hmget(key, ["meta", "state", idem_field or "meta"])
    meta, state, idem = (_text(value) for value in values)
    return Snapshot(meta, state, idem if idem_field else None)


class GameStore:
    """Load and change games atomically over any redis-py client (real Redis or fakeredis)."""

    def __init__(self, client: redis.Redis, retries: int) -> None:
        self.client = client
        self.retries = retries

    def ping(self) -> None:
        self.client.ping()

    def create(self, game_id: str, fields: dict[str, str], ttl: int) -> bool:
        """Write a new game; ``False`` if the id is already taken (nothing written then)."""
        key = game_key(game_id)
        with self.client.pipeline() as pipe:
            pipe.watch(key)  # type: ignore[no-untyped-call]
            if pipe.exists(key):
                return False
            pipe.multi()
            pipe.hset(key, mapping=dict[Any, Any](fields))
            pipe.expire(key, ttl)
            try:
                pipe.execute()
            except redis.WatchError:
                return False
        return True

    def load(self, game_id: str, idem_field: str | None = None) -> Snapshot:
        return _read(self.client, game_key(game_id), idem_field)

    def transact(self, game_id: str, idem_field: str | None, compute: Callable[[Snapshot], Change[T]]) -> T:
        """Run ``compute`` on the current fields and write its result if nobody wrote in between.

        ``compute`` is pure (it may run several times); its ``ApiError`` aborts without writing.
        """
        key = game_key(game_id)
        for attempt in range(self.retries):
            with self.client.pipeline() as pipe:
                pipe.watch(key)  # type: ignore[no-untyped-call]
                change = compute(_read(pipe, key, idem_field))
                if not change.writes and not change.delete:
                    return change.result
                pipe.multi()
                if change.delete:
                    pipe.delete(key)
                else:
                    pipe.hset(key, mapping=dict[Any, Any](change.writes))
                    pipe.expire(key, change.ttl)
                try:
                    pipe.execute()
                except redis.WatchError:
                    time.sleep(random.uniform(0, 0.002 * (attempt + 1)))  # spread the retries of a crowd
                    continue
                return change.result
        raise ApiError("store_busy", "too many concurrent changes to this game; retry")

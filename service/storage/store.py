"""GameStore: one Redis hash per game, changed only by compare-and-set on its revision.

Key ``tg:{<game_id>}:game`` (the hash tag keeps a game on one Redis Cluster slot) holds the fields
``rev`` (the revision, +1 per write), ``w`` (the last write's token), ``meta`` (the service record), ``state``
(``thegame_core.dumps``)
and one ``k:<digest of the caller>`` per caller with remembered Idempotency-Keys (its newest answers).
A write that would make the game larger than the store's bound (``TG_MAX_GAME_BYTES``) is refused by the
script itself.

A change reads the fields (one ``HMGET``; with limits on, one script that also charges the caller's
change budget, a field of ``tg:{<game_id>}:rate`` for its host or seat), computes in Python, and writes with one
Lua script that applies the writes only if ``rev`` is still the one read: Redis runs a script atomically, so a
concurrent writer makes it refuse and the change is recomputed from the new data. No update is lost,
nothing is applied twice, nothing is half-written; and a change costs two round trips, not the
three of WATCH / read / MULTI-EXEC.

Every write (a deletion too) also publishes the game's key on ``CHANGES``, from inside the same script: a
change is announced if and only if it is stored, with no window in between, to the event streams of every
server process (``service/streams/hub.py``). ``PUBLISH`` names no key, so the script stays on the game's slot in a
Redis Cluster (which forwards the message to every node).
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar, overload

import redis

from ..errors import ApiError
from ..records.game_record import GameRecord
from .replicas import Replicas
from .scripts import lua

T = TypeVar("T")

#: The Pub/Sub channel on which every write of a game publishes the game's key (named in ``lua/compare_and_set.lua``).
CHANGES = "tg:changes"


def game_key(game_id: str) -> str:
    return f"tg:{{{game_id}}}:game"


def budget_key(game_id: str) -> str:
    """The change budgets of a game's host and seats, one hash field each (``lua/load_charging.lua``), on its
    game's slot: a token belongs to one game, and a seat taken again with a fresh token keeps its spent budget."""
    return f"tg:{{{game_id}}}:rate"


def seat_streams_key(game_id: str) -> str:
    """The server processes holding event streams of the game's seats, on its game's slot: one hash field per
    process, holding until when (epoch seconds; ``service/streams/hub.py``)."""
    return f"tg:{{{game_id}}}:seat-streams"


@dataclass(frozen=True)
class Snapshot:
    """The stored fields of one game as read (``None`` where absent)."""

    meta: str | None
    state: str | None
    idem: str | None = None
    rev: str = ""
    wait_ms: int = 0  # the charged token's budget: ms to wait (0: charged, or nothing charged)

    def record(self) -> GameRecord:
        """The game's record; ``404 unknown_game`` if there is no such game (or it has expired)."""
        record = GameRecord.load(self.meta, self.state)
        if record is None:
            raise ApiError("unknown_game", "no such game (it may have expired)")
        return record


@dataclass(frozen=True)
class Charge:
    """A token's change budget (``limits``), charged in the same call that loads its game, if it is the game's."""

    digest: str
    now_ms: int
    interval_ms: int
    burst: int


@dataclass
class Change(Generic[T]):
    """What a transaction computed: fields to write (none: read only) and their TTL, or the game's
    deletion, and the result."""

    result: T
    writes: dict[str, str] = field(default_factory=dict)
    ttl: int = 0
    delete: bool = False
    lasting: bool = False  # it writes what outlives the game (its end): confirmed on replicas where asked


@overload
def text(value: bytes | str) -> str: ...
@overload
def text(value: None) -> None: ...
def text(value: bytes | str | None) -> str | None:
    """A value as read: bytes from a client that does not decode its answers, else already a str."""
    return value.decode() if isinstance(value, bytes) else value


#: A game's revision once created, before any change (``compare_and_set.lua`` counts from 1).
FIRST_REV = "1"


class GameStore:
    """Load and change games atomically over any redis-py client (Redis, a Redis Cluster, or fakeredis)."""

    def __init__(
        self,
        client: redis.Redis | redis.RedisCluster,
        retries: int,
        max_bytes: int,
        replicas: int = 0,
        wait_ms: int = 0,
    ) -> None:
        """``max_bytes``: the most a game may take in its hash (field names and values, ``rev`` aside);
        ``replicas``: how many replicas confirm a lasting write (``WAIT``, at most ``wait_ms``) before it is
        answered (0: none; ``replicas.py``)."""
        self.client = client
        self.retries = retries
        self.max_bytes = max_bytes
        self.replicas = Replicas(client, replicas, wait_ms)
        self.compare_and_set = client.register_script(lua("compare_and_set"))
        self.load_charging = client.register_script(lua("gcra", "load_charging"))
        #: Told of every write: the game id and its TTL (0: deleted); the cap on live games counts them.
        self.on_write: Callable[[str, int], None] | None = None
        #: Told of every write that is no deletion, with the fields written: a finished daily game posts its result.
        self.after_write: Callable[[str, dict[str, str]], None] | None = None
        #: Writes this process made, and those refused because another writer came first (each then recomputed).
        self.writes = self.rejected = 0

    def ping(self) -> None:
        self.client.ping()

    def _write(self, game_id: str, rev: str, writes: dict[str, str], ttl: int, lasting: bool = False) -> bool:
        """Apply ``writes`` (none: delete the game) if the game is still at ``rev``; ``409 game_too_large``
        (nothing written) if the game would take more than the store's bound. A ``lasting`` write is confirmed by
        the store's replicas first, if it has some to wait for."""
        limit = self.max_bytes
        if writes:  # this write's token first: the script knows the write again if it is sent twice
            writes = {"w": secrets.token_hex(8), **writes}
        arguments: list[str | int] = [rev, ttl, limit, *(item for pair in writes.items() for item in pair)]
        keys = [game_key(game_id)]
        if lasting:
            done = int(self.replicas.run(self.compare_and_set, keys, arguments, f"the end of game {game_id}"))
        else:
            done = int(self.compare_and_set(keys=keys, args=arguments))
        if done < 0:
            raise ApiError("game_too_large", f"this change would make the game larger than {limit} bytes")
        self.writes += done
        self.rejected += 1 - done
        if done == 1 and self.on_write is not None:
            self.on_write(game_id, ttl if writes else 0)
        if done == 1 and writes and self.after_write is not None:
            self.after_write(game_id, writes)
        return done == 1

    def create(self, game_id: str, fields: dict[str, str], ttl: int) -> bool:
        """Write a new game; ``False`` if the id is already taken (nothing written then)."""
        return self._write(game_id, "", fields, ttl)

    def load(self, game_id: str, idem_field: str | None = None, charge: Charge | None = None) -> Snapshot:
        """The game's fields; with ``charge``, its budget charged in the same call (one round trip, not two)."""
        key, wait = game_key(game_id), 0
        if charge is None:
            values = self.client.hmget(key, ["meta", "state", "rev", idem_field or "rev"])
        else:
            arguments: list[str | int] = [
                idem_field or "rev",
                charge.digest,
                charge.now_ms,
                charge.interval_ms,
                charge.burst,
            ]
            *values, wait = self.load_charging(keys=[key, budget_key(game_id)], args=arguments)
        meta, state, rev, idem = (text(value) for value in values)
        return Snapshot(meta, state, idem if idem_field else None, rev or "", int(wait))

    def transact(
        self,
        game_id: str,
        idem_field: str | None,
        compute: Callable[[Snapshot], Change[T]],
        charge: Charge | None = None,
    ) -> T:
        """Run ``compute`` on the current fields and write its result if nobody wrote in between.

        ``compute`` is pure (it may run several times); its ``ApiError`` aborts without writing, and so
        does a result that would make the game larger than the store's bound. ``charge`` is charged by the
        first load only (a retry is the same request).
        """
        for attempt in range(self.retries):
            snapshot = self.load(game_id, idem_field, None if attempt else charge)
            change = compute(snapshot)
            if not change.writes and not change.delete:
                return change.result
            if self._write(game_id, snapshot.rev, {} if change.delete else change.writes, change.ttl, change.lasting):
                return change.result
            time.sleep(random.uniform(0, 0.002 * (attempt + 1)))  # spread the retries of a crowd
        raise ApiError("store_busy", "too many concurrent changes to this game; retry")

"""The lobby list: public lobbies newest first, in Redis sorted sets built for Redis Cluster.

Keys, all under one hash tag (default ``tg:{lobby}``, the ``LOBBY_INDEX_KEY`` setting) so they share a slot:

- ``<prefix>:all`` and ``<prefix>:game:<name>``: one entry ``<created_at ms, 13 digits>:<game id>`` per public
  lobby, every score 0, so the lexical order is the creation order and an entry is its own stable cursor;
- ``<prefix>:due``: ``<entry>:<name>`` scored by when the lobby expires unless it changes again.

The index is a hint kept next to the games, not inside their transactions (each game has its own slot): a page
reads every game it lists and shows only public lobbies with a free seat. A lobby leaves the index when a change
makes it full, starts it or closes it (a seat left lists it again); an entry whose game has expired is removed
when a page meets it. Every lobby change renews the entry's due time and the keys' TTL, and removes a bounded
batch of entries already due, so the index holds the open public lobbies and at most a few stale ones. A page
reads at most ``2 * (limit + 1)`` entries whatever the index holds: past stale ones it is short, with a cursor.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import redis

from ..records.game_record import CorruptRecord, GameRecord
from .store import game_key, text

#: The index's keys by default: one hash tag, one slot.
INDEX_PREFIX = "tg:{lobby}"
#: The largest page a client may ask for, and the default.
MAX_LIMIT = 100
DEFAULT_LIMIT = 20
#: Entries one page reads at most, per entry it may list (stale ones are skipped): a short page then has a cursor.
SCAN_FACTOR = 2
#: Due entries removed per lobby change.
PRUNE_BATCH = 100
CURSOR = re.compile(r"[0-9]{13}:[A-Za-z0-9_-]{1,64}\Z")


def entry_of(game_id: str, record: GameRecord) -> str:
    return f"{record.created_at:013d}:{game_id}"


@dataclass(frozen=True)
class Listed:
    """A lobby as the list shows it."""

    game_id: str
    record: GameRecord


class LobbyIndex:
    def __init__(self, client: redis.Redis | redis.RedisCluster, prefix: str, clock: Callable[[], float]) -> None:
        self.client = client
        self.prefix = prefix
        self.clock = clock

    def _order_key(self, game: str | None) -> str:
        return f"{self.prefix}:all" if game is None else f"{self.prefix}:game:{game}"

    @property
    def _due_key(self) -> str:
        return f"{self.prefix}:due"

    def sync(self, game_id: str, record: GameRecord, ttl: int, deleted: bool = False) -> None:
        """After a change of a public game: listed while it is a lobby with a free seat (due in ``ttl`` seconds),
        else forgotten."""
        entry = entry_of(game_id, record)
        if deleted or record.status != "lobby" or not record.free_seats:
            self._forget([f"{entry}:{record.game}"])
            return
        now = self.clock()
        pipe = self.client.pipeline(transaction=False)
        for key in (self._order_key(None), self._order_key(record.game)):
            pipe.zadd(key, {entry: 0})
            pipe.expire(key, ttl)  # the newest lobby is the last one due: the key expires empty
        pipe.zadd(self._due_key, {f"{entry}:{record.game}": now + ttl})
        pipe.expire(self._due_key, ttl)
        pipe.zrangebyscore(self._due_key, "-inf", now, start=0, num=PRUNE_BATCH)
        due = pipe.execute()[-1]
        self._forget(text(member) for member in due)

    def _forget(self, members: Iterable[str]) -> None:
        """Remove the entries of ``members`` (``<entry>:<game name>``) from every key."""
        pipe = self.client.pipeline(transaction=False)
        for member in members:
            entry, _, game = member.rpartition(":")
            pipe.zrem(self._order_key(None), entry)
            pipe.zrem(self._due_key, member)
            if game:  # unknown for a game gone from a page of every game: its due time removes it
                pipe.zrem(self._order_key(game), entry)
        if len(pipe):
            pipe.execute()

    def page(self, game: str | None, cursor: str | None, limit: int) -> tuple[list[Listed], str | None]:
        """Up to ``limit`` open public lobbies created before ``cursor`` (an entry), newest first, and the
        cursor of the next page (``None``: no more)."""
        key, after = self._order_key(game), cursor
        listed: list[Listed] = []
        dead: list[str] = []
        more, budget = True, SCAN_FACTOR * (limit + 1)
        while budget > 0:
            wanted = min(limit + 1 - len(listed), budget)  # one more than needed: tells whether a next page exists
            budget -= wanted
            start = "+" if after is None else f"({after}"
            entries = [text(entry) for entry in self.client.zrevrangebylex(key, start, "-", start=0, num=wanted)]
            for entry, (name, open_lobby) in zip(entries, self._read(entries, game), strict=True):
                if len(listed) == limit:
                    break
                after = entry
                if open_lobby is None:
                    dead.append(f"{entry}:{name}")
                elif open_lobby.free_seats:
                    listed.append(Listed(entry.partition(":")[2], open_lobby))
            more = len(entries) == wanted
            if len(listed) == limit or not more:
                break
        self._forget(dead)
        return listed, after if more else None

    def _read(self, entries: list[str], game: str | None) -> list[tuple[str, GameRecord | None]]:
        """For each entry, in one round trip: its game's name (``game``, or ``""`` for a game gone when it is
        unknown) and its record if it is still a public lobby, else ``None``."""
        pipe = self.client.pipeline(transaction=False)
        for entry in entries:
            key = game_key(entry.partition(":")[2])
            pipe.hget(key, "meta")
            pipe.hexists(key, "state")
        answers: list[Any] = pipe.execute() if entries else []
        read: list[tuple[str, GameRecord | None]] = []
        for meta, started in zip(answers[::2], answers[1::2], strict=True):
            try:
                record = GameRecord.load(text(meta), None)
            except CorruptRecord:  # unreadable by this version (another version wrote it): never listed here
                read.append(("", None))
                continue
            if record is None:
                read.append((game or "", None))
            else:
                read.append((record.game, None if started or not record.public else record))
        return read

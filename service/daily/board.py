"""The leaderboards of daily deals in Redis, built for Redis Cluster and for expiry.

Each deal (game, players, day) has its keys under one hash tag, ``<prefix>daily:{<game>:<players>:<day>}``, so
they share a slot and one script reads or writes them atomically:

- ``...:results``, a sorted set: member ``<finished ms, 13 digits>:<token digest>``, score ``DailyResult.key``
  packed into one integer (``score``): lower is better, and ties go to the earlier result (by the member);
- ``...:entries``, a hash: token digest -> the entry (JSON: its member, name, game id, result, team): one result per
  token and deal (``HSETNX``);
- ``...:bots``, the bots' yardstick (JSON), computed once, and ``...:bots-lock`` while a process computes it.

Every key expires ``TG_DAILY_TTL`` seconds (90 days) after the deal's last result or its yardstick. A result
outlives its game: it is confirmed by the store's replicas before it is answered, as the game's end is
(``TG_WAIT_REPLICAS``, ``storage/replicas.py``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

import redis

from thegame_core.daily import DailyResult

from ..storage.replicas import Replicas
from ..storage.scripts import lua

#: The bounds the packed score relies on: a game's cards and turns stay below them (Bataille corse stops at
#: 10,000 flips, Ninja at 2,000 turns).
MAX_CARDS = 1000
MAX_TURNS = 1_000_000
#: How long one process may take to work out a yardstick before another may try (seconds): a few seconds of CPU,
#: at most half the process's time, on a busy machine.
BOTS_LOCK_SECONDS = 300


def score(result: DailyResult) -> int:
    """``result.key`` as one integer below 2**53 (a sorted set's exact range): place, cards, turns."""
    place = result.place or 0
    return (place * MAX_CARDS + min(result.cards_left, MAX_CARDS - 1)) * MAX_TURNS + min(result.turns, MAX_TURNS - 1)


@dataclass(frozen=True)
class Deal:
    """Which board: a game, its players and a day."""

    game: str
    players: int
    day: date

    def key(self, prefix: str, part: str) -> str:
        return f"{prefix}daily:{{{self.game}:{self.players}:{self.day.isoformat()}}}:{part}"


@dataclass(frozen=True)
class Page:
    """A page of results: how many the deal has, and the page's entries with their ranks, best first."""

    count: int
    entries: list[tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class Standing:
    """A token's place on a deal: how many results the deal has, and the token's rank, entry and the number of
    results worse than its own (``None`` without a result)."""

    count: int
    rank: int | None = None
    entry: dict[str, Any] | None = None
    worse: int | None = None

    @property
    def percentile(self) -> int | None:
        """ "Better than N% of tables": the share of the deal's results (this one among them) worse than this one,
        rounded down: the best of four is better than 75%, a result alone on its deal better than 0%."""
        return None if self.worse is None else 100 * self.worse // self.count


class DailyBoard:
    """Results and yardsticks of daily deals over one redis-py client (Redis, a Redis Cluster, or fakeredis)."""

    def __init__(
        self, client: redis.Redis | redis.RedisCluster, prefix: str, ttl: int, replicas: Replicas | None = None
    ) -> None:
        """``replicas``: those that confirm each result posted (none by default)."""
        self.client = client
        self.prefix = prefix
        self.ttl = ttl
        self.replicas = replicas or Replicas(client, 0, 0)
        self.post_script = client.register_script(lua("daily_post"))
        self.page_script = client.register_script(lua("daily_page"))
        self.rank_script = client.register_script(lua("daily_rank"))

    def _keys(self, deal: Deal) -> list[str]:
        return [deal.key(self.prefix, "results"), deal.key(self.prefix, "entries")]

    def post(self, deal: Deal, digest: str, finished_ms: int, result: DailyResult, entry: dict[str, Any]) -> bool:
        """Add a token's result; ``False`` (nothing changes) if that token already has one on this deal."""
        member = f"{finished_ms:013d}:{digest}"
        text = json.dumps({"member": member, **entry, "result": result.to_dict()}, separators=(",", ":"))
        arguments: list[str | int] = [digest, member, score(result), text, self.ttl]
        what = f"the daily result of {digest[:8]} on {deal.key(self.prefix, 'results')}"
        return bool(self.replicas.run(self.post_script, self._keys(deal), arguments, what))

    def rename(self, deal: Deal, digest: str, name: str) -> None:
        """The name on a token's result, if it has one (an erased player's becomes "deleted player"); its rank, its
        result and the keys' expiry stay."""
        key = deal.key(self.prefix, "entries")
        stored = self.client.hget(key, digest)
        if stored is not None:
            entry = {**json.loads(stored), "name": name}
            self.client.hset(key, digest, json.dumps(entry, separators=(",", ":")))

    def page(self, deal: Deal, offset: int, limit: int) -> Page:
        """Results ``offset`` to ``offset + limit - 1``, best first, each with its rank (equal results share one)."""
        count, *flat = self.page_script(keys=self._keys(deal), args=[offset, limit])
        entries = [(int(rank), json.loads(text)) for rank, text in zip(flat[::2], flat[1::2], strict=True)]
        return Page(int(count), entries)

    def rank(self, deal: Deal, digest: str) -> Standing:
        """The token's standing on the deal."""
        count, *found = self.rank_script(keys=self._keys(deal), args=[digest])
        if not found:
            return Standing(int(count))
        return Standing(int(count), int(found[0]), json.loads(found[1]), int(found[2]))

    def bots(self, deal: Deal) -> dict[str, Any] | None:
        """The stored yardstick, if computed."""
        text = self.client.get(deal.key(self.prefix, "bots"))
        return None if text is None else json.loads(text)

    def claim_bots(self, deal: Deal) -> bool:
        """Whether this process should compute the yardstick now (no other one is at it)."""
        key = deal.key(self.prefix, "bots-lock")
        return bool(self.client.set(key, "1", nx=True, ex=BOTS_LOCK_SECONDS))

    def store_bots(self, deal: Deal, result: DailyResult) -> None:
        self.client.set(deal.key(self.prefix, "bots"), json.dumps(result.to_dict()), ex=self.ttl)

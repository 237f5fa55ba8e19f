"""The seekers of Play now and their lobbies, in Redis: one Lua script decides every seat (``lua/pairing_*.lua``).

Every key shares one hash tag (``tg:{pairing}`` by default), so a single Redis Cluster slot holds all of them and
one script run sees every seeker at once: two seekers of one pool can never both open a lobby while the other's
has room, nobody holds two seats, and no lobby gets more seekers than seats. The pool decides; the game's own
record (on the game's slot, ``service/pairing/seating.py``) follows it by compare-and-set, so a crash between the
two leaves a seat the pool gave and the game lacks, which the seeker's next ask takes again.

A pool is one game, player count and rated flag. A rated seeker fits a lobby when every rating in it is within the
``Window`` of its own, a window that widens while the lobby waits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

import redis

from ..storage.scripts import lua
from ..storage.store import text

#: The keys' prefix by default: one hash tag, one slot.
POOL_PREFIX = "tg:{pairing}"
#: How long a filled lobby's seekers are answered their seat again (a lost answer, a page reloaded) before a new ask
#: looks for a new game.
GRACE_MS = 60_000
#: A lobby whose bots come within this much takes no more seekers: a seeker seated by the pool gets its seat written
#: in the game before the bots take the empty seats.
CLOSE_MARGIN_MS = 2_000

Kind = Literal["same", "joined", "opened"]


@dataclass(frozen=True)
class Window:
    """Ratings a rated lobby accepts: within ``base`` points of each of its players', ``step`` more every
    ``every_ms`` it has waited (Zero-K and tetr.io widen theirs likewise)."""

    base: int = 100
    step: int = 50
    every_ms: int = 5_000


@dataclass(frozen=True)
class Placed:
    """Where the pool seated a seeker: ``kind`` says whether just now (``joined``, ``opened``) or before (``same``);
    ``full``: its lobby has every seat; ``pool``: the pool of that lobby (another one for a seeker still waiting
    elsewhere)."""

    kind: Kind
    game_id: str
    seat: int
    full: bool
    pool: str
    created_ms: int  # when the lobby was opened
    bots_at_ms: int  # when bots take its empty seats (0: never)


def pool_name(game: str, players: int, rated: bool) -> str:
    return f"{game}:{players}:{'rated' if rated else 'casual'}"


class Pool:
    def __init__(self, client: redis.Redis | redis.RedisCluster, prefix: str, life_ms: int, window: Window) -> None:
        """``life_ms``: how long a lobby is kept waiting (a lobby's life in the store)."""
        self.keys = [f"{prefix}:{part}" for part in ("seekers", "lobbies", "open", "due")]
        self.life_ms = life_ms
        self.window = window
        self._seek = client.register_script(lua("pairing_shared", "pairing_seek"))
        self._leave = client.register_script(lua("pairing_shared", "pairing_leave"))
        self.client = client

    def seek(
        self, player: str, pool: str, new_id: str, now_ms: int, players: int, rating: float | None, bots_at_ms: int
    ) -> Placed:
        """Seat ``player`` in the oldest lobby of ``pool`` that fits, else open lobby ``new_id``; or its seat
        already held (``same``)."""
        window = self.window
        arguments: list[str | int] = [
            player,
            pool,
            new_id,
            now_ms,
            players,
            "" if rating is None else f"{rating:.3f}",
            bots_at_ms,
            self.life_ms,
            GRACE_MS,
            window.base,
            window.step,
            window.every_ms,
            CLOSE_MARGIN_MS,
        ]
        kind, game_id, seat, full, placed_pool, created, bots_at = self._seek(keys=self.keys, args=arguments)
        found: Kind = text(kind)
        return Placed(found, text(game_id), int(seat), bool(full), text(placed_pool), int(created), int(bots_at))

    def held(self, player: str, now_ms: int) -> str | None:
        """The game in which the pool holds a seat for ``player``, if any (waiting, or in a filled lobby's grace)."""
        stored = self.client.hget(self.keys[0], player)
        if stored is None:
            return None
        seeker = json.loads(text(stored))
        return None if 0 < seeker["ends"] <= now_ms else str(seeker["g"])

    def leave(self, player: str, game_id: str, now_ms: int, freed: bool = True) -> bool:
        """``player`` stops waiting in ``game_id``: its seat there freed in the game first (``freed``), or the game
        gone on without it (started, or gone: the lobby then takes nobody more). Whether it waited there."""
        arguments: list[str | int] = [player, game_id, now_ms, self.life_ms, GRACE_MS, int(freed)]
        return bool(int(self._leave(keys=self.keys, args=arguments)))

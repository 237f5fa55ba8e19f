"""Each rated game's leaderboard in Redis: established players (not provisional) with a rated game in the last
``WINDOW_DAYS`` days, by points, read in O(log n + page) however many players there are.

A game's keys share the hash tag ``{ratings:<game>}`` (one slot, so one script reads or writes them together):

- ``...:board``, a sorted set: player -> points (``Rating.points``), established players only;
- ``...:last``, a sorted set: player -> when their last rated game ended (ms), every rated player;
- ``...:games``, a hash: player -> rated games, so that an update written late (another process rated the player's
  next game first) never overwrites a newer one.

A player whose last rated game left the window is dropped when a script next runs (each drops up to ``PRUNE`` of
the oldest first), and skipped by reads until then; a read never lists one.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from ..storage.replicas import Replicas
from ..storage.scripts import lua
from ..storage.store import text

WINDOW_DAYS = 30
WINDOW_MS = WINDOW_DAYS * 86_400_000
#: Players out of the window each script drops before its work: bounded, so no call is slow after a quiet month.
PRUNE = 1000
#: The most a leaderboard shows.
TOP = 100


@dataclass(frozen=True)
class Entry:
    rank: int
    player: str
    points: float
    games: int


@dataclass(frozen=True)
class Standing:
    """A player's place on a board: the board's size, and the rank and points (``None`` when not on it)."""

    count: int
    rank: int | None = None
    points: float | None = None


class Leaderboards:
    def __init__(
        self, client: redis.Redis | redis.RedisCluster, prefix: str = "tg:", replicas: Replicas | None = None
    ) -> None:
        """``replicas``: those that confirm each update (none by default)."""
        self.client = client
        self.prefix = prefix
        self.replicas = replicas or Replicas(client, 0, 0)
        self.update_script = client.register_script(lua("ratings_prune", "ratings_update"))
        self.top_script = client.register_script(lua("ratings_prune", "ratings_top"))
        self.rank_script = client.register_script(lua("ratings_prune", "ratings_rank"))

    def keys(self, game: str) -> list[str]:
        return [f"{self.prefix}{{ratings:{game}}}:{part}" for part in ("board", "last", "games")]

    def update(self, game: str, player: str, games: int, points: float | None, ended_ms: int) -> bool:
        """Show ``player``'s rating after its ``games``-th rated game (``points`` ``None``: provisional, off the
        board); ``False`` if a later game of theirs is shown already."""
        shown = "" if points is None else repr(points)
        arguments: list[str | int] = [player, games, shown, ended_ms, ended_ms - WINDOW_MS, PRUNE]
        what = f"{player}'s place on the {game} leaderboard"
        return bool(self.replicas.run(self.update_script, self.keys(game), arguments, what))

    def top(self, game: str, now_ms: int, limit: int = TOP) -> tuple[int, list[Entry]]:
        """How many players the board holds, and its best ``limit``, ranked (equal points share a rank)."""
        count, *flat = self.top_script(keys=self.keys(game), args=[now_ms - WINDOW_MS, limit, PRUNE])
        entries: list[Entry] = []
        for player, points, games in zip(flat[::3], flat[1::3], flat[2::3], strict=True):
            score = float(points)
            rank = entries[-1].rank if entries and entries[-1].points == score else len(entries) + 1
            entries.append(Entry(rank, text(player), score, int(games)))
        return int(count), entries

    def standing(self, game: str, player: str, now_ms: int) -> Standing:
        """``player``'s rank on ``game``'s board now (``/me``)."""
        count, *found = self.rank_script(keys=self.keys(game), args=[player, now_ms - WINDOW_MS, PRUNE])
        if not found:
            return Standing(int(count))
        return Standing(int(count), int(found[0]), float(found[1]))

    def remove(self, game: str, player: str) -> None:
        """``player`` off ``game``'s board for good (an erased player), in one transaction on the board's slot."""
        board, last, games = self.keys(game)
        with self.client.pipeline(transaction=True) as pipe:
            pipe.zrem(board, player)
            pipe.zrem(last, player)
            pipe.hdel(games, player)
            pipe.execute()

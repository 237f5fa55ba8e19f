"""A player's games: one sorted set per player, ``tg:{p:<id>}:games``, on the player's slot.

Every score is 0 and an entry is ``L<created ms, 13 digits>:<game id>`` while the game is live (a lobby or being
played) and ``D<ended ms>:<game id>`` once it is over, so the reverse lexical order is "live ones first, newest
first" and an entry is its own stable cursor. An entry is added when a seat is bound to the player (a seat taken, a
daily deal, a rematch), and moves when a write ends the game (the store's after-write hook, ``finished``).

The index is a hint beside the games, as the lobby list is (a game and its players live on different slots): a
page reads every game it lists, drops entries of games gone, and moves an entry whose game ended if the hook
missed it. A page reads at most ``2 * (limit + 1)`` entries, so it may come back short, with a cursor.

Beside it, ``tg:{p:<id>}:daily``, a hash: ``<game>:<players>:<day>`` -> the id of the player's latest game on that
daily deal, so that a key finds its result on the deal's board in one read (``GET /v1/daily/.../me``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from ..records.game_record import CorruptRecord, GameRecord, over_with_players
from ..storage.scripts import lua
from ..storage.store import game_key, text
from .accounts import profile_key
from .keys import player_key

log = logging.getLogger(__name__)

LIVE, DONE = "L", "D"
CURSOR = re.compile(r"[LD][0-9]{13}:[A-Za-z0-9_-]{1,64}")
#: The reverse lexical range of each status filter (``None``: every game): its upper bound and lower bound.
RANGES = {None: ("+", "-"), "live": ("(M", "[L"), "finished": ("(E", "[D")}
SCAN_FACTOR = 2


def games_key(player: str) -> str:
    return player_key(player, "games")


def daily_key(player: str) -> str:
    return player_key(player, "daily")


def deal_field(game: str, players: int, day: str) -> str:
    return f"{game}:{players}:{day}"


def ended_ms(record: GameRecord) -> int:
    """When a finished game ended: its last change."""
    return int(record.timing.at * 1000)


def entry(game_id: str, record: GameRecord) -> str:
    if record.status in ("lobby", "playing"):
        return f"{LIVE}{record.created_at:013d}:{game_id}"
    return f"{DONE}{ended_ms(record):013d}:{game_id}"


@dataclass(frozen=True)
class Listed:
    game_id: str
    record: GameRecord


class GameIndex:
    def __init__(self, client: redis.Redis | redis.RedisCluster, keep_seconds: Callable[[], int]) -> None:
        """``keep_seconds``: how long an index outlives its last entry's addition (the longest a game is kept)."""
        self.client = client
        self.keep_seconds = keep_seconds
        self.move = client.register_script(lua("player_finished"))

    def bound(self, game_id: str, record: GameRecord, players: list[str]) -> None:
        """After a write that bound seats of ``record`` to ``players``: each one's index lists the game. Never
        raises: the seat is bound in the game whatever happens here (logged)."""
        try:
            for player in players:
                pipe = self.client.pipeline(transaction=False)
                pipe.zadd(games_key(player), {entry(game_id, record): 0})
                pipe.expire(games_key(player), self.keep_seconds())
                if record.daily is not None:
                    pipe.hset(daily_key(player), deal_field(record.game, record.players, record.daily), game_id)
                    pipe.expire(daily_key(player), self.keep_seconds())
                pipe.execute()
        except redis.RedisError as error:
            log.warning("game %s not indexed for its players (%s)", game_id, type(error).__name__)

    def finished(self, game_id: str, record: GameRecord) -> None:
        """``record`` is over: each bound player's entry moves to the finished ones, counted once in its profile."""
        for player in record.players_bound():
            live = f"{LIVE}{record.created_at:013d}:{game_id}"
            fields = [live, entry(game_id, record), f"played:{record.game}"]
            self.move(keys=[games_key(player), profile_key(player)], args=fields)

    def after_write(self, game_id: str, fields: dict[str, str]) -> None:
        """The store's after-write hook: a write that leaves a game with players over moves their entries."""
        try:
            record = over_with_players(fields)
            if record is not None:
                self.finished(game_id, record)
        except (redis.RedisError, CorruptRecord) as error:
            log.warning("game %s: its players' index not moved (%s)", game_id, type(error).__name__)

    def page(
        self, player: str, status: str | None, cursor: str | None, limit: int, keep: Callable[[GameRecord], bool]
    ) -> tuple[list[Listed], str | None]:
        """Up to ``limit`` games of ``player`` after ``cursor`` that ``keep`` accepts (live ones first, newest
        first), and the next page's cursor (``None``: no more)."""
        top, bottom = RANGES[status]
        key, after = games_key(player), cursor
        listed: list[Listed] = []
        more, budget = True, SCAN_FACTOR * (limit + 1)
        while budget > 0:
            wanted = min(limit + 1 - len(listed), budget)
            budget -= wanted
            start = top if after is None or (top != "+" and after > top[1:]) else f"({after}"
            entries = [text(found) for found in self.client.zrevrangebylex(key, start, bottom, start=0, num=wanted)]
            for found, record in zip(entries, self._read(entries), strict=True):
                if len(listed) == limit:
                    break
                after = found
                if record is None:
                    self.client.zrem(key, found)
                    continue
                game_id = found.partition(":")[2]
                if found[0] == LIVE and record.status not in ("lobby", "playing"):
                    self.finished(game_id, record)  # the hook missed it: it is listed with the finished ones
                elif keep(record):
                    listed.append(Listed(game_id, record))
            more = len(entries) == wanted
            if len(listed) == limit or not more:
                break
        return listed, after if more else None

    def every(self, player: str) -> list[str]:
        """Every game id the player's index holds."""
        return [text(member).partition(":")[2] for member in self.client.zrangebylex(games_key(player), "-", "+")]

    def daily_game(self, player: str, game: str, players: int, day: str) -> str | None:
        """The id of the player's latest game on that daily deal (``None``: none taken with its key)."""
        return text(self.client.hget(daily_key(player), deal_field(game, players, day)))

    def _read(self, entries: list[str]) -> list[GameRecord | None]:
        """Each entry's game, in one round trip (``None``: gone or unreadable by this version)."""
        pipe = self.client.pipeline(transaction=False)
        for found in entries:
            pipe.hmget(game_key(found.partition(":")[2]), ["meta", "state"])
        answers: list[Any] = pipe.execute() if entries else []
        records: list[GameRecord | None] = []
        for meta, state in answers:
            try:
                records.append(GameRecord.load(text(meta), text(state)))
            except CorruptRecord:
                records.append(None)
        return records

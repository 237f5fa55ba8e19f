"""Players' ratings and their history in Redis, and one finished game rated once, whatever retries or races.

A player's keys of one game are on the player's slot (``tg:{p:<id>}:...``, as ``service/players`` keeps profiles):

- ``tg:{p:<id>}:rating:<game>``, a hash: ``mu``, ``sigma``, ``games`` (rated games so far), ``ended`` (ms);
- ``tg:{p:<id>}:rating-history:<game>``, a hash: game id -> that game's entry (JSON: ``n``, the player's rated
  game count after it, ``ended``, ``place``, ``seats``, ``before`` and ``after``).

A game's players are on as many slots as it has seats, which no one Redis Cluster transaction can hold. So rating
a game is decided once, then applied to each player: the decision (every seat's rating before and after, computed
from the players' ratings as read) is stored on the game's own slot with ``SET NX`` (``tg:{<game id>}:rated``):
whoever rates the game again, after a retry or in another process, applies that same decision. Each player's part
is one script on their slot that does nothing when their history holds the game already, so a game rated
twice changes nothing the second time, and a rating stopped halfway is completed by the next try.

When a player's rating moved between the decision and its application (two of their games rated at the same
moment), the game's change is applied to their rating as it now is: ``mu`` moves by the same amount and ``sigma``
shrinks in the same ratio, so neither game's result is lost.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis

from ..players.keys import player_key
from ..storage.replicas import Replicas
from ..storage.scripts import lua
from ..storage.store import text
from .board import Leaderboards
from .scale import Rating, places, rate
from .the_game_records import TheGameRecords, played_key


def rating_key(player: str, game: str) -> str:
    return player_key(player, f"rating:{game}")


def history_key(player: str, game: str) -> str:
    return player_key(player, f"rating-history:{game}")


def decision_key(game_id: str) -> str:
    return f"tg:{{{game_id}}}:rated"


@dataclass(frozen=True)
class Seat:
    """One seat of a rated game: its player, place (1 is first), and rating before and after the game."""

    player: str
    place: int
    before: Rating
    after: Rating

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "place": self.place,
            "before": self.before.to_dict(),
            "after": self.after.to_dict(),
        }


@dataclass(frozen=True)
class Current:
    """A player's rating of a game now, with their rated games and when the last one ended (ms; 0: none)."""

    rating: Rating
    games: int = 0
    ended_ms: int = 0


class Ratings:
    def __init__(
        self, client: redis.Redis | redis.RedisCluster, boards: Leaderboards, ttl: int, replicas: Replicas | None = None
    ) -> None:
        """``ttl``: seconds a player's ratings and a game's decision are kept after their last write (a player's);
        ``replicas``: those that confirm each write, as the boards' (none by default)."""
        self.client = client
        self.boards = boards
        self.ttl = ttl
        self.replicas = replicas or Replicas(client, 0, 0)
        self.decide_script = client.register_script(lua("ratings_decide"))
        self.apply_script = client.register_script(lua("ratings_apply"))
        self.the_game = TheGameRecords(client, ttl, self.replicas)  # never rated: players' records in it instead

    def current(self, player: str, game: str) -> Current:
        stored = {text(field): text(value) for field, value in self.client.hgetall(rating_key(player, game)).items()}
        if not stored:
            return Current(Rating())
        return Current(Rating(float(stored["mu"]), float(stored["sigma"])), int(stored["games"]), int(stored["ended"]))

    def forget(self, player: str, games: Sequence[str]) -> None:
        """An erased player's ratings of ``games``, their history and their places on the boards, gone, with
        their record in The Game."""
        self.client.delete(played_key(player))
        for game in games:
            self.client.delete(rating_key(player, game), history_key(player, game))
            self.boards.remove(game, player)

    def history(self, player: str, game: str) -> list[dict[str, Any]]:
        """Every rated game of ``player`` in ``game``, oldest first."""
        entries = [json.loads(raw) for raw in self.client.hvals(history_key(player, game))]
        return sorted(entries, key=lambda entry: int(entry["n"]))

    def rate_game(
        self, game: str, game_id: str, ranking: Sequence[int], players: Sequence[str], ended_ms: int
    ) -> list[Seat]:
        """Rate a finished game of ``game`` whose ``ranking`` (seats, best first) seated ``players`` (one distinct
        player id per seat): each seat's rating before and after, as decided the first time it was rated."""
        if len(set(players)) != len(players):
            raise ValueError("a rated game seats each player once")
        seats = self._decided(game, game_id, ranking, players)
        for seat in seats:
            self._apply(game, game_id, seat, len(players), ended_ms)
        return seats

    def _decided(self, game: str, game_id: str, ranking: Sequence[int], players: Sequence[str]) -> list[Seat]:
        """Every seat's rating before and after the game: decided now from the players' ratings, or as stored."""
        decided = self.decision(game_id)
        if decided is None:
            before = [self.current(player, game).rating for player in players]
            after = rate(ranking, before)
            place = places(ranking, len(players))
            seats = [Seat(*parts) for parts in zip(players, place, before, after, strict=True)]
            decision = json.dumps([seat.to_dict() for seat in seats])
            what = f"the rating of game {game_id}"
            if self.replicas.run(self.decide_script, [decision_key(game_id)], [decision, self.ttl], what) == 1:
                return seats
            decided = self.decision(game_id)  # another process decided first: theirs stands
            assert decided is not None, "a decision is kept as long as its players' ratings"
        return decided

    def decision(self, game_id: str) -> list[Seat] | None:
        """Every seat's rating before and after the game as decided when it was first rated (``None``: not yet)."""
        stored = self.client.get(decision_key(game_id))
        return None if stored is None else [_seat(entry) for entry in json.loads(text(stored))]

    def _apply(self, game: str, game_id: str, seat: Seat, seats: int, ended_ms: int) -> None:
        """``seat``'s part of the decision on its player's slot, once (read again while the rating moves under
        it); then the leaderboard shows the player's rating as it now is (also when an earlier try stopped
        before it)."""
        keys = [rating_key(seat.player, game), history_key(seat.player, game)]
        what = f"{seat.player}'s rating after game {game_id}"
        answer = -1
        while answer < 0:  # -1: the rating moved since it was read
            arguments = self._arguments(game, game_id, seat, seats, ended_ms)
            answer = self.replicas.run(self.apply_script, keys, arguments, what)
        now = self.current(seat.player, game)
        points = None if now.rating.provisional else now.rating.points
        self.boards.update(game, seat.player, now.games, points, now.ended_ms)

    def _arguments(self, game: str, game_id: str, seat: Seat, seats: int, ended_ms: int) -> list[str | int]:
        """The apply script's arguments: the player's rating after the game, from their rating now, and its
        history's entry. The last game's end is the latest of their games' ends, whichever is rated last (the
        board's 30-day window)."""
        now = self.current(seat.player, game)
        after = seat.after if now.rating == seat.before else moved(now.rating, seat)
        games, ended = now.games + 1, max(now.ended_ms, ended_ms)
        entry = {**seat.to_dict(), "n": games, "game_id": game_id, "ended": ended_ms, "seats": seats}
        entry["before"], entry["after"] = now.rating.to_dict(), after.to_dict()
        fields: list[str | int] = ["mu", repr(after.mu), "sigma", repr(after.sigma), "games", games, "ended", ended]
        return [game_id, now.games, json.dumps(entry), self.ttl, *fields]


def moved(rating: Rating, seat: Seat) -> Rating:
    """``seat``'s change applied to ``rating``, its player's rating since moved by another game."""
    return Rating(rating.mu + seat.after.mu - seat.before.mu, rating.sigma * seat.after.sigma / seat.before.sigma)


def _seat(entry: dict[str, Any]) -> Seat:
    return Seat(entry["player"], entry["place"], Rating.from_dict(entry["before"]), Rating.from_dict(entry["after"]))

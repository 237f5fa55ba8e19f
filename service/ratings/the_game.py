"""A player's record in The Game, which is cooperative and never rated: per player count, games, wins, win rate,
best score (fewest cards left) and the current and best streaks of wins. Pure functions over finished games, so
the players' history (``service/players``) can feed them whatever it stores."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Played:
    """One finished game of The Game as the record needs it: when it ended, its player count, whether the table
    won, and its score (the cards left: 0 is a win)."""

    ended_ms: int
    players: int
    won: bool
    score: int


@dataclass(frozen=True)
class Record:
    games: int = 0
    wins: int = 0
    best_score: int | None = None
    streak: int = 0  # wins in a row up to the latest game
    best_streak: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def after(self, game: Played) -> Record:
        """This record with ``game``, the latest, added."""
        streak = self.streak + 1 if game.won else 0
        best = game.score if self.best_score is None else min(self.best_score, game.score)
        return Record(self.games + 1, self.wins + game.won, best, streak, max(self.best_streak, streak))

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "best_score": self.best_score,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


def record(games: Iterable[Played]) -> dict[int, Record]:
    """The record per player count, from finished games in any order (streaks follow the order they ended in)."""
    records: dict[int, Record] = {}
    for game in sorted(games, key=lambda game: game.ended_ms):
        records[game.players] = records.get(game.players, Record()).after(game)
    return dict(sorted(records.items()))

"""Ratings of competitive games (Ninja, Bataille corse) and their leaderboards (docs/api.md, "Ratings").

- ``scale``: openskill's Plackett-Luce model, the shown number (1500 for a new player) and the provisional flag,
  and one game rated from its ranking: pure, the same code rates people and the bots' ladder (bench/bot_ladder.py).
- ``store``: players' ratings and their history in Redis, on each player's slot, a game rated once.
- ``board``: each game's leaderboard (established players active in the last 30 days) and a player's rank.
- ``the_game``: The Game is cooperative and never rated: a player's record in it instead.

Player ids are opaque strings (``service/players``); nothing here reads a key or a seat token.
"""

from __future__ import annotations

import thegame_core as tg

from .board import Leaderboards
from .scale import Rating, rate
from .store import Ratings


def rated(game: str) -> bool:
    """Whether ``game`` is rated: every competitive game of the registry is, The Game (cooperative) never."""
    return game in tg.game_names() and not tg.get_game(game).info.cooperative


def rated_games() -> list[str]:
    """Every rated game of the registry, in its order."""
    return [name for name in tg.game_names() if rated(name)]


__all__ = ["Leaderboards", "Rating", "Ratings", "rate", "rated", "rated_games"]

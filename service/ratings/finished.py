"""A finished rated game, rated once: by the store's after-write hook as the write that ends it is stored, or by
the first view of its end that finds it not rated yet (the hook failed, or a stream read the end first). Either
way ``Ratings.rate_game`` decides once and applies once, so the game's views and events all show one change.

A rated game rates the players seated at its start (``GameRecord.rated_players``), by its ranking: Ninja's
finishing order, Bataille corse's elimination order. A seat left during play stays its leaver's: the stand-in bot
plays it out and the leaver is rated by where it ends.
"""

from __future__ import annotations

import logging
from typing import Any

import redis

from ..players.index import ended_ms
from ..records.game_record import CorruptRecord, GameRecord, over_with_players
from .store import Ratings, Seat

log = logging.getLogger(__name__)
LIVE = ("lobby", "playing")


def rated_and_over(record: GameRecord) -> bool:
    state = record.state
    return record.rated and state is not None and record.status not in LIVE and state.outcome is not None


def ratable(record: GameRecord) -> bool:
    """A rated game that is over, with its players fixed at its start (none erased since)."""
    players = record.rated_players
    return rated_and_over(record) and len(players) == record.players and all(players)


def rate_finished(ratings: Ratings, game_id: str, record: GameRecord) -> list[Seat]:
    assert record.state is not None and record.state.outcome is not None, "only a finished game is rated"
    ranking = record.state.outcome.ranking
    return ratings.rate_game(record.game, game_id, ranking, record.rated_players, ended_ms(record))


def outcome_ratings(ratings: Ratings, game_id: str, record: GameRecord) -> list[dict[str, Any]] | None:
    """What a finished rated game's views add to its outcome: each seat's player and rating before and after
    (``None``: not a finished rated game, or its rating failed now, logged: the next view tries again)."""
    if not rated_and_over(record):
        return None
    try:
        seats = ratings.decision(game_id) or (rate_finished(ratings, game_id, record) if ratable(record) else None)
    except (redis.RedisError, ValueError) as error:
        log.warning("rated game %s: not rated yet (%s: %s)", game_id, type(error).__name__, error)
        return None
    if seats is None:
        return None
    return [
        {
            "seat": number,
            "player": seat.player if seat.player in record.rated_players else None,  # None: erased since
            "before": seat.before.shown,
            "after": seat.after.shown,
            "provisional": seat.after.provisional,
        }
        for number, seat in enumerate(seats)
    ]


class RatingPoster:
    """The store's after-write hook: a write that leaves a rated game over rates it (again is harmless)."""

    def __init__(self, ratings: Ratings) -> None:
        self.ratings = ratings

    def written(self, game_id: str, fields: dict[str, str]) -> None:
        if '"rated":true' not in fields.get("meta", ""):
            return
        try:
            record = over_with_players(fields)
            if record is not None and ratable(record):
                rate_finished(self.ratings, game_id, record)
        except (redis.RedisError, CorruptRecord, ValueError) as error:
            log.warning("rated game %s: not rated (%s: %s)", game_id, type(error).__name__, error)

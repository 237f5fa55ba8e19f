"""A player's game as its list shows it, and as an export line (one JSON object, read back by ``tg.replay``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from thegame_core.daily import seed_commitment

from ..daily.days import deal_hidden
from ..records.game_record import GameRecord
from .index import ended_ms

LIVE = ("lobby", "playing")


def iso_ms(epoch_ms: int) -> str:
    """An instant as the answers write it: ISO 8601, UTC, to the millisecond, with ``Z``."""
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def table(record: GameRecord) -> list[dict[str, Any]]:
    """Each seat's name, whether a bot holds it, and its player."""
    return [
        {
            "seat": number,
            "name": None if held is None else held.name,
            "bot": held is not None and held.bot is not None,
            "player": None if held is None else held.player,
        }
        for number, held in enumerate(record.seats)
    ]


def played_game(game_id: str, record: GameRecord, player: str) -> dict[str, Any]:
    """``record`` in ``player``'s list: the game, the table, the player's seat and the result."""
    live = record.status in LIVE
    bound = record.seat_players()
    seat = bound.index(player) if player in bound else None
    outcome = None if record.state is None or record.state.outcome is None else record.state.outcome
    ranking = () if outcome is None else outcome.ranking
    return {
        "game_id": game_id,
        "game": record.game,
        "players": record.players,
        "status": record.status,
        "live": live,
        "created_at": iso_ms(record.created_at),
        "ended_at": None if live else iso_ms(ended_ms(record)),
        "daily": record.daily,
        "seats": table(record),
        "seat": seat,
        "outcome": None if outcome is None else outcome.to_dict(),
        "place": ranking.index(seat) + 1 if seat is not None and seat in ranking else None,
    }


def export_line(game_id: str, record: GameRecord) -> dict[str, Any]:
    """A finished game as one line of an export: the table, the outcome, the seed and the replay record
    (``tg.replay(line["replay"])`` rebuilds the game)."""
    assert record.state is not None and record.status not in LIVE, "only a finished game is exported"
    outcome = record.state.outcome
    return {
        "game_id": game_id,
        "game": record.game,
        "players": record.players,
        "created_at": iso_ms(record.created_at),
        "ended_at": iso_ms(ended_ms(record)),
        "daily": record.daily,
        "seats": table(record),
        "outcome": None if outcome is None else outcome.to_dict(),
        "seed_sha256": seed_commitment(record.seed) if record.seed_dealt else None,
        "seed": record.seed if record.seed_dealt else None,
        "replay": record.state.replay_record(),
    }


def exportable(record: GameRecord, now: float) -> bool:
    """A finished game, and a daily deal's only once its day is over (its lines could be copied before)."""
    return record.state is not None and record.status not in LIVE and not deal_hidden(record.daily, now)

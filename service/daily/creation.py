"""A daily game: the day's deal, started at once, the person at the day's seat and bots in every other seat.

The Game is cooperative: the person picks the team (one bot name per other seat, ``best`` by default). In a
competitive game the person plays against ``best`` bots only, so every result on a board is against the same
rivals. A daily game lists nowhere and has no spectators: nobody watches a line to copy it. It has no turn timer.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import thegame_core as tg

from ..clock.schedule import changed, default_reaction_ms, default_spread_ms
from ..errors import ApiError, from_game_error
from ..play import tokens
from ..play.commands import human_seat
from ..records.game_record import GameRecord, Seat
from ..records.timing import OWNER
from .results import RIVAL


def team(game: str, players: int, bots: Sequence[str] | None) -> list[str]:
    """The bots of the other seats, in seat order: ``bots`` checked (422), else ``best`` everywhere."""
    if bots is None:
        return [RIVAL] * (players - 1)
    known = tg.get_game(game).bots
    if len(bots) != players - 1 or any(bot not in known for bot in bots):
        names = ", ".join(sorted(known))
        raise ApiError("validation_error", "no such team", {"bots": [f"{players - 1} of {game}'s bots: {names}"]})
    if not tg.get_game(game).info.cooperative and set(bots) != {RIVAL}:
        raise ApiError("validation_error", "no such team", {"bots": [f"{game}'s daily deal is played against {RIVAL}"]})
    return list(bots)


def daily_record(
    body: dict[str, Any],
    day: date,
    host_token: str,
    seat_token: str,
    now: float,
    secret: bytes,
    bots_alone_ms: int,
    player: str | None = None,
) -> tuple[GameRecord, int]:
    """The started daily game for a validated body, and the person's seat (bound to ``player``, if one)."""
    game, players = body["game"], body["players"]
    try:
        deal = tg.daily_deal(game, players, day, secret=secret)
    except tg.GameError as error:
        raise from_game_error(error) from None
    others = iter(team(game, players, body.get("bots")))
    pace, spread = default_reaction_ms(game), default_spread_ms(game)
    seats: list[Seat | None] = []
    for number in range(players):
        if number == deal.seat:
            seats.append(human_seat(str(body["name"]), seat_token, player))
        else:
            bot = next(others)
            seats.append(Seat(f"{bot} {number + 1}", None, bot, pace, reaction_spread_ms=spread))
    record = GameRecord(
        game,
        players,
        deal.state.options.to_dict(),
        deal.seed,
        tokens.token_hash(host_token),
        seats=tuple(seats),
        bots_alone_ms=bots_alone_ms,
        spectators=False,
        created_at=int(now * 1000),
        daily=day.isoformat(),
    )
    return changed(record.started(0), None, None, OWNER, now), deal.seat

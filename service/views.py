"""Views sent to clients: the core's view plus what only the service knows (game id, names, bots, version)."""

from __future__ import annotations

from typing import Any

import thegame_core as tg

from .record import GameRecord


def _lobby_view(record: GameRecord, seat: int | None) -> dict[str, Any]:
    """Before the deal: the core's view of the table (options, piles at their bases), nothing dealt yet."""
    probe = record.new_state(first_seat=0).public_view()
    probe.update(status="lobby", outcome=None, current_seat=None, draw_pile=tg.CARDS_IN_DECK, score=tg.CARDS_IN_DECK)
    probe.update(placed_this_turn=0, required_this_turn=0, signals=[])
    for entry in probe["seats"]:
        entry["hand_size"] = 0
    if seat is not None:
        probe.update(seat=seat, hand=[], legal_plays=[], can_end_turn=False)
    return probe


def game_view(game_id: str, record: GameRecord, seat: int | None, state: tg.State | None = None) -> dict[str, Any]:
    """The view for ``seat`` (``None``: the public view) of ``state`` (default: the current one)."""
    state = state or record.state
    if state is None:
        view = _lobby_view(record, seat)
        version = record.version
    else:
        view = state.public_view() if seat is None else state.view(seat)
        version = record.lobby_version + state.version
    view["game_id"] = game_id
    view["version"] = version
    for entry in view["seats"]:
        taken = record.seats[entry["seat"]]
        entry["name"] = None if taken is None else taken.name
        entry["bot"] = taken is not None and taken.bot is not None
        entry["bot_name"] = None if taken is None else taken.bot
    return view


def log_view(record: GameRecord) -> dict[str, Any]:
    """The public move log; the replay (deck included) only once the game is over."""
    state = record.state
    if state is None:
        return {"entries": [], "replay": None}
    entries = [{**entry, "version": record.lobby_version + index} for index, entry in enumerate(state.public_log(), 1)]
    return {"entries": entries, "replay": None if state.status == "playing" else state.replay_record()}

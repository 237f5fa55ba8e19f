"""A clock without a clock process: the seam that streams and reads use, and the clock's game options.

Deadlines and paced bots are due times derived from the game's record (``schedule``). Whoever touches a game
applies what fell due, atomically: a change does it first, inside its own transaction (``commands.change``);
a read or a stream wake-up calls ``catch_up``. A stream sleeps until ``next_due(record)``.

Options of every game, kept by the service (the core's games do not know them): ``turn_seconds`` (0: no
deadlines) and ``idle_turns`` (missed deadlines in a row before a bot takes the seat over).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app

from thegame_core.protocol import OptionInfo

from .commands import load_record, ttl_for
from .errors import ApiError
from .game_record import GameRecord
from .schedule import advance, next_due
from .store import Change, GameStore, Snapshot
from .timing import now as clock_now

__all__ = ["OPTIONS", "catch_up", "next_due", "split_options"]

WEEK = 7 * 24 * 3600
OPTIONS = (
    OptionInfo(
        "turn_seconds",
        "int",
        0,
        "seconds a seat has to act whenever the game waits for it (its own actions restart them); then a bot "
        f"plays for it until the game no longer waits for it. 0: no deadlines. Max {WEEK} (a week)",
        min=0,
        max=WEEK,
    ),
    OptionInfo(
        "idle_turns",
        "int",
        3,
        "deadlines missed in a row after which a bot plays the seat until its owner acts again",
        min=1,
        max=100,
    ),
)


def split_options(options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """The core's options and the clock's (validated, defaults filled), from a create body's ``options``;
    ``422 validation_error`` naming a clock option that is not an integer in its range."""
    core = {name: value for name, value in options.items() if name not in {option.name for option in OPTIONS}}
    mine: dict[str, int] = {}
    for option in OPTIONS:
        value = options.get(option.name, option.default)
        assert option.min is not None and option.max is not None
        if type(value) is not int or not option.min <= value <= option.max:
            message = f"{option.name} is an integer from {option.min} to {option.max}"
            raise ApiError("validation_error", message, {"options": {option.name: [message]}})
        mine[option.name] = value
    return core, mine


def catch_up(store: GameStore, game_id: str, now: float | None = None, budget: int | None = None) -> GameRecord:
    """``catch_up(store, game_id, now=None, budget=None) -> GameRecord``: apply, in one atomic transaction,
    what fell due in game ``game_id`` by ``now`` (default: the app's ``CLOCK``), with at most ``budget`` bot
    decisions (default: ``TG_BOT_DECISIONS``); return the record as written (or as read, when nothing was due).
    ``404 unknown_game`` if there is no such game. Needs the app context (the store's TTLs, the defaults)."""
    at = clock_now() if now is None else now
    limit = current_app.config["BOT_DECISIONS"] if budget is None else budget

    def compute(snapshot: Snapshot) -> Change[GameRecord]:
        record = load_record(snapshot)
        caught, _ = advance(record, at, limit)
        if caught is record:
            return Change(record)
        return Change(caught, caught.fields(), ttl_for(caught))

    return store.transact(game_id, None, compute)

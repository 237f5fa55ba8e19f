"""The clock's options, which every game takes beside its own: ``turn_seconds`` and ``idle_turns``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from thegame_core.protocol import OptionInfo

from ..errors import ApiError

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

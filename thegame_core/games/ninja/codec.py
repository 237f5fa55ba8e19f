"""Snapshots of ``State``: a format version, the setup and the history in notation.

Everything else follows from those by the rules, so a snapshot stores nothing else and
``state_from_dict`` replays it: a snapshot no game can reach (an edited deck, an illegal action)
is refused as ``CorruptState`` instead of being played on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import CorruptState, GameError
from .actions import action_from_notation
from .options import resolve_options
from .state import State
from .views import GAME_NAME

FORMAT_VERSION = 1
KEYS = frozenset({"format", "game", "options", "deck", "first_seat", "history"})


def state_to_dict(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "game": GAME_NAME,
        "options": state.options.to_dict(),
        "deck": list(state.deck),
        "first_seat": state.first_seat,
        "history": [action.notation() for action in state.history],
    }


def state_from_dict(data: Mapping[str, Any]) -> State:
    """Rebuild a state written by ``state_to_dict``; ``CorruptState`` if it is not one."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT_VERSION or data.get("game") != GAME_NAME:
        raise CorruptState(f"not a {GAME_NAME} snapshot of format {FORMAT_VERSION}")
    if set(data) != KEYS:
        raise CorruptState(f"a {GAME_NAME} snapshot has exactly the fields {', '.join(sorted(KEYS))}")
    try:
        options = data["options"]
        history = data["history"]
        if not isinstance(history, list) or not all(type(text) is str for text in history):
            raise CorruptState("history must be a list of action notations")
        start = State.start(resolve_options(options["players"], options), data["deck"], data["first_seat"])
        return start.apply_all([action_from_notation(text) for text in history])
    except (GameError, KeyError, TypeError, ValueError, IndexError) as error:
        raise CorruptState(f"damaged {GAME_NAME} snapshot: {error}") from None

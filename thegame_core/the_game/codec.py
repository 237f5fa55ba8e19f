"""Snapshot serialization of ``State``: everything needed to continue a game, with a format version.

A snapshot is read back without replaying (the service loads one per request), and checked for
the card-conservation invariant so that a damaged record is refused rather than played on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import CorruptState, GameError
from .actions import Play, action_from_notation
from .options import resolve_options
from .state import FULL_DECK, GAME_NAME, Outcome, State, check_deck

FORMAT_VERSION = 1


def state_to_dict(state: State) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "game": GAME_NAME,
        "options": state.options.to_dict(),
        "deck": list(state.deck),
        "first_seat": state.first_seat,
        "hands": [list(hand) for hand in state.hands],
        "drawn": state.drawn,
        "tops": list(state.tops),
        "current_seat": state.current_seat,
        "placed_this_turn": state.placed_this_turn,
        "required_this_turn": state.required_this_turn,
        "signals": [list(signal) for signal in state.signals],
        "history": [action.notation() for action in state.history],
        "outcome": None if state.outcome is None else state.outcome.to_dict(),
    }


def state_from_dict(data: Mapping[str, Any]) -> State:
    """Rebuild a state written by ``state_to_dict``; ``CorruptState`` if it is not one."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT_VERSION or data.get("game") != GAME_NAME:
        raise CorruptState(f"not a {GAME_NAME} snapshot of format {FORMAT_VERSION}")
    try:
        options = data["options"]
        outcome = data["outcome"]
        state = State(
            resolve_options(options["players"], options),
            check_deck(data["deck"]),
            int(data["first_seat"]),
            tuple(tuple(int(card) for card in hand) for hand in data["hands"]),
            int(data["drawn"]),
            tuple(int(top) for top in data["tops"]),
            int(data["current_seat"]),
            int(data["placed_this_turn"]),
            int(data["required_this_turn"]),
            tuple((int(seat), str(pile), str(kind)) for seat, pile, kind in data["signals"]),
            tuple(action_from_notation(text) for text in data["history"]),
            None if outcome is None else Outcome(outcome["status"], outcome["reason"], outcome["seat"]),
        )
    except (GameError, KeyError, TypeError, ValueError) as error:
        raise CorruptState(f"damaged {GAME_NAME} snapshot: {error}") from None
    _check_conservation(state)
    return state


def _check_conservation(state: State) -> None:
    placed = [action.card for action in state.history if isinstance(action, Play)]
    held = [card for hand in state.hands for card in hand]
    if len(state.hands) != state.players or sorted(placed + held + list(state.deck[state.drawn :])) != list(FULL_DECK):
        raise CorruptState("damaged snapshot: the 98 cards are not all accounted for")

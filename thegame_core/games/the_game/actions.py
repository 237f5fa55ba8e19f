"""Actions of The Game as small value objects, with a dict form (HTTP, logs) and a compact
notation (storage), in the manner of python-chess moves and their UCI strings.

They are named tuples: immutable, hashable and cheap to build (a simulated game builds
thousands); the rules accept only these exact types, never a plain tuple.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from ...dealt import seat_problem
from ...errors import InvalidAction

PILES = ("asc1", "asc2", "desc1", "desc2")
PILE_INDEX = {name: index for index, name in enumerate(PILES)}
SIGNAL_KINDS = ("dont_play", "no_big_jump")
LOWEST_CARD, HIGHEST_CARD = 2, 99


class Play(NamedTuple):
    """Place ``card`` from ``seat``'s hand on ``pile``."""

    seat: int
    card: int
    pile: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "seat": self.seat, "card": self.card, "pile": self.pile}

    def notation(self) -> str:
        return f"P{self.seat}:{self.card}:{self.pile}"


class EndTurn(NamedTuple):
    """End ``seat``'s turn: draw as many cards as were placed, pass to the next seat holding cards."""

    seat: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": "end_turn", "seat": self.seat}

    def notation(self) -> str:
        return f"E{self.seat}"


class Signal(NamedTuple):
    """Table talk without numbers: ask the others not to play (or not to jump far) on ``pile``.

    Any seat may signal at any time while the game runs; ``clear`` withdraws that seat's signal.
    """

    seat: int
    pile: str
    kind: str
    clear: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"type": "signal", "seat": self.seat, "pile": self.pile, "kind": self.kind, "clear": self.clear}

    def notation(self) -> str:
        return f"S{self.seat}:{self.pile}:{self.kind}" + (":clear" if self.clear else "")


Action = Play | EndTurn | Signal


def is_card(value: Any) -> bool:
    return type(value) is int and LOWEST_CARD <= value <= HIGHEST_CARD


def shape_problem(action: object, players: int) -> str | None:
    """Why ``action`` is malformed for a game of ``players`` seats, or None if it is well-formed.

    Exact types only (no subclasses, no look-alike strings), and the type is checked before any
    comparison, so no value's own ``__eq__`` runs here.
    """
    if not isinstance(action, (Play, EndTurn, Signal)) or type(action) not in (Play, EndTurn, Signal):
        return f"not an action of The Game: {action!r}"
    problem = seat_problem(action.seat, players)
    if problem is not None:
        return problem
    if isinstance(action, EndTurn):
        return None
    if type(action.pile) is not str or action.pile not in PILE_INDEX:
        return f"pile must be one of {', '.join(PILES)}, got {action.pile!r}"
    if isinstance(action, Play):
        return None if is_card(action.card) else f"card must be an integer from 2 to 99, got {action.card!r}"
    if type(action.kind) is not str or action.kind not in SIGNAL_KINDS or type(action.clear) is not bool:
        return f"signal kind must be one of {', '.join(SIGNAL_KINDS)} and clear a boolean, got {action!r}"
    return None


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse the dict form (``{"type": "play", "seat": 0, "card": 37, "pile": "asc1"}``)."""
    if not isinstance(data, Mapping):
        raise InvalidAction(f"an action is an object, got {data!r}")
    kind = data.get("type")
    try:
        if kind == "play":
            return Play(seat=data["seat"], card=data["card"], pile=data["pile"])
        if kind == "end_turn":
            return EndTurn(seat=data["seat"])
        if kind == "signal":
            return Signal(seat=data["seat"], pile=data["pile"], kind=data["kind"], clear=data.get("clear", False))
    except KeyError as missing:
        raise InvalidAction(f"{kind} action lacks {missing}") from None
    raise InvalidAction(f"action type must be play, end_turn or signal, got {kind!r}")


@lru_cache(maxsize=8192)  # a few thousand notations exist; loading a snapshot parses a whole game of them
def action_from_notation(text: str) -> Action:
    """Parse the compact notation written by ``notation()`` (``P0:37:asc1``, ``E0``, ``S1:asc2:dont_play``)."""
    try:
        tag, fields = text[0], text[1:].split(":")
        if tag == "P" and len(fields) == 3:
            return Play(int(fields[0]), int(fields[1]), fields[2])
        if tag == "E" and len(fields) == 1:
            return EndTurn(int(fields[0]))
        if tag == "S" and len(fields) in (3, 4) and fields[3:] in ([], ["clear"]):
            return Signal(int(fields[0]), fields[1], fields[2], clear=len(fields) == 4)
    except (IndexError, ValueError, TypeError):
        pass
    raise InvalidAction(f"not an action notation: {text!r}")

"""What a Ninja state holds, as one named tuple: built in one step and immutable by construction.

A module of its own so that the transitions (``engine``), the legal actions (``legal``) and the
``State`` class can all read it without importing each other.
"""

from __future__ import annotations

from typing import NamedTuple

from ...outcome import Outcome
from .actions import Action
from .options import Options

#: Phases of the pinned view: swapping, a seat to play, a give under way (N8), a refill that asks
#: the placer which face-up card to take (N10).
SWAP, PLAY, GIVE, REFILL = "swap", "play", "give", "refill"
PHASES = (SWAP, PLAY, GIVE, REFILL)

#: ``(giver, target or None while the giver names one, giver who started the chain)``.
GiveInfo = tuple[int, int | None, int]
#: ``(value, placed_by, cards needed to complete)``: an open completion window (N9).
Window = tuple[int, int, int]
#: ``(placer, value, count, origin)``: a placement waiting for its refill's face-up choice before
#: the rest of its resolution (N7.3-N7.7); ``origin`` is the give chain's first giver.
Pending = tuple[int, int, int, int]


class Fields(NamedTuple):
    """Every fact of one moment of a game; the rest (``ref``, views, legal actions) follows from these.

    ``turn`` is the seat whose single action the game needs (the player, the giver or target, the
    refilling placer; ``first_seat`` while swapping). ``out`` lists seats out of cards in the order
    they went out; ``turns`` counts in-turn plays and pick-ups (``max_turns``).
    """

    options: Options
    deck: tuple[int, ...]
    first_seat: int
    hands: tuple[tuple[int, ...], ...]
    face_up: tuple[tuple[int, ...], ...]
    face_down: tuple[tuple[int, ...], ...]
    drawn: int
    pile: tuple[int, ...]
    burned: int
    last_layer: int | None
    phase: str
    turn: int
    ready: tuple[bool, ...]
    give: GiveInfo | None
    window: Window | None
    pending: Pending | None
    turns: int
    out: tuple[int, ...]
    history: tuple[Action, ...]
    outcome: Outcome | None

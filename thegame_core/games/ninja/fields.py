"""What a Ninja state holds, as one named tuple: built in one step and immutable by construction.

A module of its own so that the transitions (``engine``), the legal actions (``legal``) and the
``State`` class can all read it without importing each other.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Literal, NamedTuple

from ...outcome import Outcome, Status
from .actions import Action
from .options import MAX_PLAYERS, Options

#: Phases of the pinned view: swapping, a seat to play, a give under way (N8), a refill that asks
#: the placer which face-up card to take (N10).
Phase = Literal["swap", "play", "give", "refill"]
SWAP: Phase = "swap"
PLAY: Phase = "play"
GIVE: Phase = "give"
REFILL: Phase = "refill"
PHASES: tuple[Phase, ...] = (SWAP, PLAY, GIVE, REFILL)


#: Why a game ended (``engine.OUTCOME_REASONS`` says what each means).
Reason = Literal["out_of_cards", "turn_limit"]


class GiveInfo(NamedTuple):
    """A give under way (N8): ``target`` is None while the giver names one; ``origin`` is the giver
    who started the chain of counters."""

    giver: int
    target: int | None
    origin: int


class Window(NamedTuple):
    """An open completion window (N9): ``need`` copies of ``value`` close it, from any seat but ``placed_by``."""

    value: int
    placed_by: int
    need: int


class Pending(NamedTuple):
    """A placement waiting for its refill's face-up choice before the rest of its resolution
    (N7.3-N7.7); ``origin`` is the give chain's first giver."""

    placer: int
    value: int
    copies: int
    origin: int


class Fields(NamedTuple):
    """Every fact of one moment of a game; the rest (``ref``, views, legal actions) follows from these.

    ``turn`` is the seat whose single action the game needs (the player, the giver or target, the
    refilling placer; ``first_seat`` while swapping). ``out`` lists seats out of cards in the order
    they went out; ``turns`` counts in-turn plays and pick-ups (``max_turns``).

    The last three fields follow from the others (``questions``): the answers a referee asks of every
    state, computed once by the transition that builds it rather than by a call per question.
    ``asking`` is ``asking_order()`` when it follows from the turn alone, None when it must look at
    the hands (an open completion window, out-of-turn options).
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
    phase: Phase
    turn: int
    ready: tuple[bool, ...]
    give: GiveInfo | None
    window: Window | None
    pending: Pending | None
    turns: int
    out: tuple[int, ...]
    history: tuple[Action, ...]
    outcome: Outcome[Reason] | None
    status: Status
    waiting_for: frozenset[int]
    asking: tuple[int, ...] | None


#: Every field of ``Fields`` read by name from an object holding them as attributes (``engine.Table``), in
#: ``Fields``' order: a state is built by name at the cost of one C call.
read_fields = attrgetter(*Fields._fields)
#: The fields that follow from the others (``Fields``).
DERIVED = ("status", "waiting_for", "asking")
PLAYING: Status = "playing"
_NOBODY: frozenset[int] = frozenset()
#: ``ONLY[seat]``: the ``waiting_for`` of a seat's turn; ``ALONE[seat]``: its ``asking_order()``.
ONLY = tuple(frozenset((seat,)) for seat in range(MAX_PLAYERS))
ALONE = tuple((seat,) for seat in range(MAX_PLAYERS))


def questions(
    options: Options,
    phase: Phase,
    turn: int,
    ready: tuple[bool, ...],
    window: Window | None,
    outcome: Outcome[Reason] | None,
) -> tuple[Status, frozenset[int], tuple[int, ...] | None]:
    """``status``, ``waiting_for`` and ``asking`` of a state with these fields (``Fields``).

    Every seat not ready is waited for while swapping; else the one seat whose action is needed.
    """
    if outcome is not None:
        return outcome.status, _NOBODY, ()
    if phase == SWAP:
        return PLAYING, frozenset(seat for seat, done in enumerate(ready) if not done), None
    return PLAYING, ONLY[turn], None if window is not None or options.out_of_turn else ALONE[turn]

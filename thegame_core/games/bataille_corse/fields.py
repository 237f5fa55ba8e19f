"""What a Bataille corse state holds, as one named tuple: a module of its own so that the transitions (``engine``)
and the ``State`` class both read it without importing each other."""

from __future__ import annotations

from operator import attrgetter
from typing import Literal, NamedTuple

from ...outcome import Outcome
from .actions import Action
from .options import Options

#: An open collection window: when it closes (ms, the referee's clock), and the gathered slaps' (at, seat).
Window = tuple[int, tuple[tuple[int, int], ...]]
#: Why a game of Bataille corse ended.
Reason = Literal["all_cards", "flip_limit"]


class Fields(NamedTuple):
    """A state's fields (``engine.Table`` copies them by name)."""

    options: Options
    deck: tuple[str, ...]  # the deal order, as card strings
    first_seat: int
    packets: tuple[tuple[int, ...], ...]  # each seat's queue: index 0 is flipped next
    pile: tuple[int, ...]  # face-up cards, bottom first (with top_face_up, penalty cards among them)
    penalty: tuple[int, ...]  # face-down penalty cards under the pile, in the order paid
    pile_version: int
    challenge: tuple[int, int, int] | None  # challenger, payer, attempts left
    current: int  # the seat to flip
    last_flipper: int | None
    errors: tuple[int, ...]
    blocked: int  # bit per seat: an OUT seat with an error on this pile
    excluded: tuple[int, ...]  # in the order of their exclusion
    ins: int  # bit per seat: IN (cards, or the open challenge's challenger or payer)
    out_at: tuple[int, ...]  # the version at which each seat last went OUT (-1: never)
    flips: int
    won_by: tuple[int, int, int]  # piles won by a slap, by a challenge, otherwise
    window: Window | None  # an open collection window: closes at (ms), gathered (at, seat)
    history: tuple[Action, ...]
    outcome: Outcome[Reason] | None


#: Every field of ``Fields`` read by name from an object holding them as attributes, in ``Fields``' order: a state
#: is built from a table by name at the cost of one C call.
read_fields = attrgetter(*Fields._fields)

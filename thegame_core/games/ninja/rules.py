"""The card rules (N5, N7.4-N7.7, N9) as small pure functions of the pile, the options and the seats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import NINJA

if TYPE_CHECKING:  # options works out its answers by these rules (``Options.plays_on``): it imports this module
    from .options import Options

SIX, EIGHT, NINE, ONE, THIRTEEN = 6, 8, 9, 1, 13
BURN_RUN = 4  # N7.4: four of a kind on top burn the pile
COUNTERS = (THIRTEEN, ONE)  # N8: only these counter a give
NO_COMPLETION = (SIX, NINJA)  # N9: never completed


def reference(pile: Sequence[int], options: Options) -> int | None:
    """``ref`` (N5): the topmost non-NINJA card, NINJA being transparent; with ``ninja_mode="reset"``
    a NINJA on top sets no reference at all (anything may follow). None on an empty pile."""
    if pile and pile[-1] != NINJA:  # most piles: the top card (asked at nearly every action)
        return pile[-1]
    for card in reversed(pile):
        if card != NINJA:
            return card
        if options.reset:
            return None
    return None


def group_legal(value: int, ref: int | None, options: Options) -> bool:
    """Whether a group of ``value`` may be placed on ``ref`` (N5 and its options): the one place this
    rule is written; everything else reads it through ``legal_values``."""
    if value == NINJA or ref is None:
        return True
    if value == ONE and options.strict_one:
        return ref == THIRTEEN
    if value == NINE and options.nine_anywhere:
        return True
    if ref == SIX:
        if value == THIRTEEN and options.thirteen_on_six:
            return True
        return value <= SIX or options.six_mode == "may_le"
    return value >= ref or (value == ONE and ref == THIRTEEN)


def legal_values(ref: int | None, options: Options) -> tuple[bool, ...]:
    """``group_legal(value, ref, options)`` for every value, indexed by value (``ref`` None or 0: no
    reference): worked out once per distinct rules (``Options.plays_on``), for the paths that ask often."""
    return options.plays_on[ref or 0]


def run_length(pile: Sequence[int], options: Options) -> int:
    """How many cards of the top value lie on top of the pile in a row (N7.4, ambiguity 13).

    NINJA breaks a run (0 when it is on top); with ``ninja_breaks_run`` off, NINJA cards are
    skipped and the cards of one value around them form one run.
    """
    skip = not options.ninja_breaks_run
    value, run = NINJA, 0
    for card in reversed(pile):
        if card == NINJA:
            if skip:
                continue
            break
        if run and card != value:
            break
        value, run = card, run + 1
    return run


def completion_need(value: int, run: int, options: Options) -> int:
    """How many copies of ``value`` close the completion window that a placement of ``value`` just
    opened (N9), given the ``run`` on top: 2 on an exact pair, 1 on three of a kind with
    ``single_completion``; 0 for no window."""
    if value in NO_COMPLETION:
        return 0
    if run == 2:
        return 2
    return 1 if run == 3 and options.single_completion else 0


def next_seat(seat: int, players: int, out: Sequence[int]) -> int:
    """The next seat clockwise after ``seat`` still in the game (``out``: seats gone, ``play_to_last``)."""
    seat = (seat + 1) % players
    if out:
        while seat in out:
            seat = (seat + 1) % players
    return seat


def seat_in_game(seat: int, players: int, out: Sequence[int]) -> int:
    """``seat`` if it is still in the game, else the next one clockwise that is."""
    return next_seat(seat, players, out) if seat in out else seat


def after_eights(placer: int, count: int, players: int, out: Sequence[int], options: Options) -> int:
    """The seat to play after ``count`` 8s placed by ``placer`` (N7.7): the next ``count`` other
    seats lose their turn. ``cap``: at most every other seat, so the placer plays again; ``modulo``:
    counting goes on around the table, the placer included."""
    others = [seat for seat in ((placer + step) % players for step in range(1, players)) if seat not in out]
    cap = options.skip_mode == "cap"
    if placer in out:  # a placer who just went out (play_to_last) cannot play again
        return others[min(count, len(others) - 1) if cap else count % len(others)]
    if cap:
        return others[count] if count < len(others) else placer
    return [*others, placer][count % (len(others) + 1)]

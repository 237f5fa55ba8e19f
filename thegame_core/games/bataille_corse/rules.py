"""The slap predicates (C4), on the face-up pile, bottom first: ``pile[-1]`` is c1, the card just played.

Every predicate involves c1, and each is written once, here. ``combinations`` names those that hold (for tests,
docs and curious players); ``slappable`` answers the one question a slap asks, with the two-card combinations read
from a table of these same predicates asked once per pair of ranks (``pair_table``, kept by the options as
``Options.pairs``), then the sandwich and the sums.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .cards import JOKER, VALUE

if TYPE_CHECKING:  # the options keep this module's pair table (``Options.pairs``): they import it
    from .options import Options


def rank(card: int) -> int:
    """0 (ace) .. 12 (king); 13 for a joker."""
    return card >> 2


def _numeric(*ranks: int) -> bool:
    return all(r != JOKER for r in ranks)


def double(pile: tuple[int, ...]) -> bool:
    """c1 and c2 of the same rank (two jokers count)."""
    return len(pile) >= 2 and rank(pile[-1]) == rank(pile[-2])


def sandwich(pile: tuple[int, ...]) -> bool:
    """c1 and c3 of the same rank, c2 of another; a joker may be c2, never c1 or c3."""
    if len(pile) < 3:
        return False
    top, middle, under = rank(pile[-1]), rank(pile[-2]), rank(pile[-3])
    return top == under != middle and top != JOKER


def suite(pile: tuple[int, ...], wrap: bool = False) -> bool:
    """c1 and c2 numeric, values one apart (A-2 and Q-K; K-A too with ``wrap``)."""
    if len(pile) < 2:
        return False
    top, below = rank(pile[-1]), rank(pile[-2])
    return _numeric(top, below) and (abs(top - below) == 1 or (wrap and {top, below} == {0, 12}))


def sum10(pile: tuple[int, ...]) -> bool:
    """Some k >= 2 top cards, all A..9, add up to exactly 10."""
    total = 0
    for card in reversed(pile):
        value = VALUE[rank(card)]
        if not 1 <= value <= 9:
            return False
        total += value
        if total >= 10:
            return total == 10  # one card is at most 9: reaching 10 takes two at least
    return False


def _top_values(pile: tuple[int, ...]) -> set[int] | None:
    if len(pile) < 2 or not _numeric(rank(pile[-1]), rank(pile[-2])):
        return None
    return {VALUE[rank(pile[-1])], VALUE[rank(pile[-2])]}


def product10(pile: tuple[int, ...]) -> bool:
    """c1 and c2 are 2 and 5, or ace and 10."""
    return _top_values(pile) in ({2, 5}, {1, 10})


def poisson(pile: tuple[int, ...]) -> bool:
    """c1 and c2 are 6 and 9."""
    return _top_values(pile) == {6, 9}


def combinations(pile: tuple[int, ...], options: Options) -> list[str]:
    """The names of the enabled combinations that hold on ``pile``."""
    found = {
        "double": options.double and double(pile),
        "sandwich": options.sandwich and sandwich(pile),
        "suite": options.suite and suite(pile, options.wrap_K_A),
        "sum10": options.sum10 and sum10(pile),
        "product10": options.product10 and product10(pile),
        "poisson": options.poisson and poisson(pile),
    }
    return [name for name, holds in found.items() if holds]


@lru_cache(maxsize=64)  # few distinct rules exist; every game builds its Options
def pair_table(
    double_on: bool, suite_on: bool, wrap: bool, product10_on: bool, poisson_on: bool
) -> tuple[tuple[bool, ...], ...]:
    """``pairs[r1][r2]``: whether a card of rank ``r1`` on one of rank ``r2`` slaps by the enabled two-card
    combinations (ranks 0..12, 13: joker), each pair asked of the predicates above; sums are counted by
    ``slappable``, over any number of cards."""
    checks = [
        check
        for enabled, check in (
            (double_on, double),
            (suite_on, lambda pile: suite(pile, wrap)),
            (product10_on, product10),
            (poisson_on, poisson),
        )
        if enabled
    ]
    return tuple(
        tuple(any(check((below << 2, top << 2)) for check in checks) for below in range(JOKER + 1))
        for top in range(JOKER + 1)
    )


def slappable(pile: tuple[int, ...], options: Options) -> bool:
    """Whether a slap on ``pile`` now is valid: ``combinations(pile, options)`` is not empty, answered faster (the
    two-card combinations by one look-up in ``Options.pairs``)."""
    if len(pile) < 2:
        return False
    if options.pairs[pile[-1] >> 2][pile[-2] >> 2]:
        return True
    return (options.sandwich and sandwich(pile)) or (options.sum10 and sum10(pile))

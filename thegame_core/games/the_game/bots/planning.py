"""Whole-turn planning shared by the bots: the cheapest sequence of plays from a hand.

A play's cost is its jump: how far it moves the pile in the pile's direction (a backwards move
is -10). Jumps telescope, so the total jump of a turn only depends on where the piles end: the
planner looks for the ``need`` plays that leave the piles least advanced.

Hands are sorted tuples or lists; piles are indexed as in ``rules`` (two ascending, two descending).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

from ..rules import BACKWARDS

Move = tuple[int, int, int]  # (jump, card, pile index)
NO_MOVE: Move = (1 << 30, 0, -1)


def cheapest_move(hand: Sequence[int], tops: Sequence[int]) -> Move:
    """The single play with the smallest jump (``NO_MOVE`` when nothing is playable)."""
    best = NO_MOVE
    for pile in (0, 1):
        top = tops[pile]
        index = bisect_right(hand, top)
        if index < len(hand) and hand[index] - top < best[0]:
            best = (hand[index] - top, hand[index], pile)
    for pile in (2, 3):
        top = tops[pile]
        index = bisect_left(hand, top)
        if index and top - hand[index - 1] < best[0]:
            best = (top - hand[index - 1], hand[index - 1], pile)
    if best[0] > -BACKWARDS:
        for pile, back in (
            (0, tops[0] - BACKWARDS),
            (1, tops[1] - BACKWARDS),
            (2, tops[2] + BACKWARDS),
            (3, tops[3] + BACKWARDS),
        ):
            if back in hand:
                return (-BACKWARDS, back, pile)
    return best


def candidate_moves(hand: Sequence[int], tops: Sequence[int]) -> list[Move]:
    """Moves worth considering in a plan of several plays, cheapest first.

    On each pile only three kinds of card can belong to a cheapest plan: the backwards card, the
    nearest card in the pile's direction, and a card whose own backwards partner is in hand
    (play 89 then 79). Any other card would jump over the nearest one for nothing.
    """
    held = set(hand)
    moves: list[Move] = []
    for pile in (0, 1):
        top = tops[pile]
        if top - BACKWARDS in held:
            moves.append((-BACKWARDS, top - BACKWARDS, pile))
        index = bisect_right(hand, top)
        if index < len(hand):
            moves.append((hand[index] - top, hand[index], pile))
            moves += [(card - top, card, pile) for card in hand[index + 1 :] if card - BACKWARDS in held]
    for pile in (2, 3):
        top = tops[pile]
        if top + BACKWARDS in held:
            moves.append((-BACKWARDS, top + BACKWARDS, pile))
        index = bisect_left(hand, top)
        if index:
            moves.append((top - hand[index - 1], hand[index - 1], pile))
            moves += [(top - card, card, pile) for card in hand[: index - 1] if card + BACKWARDS in held]
    moves.sort()
    return moves


def cheapest_sequence(hand: Sequence[int], tops: list[int], need: int) -> list[tuple[int, int]] | None:
    """The ``(card, pile)`` sequence of exactly ``need`` plays with the smallest total jump, or None.

    Depth-first branch and bound: moves are tried cheapest first and a branch stops once even
    -10 for every remaining play could not beat the best plan found; the last play of a plan is
    simply the cheapest move left. ``hand`` must be sorted; ``tops`` a list, left as it was.
    """
    best: list[Any] = [1 << 30, None]
    if need > 0:
        _search(hand, tops, need, 0, [], best)
    plan: list[tuple[int, int]] | None = best[1]
    return plan


def _search(
    hand: Sequence[int], tops: list[int], need: int, cost: int, path: list[tuple[int, int]], best: list[Any]
) -> None:
    """Improve ``best`` (``[cost, plan]``) with the plans that extend ``path`` by ``need`` plays."""
    if need == 1:
        jump, card, pile = cheapest_move(hand, tops)
        if pile >= 0 and cost + jump < best[0]:
            best[0], best[1] = cost + jump, [*path, (card, pile)]
        return
    for jump, card, pile in candidate_moves(hand, tops):
        if cost + jump - BACKWARDS * (need - 1) >= best[0]:
            break
        previous = tops[pile]
        tops[pile] = card
        path.append((card, pile))
        _search([other for other in hand if other != card], tops, need - 1, cost + jump, path, best)
        path.pop()
        tops[pile] = previous


def plan_turn(hand: Sequence[int], tops: Sequence[int], need: int, cheap: int) -> list[tuple[int, int]]:
    """The required plays (as many as can be placed, up to ``need``), then extra plays of jump <= ``cheap``."""
    rest, after = list(hand), list(tops)  # bisect is fastest on a list
    plan: list[tuple[int, int]] = []
    for count in range(need, 0, -1):
        found = cheapest_sequence(rest, after, count)
        if found is not None:
            plan = found
            break
    for card, pile in plan:
        rest.remove(card)
        after[pile] = card
    jump, card, pile = cheapest_move(rest, after)
    while jump <= cheap:
        rest.remove(card)
        after[pile] = card
        plan.append((card, pile))
        jump, card, pile = cheapest_move(rest, after)
    return plan

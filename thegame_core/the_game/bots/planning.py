"""Whole-turn planning shared by the bots: the cheapest sequence of plays from a hand.

A play's cost is its jump: how far it moves the pile in the pile's direction (a backwards move
is -10). The total jump of a turn only depends on where the piles end, so the planner looks for
the sequence of ``need`` plays that leaves the piles least advanced.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import rules

Move = tuple[int, int, int]  # (jump, card, pile index)


def candidate_moves(hand: Sequence[int], tops: Sequence[int]) -> list[Move]:
    """Moves worth considering, cheapest first.

    On each pile only three kinds of card can belong to a cheapest plan: the backwards card, the
    nearest card in the pile's direction, and a card whose own backwards partner is in hand
    (play 89 then 79). Every other card on that pile would jump over the nearest one for nothing.
    """
    held = set(hand)
    moves: list[Move] = []
    for pile in range(4):
        ascending = rules.ASCENDING[pile]
        top = tops[pile]
        step = rules.BACKWARDS if ascending else -rules.BACKWARDS
        if top - step in held:
            moves.append((-rules.BACKWARDS, top - step, pile))
        ahead = [card for card in hand if (card > top if ascending else card < top)]
        if not ahead:
            continue
        nearest = min(ahead) if ascending else max(ahead)
        moves.append((rules.jump(ascending, top, nearest), nearest, pile))
        moves.extend(
            (rules.jump(ascending, top, card), card, pile) for card in ahead if card != nearest and card - step in held
        )
    moves.sort()
    return moves


def cheapest_sequence(hand: Sequence[int], tops: Sequence[int], need: int) -> list[tuple[int, int]] | None:
    """The ``(card, pile)`` sequence of exactly ``need`` plays with the smallest total jump, or None.

    Depth-first branch and bound over ``candidate_moves``: moves are tried cheapest first and a
    branch stops once even -10 for every remaining play could not beat the best plan found.
    """
    best_cost = float("inf")
    best: list[tuple[int, int]] | None = None
    path: list[tuple[int, int]] = []

    def search(hand: list[int], tops: list[int], need: int, cost: int) -> None:
        nonlocal best_cost, best
        if need == 0:
            if cost < best_cost:
                best_cost, best = cost, list(path)
            return
        for jump, card, pile in candidate_moves(hand, tops):
            if cost + jump - rules.BACKWARDS * (need - 1) >= best_cost:
                break
            previous = tops[pile]
            tops[pile] = card
            hand.remove(card)
            path.append((card, pile))
            search(hand, tops, need - 1, cost + jump)
            path.pop()
            hand.append(card)
            hand.sort()
            tops[pile] = previous

    search(sorted(hand), list(tops), need, 0)
    return best


def plan_turn(hand: Sequence[int], tops: Sequence[int], need: int, cheap: int) -> list[tuple[int, int]]:
    """The required plays (as many as can be placed, up to ``need``), then extra plays of jump <= ``cheap``."""
    plan: list[tuple[int, int]] = []
    for count in range(need, 0, -1):
        found = cheapest_sequence(hand, tops, count)
        if found is not None:
            plan = found
            break
    hand, tops = sorted(hand), list(tops)
    for card, pile in plan:
        hand.remove(card)
        tops[pile] = card
    while hand:
        moves = candidate_moves(hand, tops)
        if not moves or moves[0][0] > cheap:
            break
        _, card, pile = moves[0]
        hand.remove(card)
        tops[pile] = card
        plan.append((card, pile))
    return plan

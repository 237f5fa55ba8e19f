"""Whole-turn search for ``best``: every pile configuration a hand can reach, scored by card counting.

The cost of a turn depends only on where the piles start and end and on which cards are still
live afterwards (unseen, or kept in hand), so the search enumerates reachable end states
``(hand left, tops)`` once each and scores them; the order of plays only has to be legal.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import accumulate, pairwise

from ..rules import ASCENDING, BACKWARDS

Hand = tuple[int, ...]
Tops = tuple[int, ...]


@dataclass(frozen=True)
class Plan:
    """The plays of a turn (``(card, pile index)`` in order) and the hand and piles they leave."""

    plays: list[tuple[int, int]]
    tops: Tops
    hand: Hand

    @classmethod
    def after(cls, hand: Hand, tops: Tops, plays: list[tuple[int, int]]) -> Plan:
        """The plan of ``plays`` made from ``hand`` and ``tops``."""
        for card, pile in plays:
            hand, tops = after_play(hand, tops, card, pile)
        return cls(plays, tops, hand)


def backwards_card(pile: int, top: int) -> int:
    """The card that moves ``pile`` back by exactly ten."""
    return top - BACKWARDS if ASCENDING[pile] else top + BACKWARDS


def after_play(hand: Hand, tops: Tops, card: int, pile: int) -> tuple[Hand, Tops]:
    """The hand and piles once ``card`` is placed on ``pile``."""
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :], (*tops[:pile], card, *tops[pile + 1 :])


def candidate_moves(hand: Hand, tops: Tops) -> Iterator[tuple[int, int]]:
    """``(card, pile)`` plays worth trying: per pile the backwards card, the nearest card, and cards
    whose own backwards card is in hand (89 then 79). Any other card would jump over a card we hold."""
    held = set(hand)
    for pile, top in enumerate(tops):
        back = backwards_card(pile, top)
        if back in held:
            yield back, pile
        ahead = [card for card in hand if card > top] if ASCENDING[pile] else [card for card in hand if card < top]
        if not ahead:
            continue
        nearest = ahead[0] if ASCENDING[pile] else ahead[-1]
        yield nearest, pile
        for card in ahead:
            if card != nearest and backwards_card(pile, card) in held:
                yield card, pile


def reachable(hand: Hand, tops: Tops, need: int, scorer: Scorer) -> Iterator[Plan]:
    """Every end state worth scoring (the start included), each once, with one legal play order.

    The first ``need`` plays are searched in full; beyond them only plays that skip at most
    ``scorer.extra_limit`` live cards, backwards moves and their set-ups are tried (extra plays that
    jump further never pay, and trying them makes big hands slow).
    """
    seen: set[tuple[Hand, Tops]] = set()
    stack = [Plan([], tops, hand)]
    while stack:
        plan = stack.pop()
        key = (plan.hand, plan.tops)
        if key in seen:
            continue
        seen.add(key)
        yield plan
        required = len(plan.plays) < need
        for card, pile in candidate_moves(plan.hand, plan.tops):
            if required or scorer.worth_extra(plan, card, pile):
                hand_after, tops_after = after_play(plan.hand, plan.tops, card, pile)
                stack.append(Plan([*plan.plays, (card, pile)], tops_after, hand_after))


@dataclass
class Scorer:
    """Scores an end state of the turn (lower is better); see ``best.Params`` for the weights."""

    unseen: frozenset[int]
    reach: float
    losses: tuple[float, ...]
    hold: float
    avoid: set[int]
    signalled: float
    extra_limit: float
    prefix: list[int] = field(init=False)
    values: list[float] = field(init=False)

    def __post_init__(self) -> None:
        self.values = list(accumulate(self.losses, initial=0.0))
        self.prefix = list(accumulate(int(card in self.unseen) for card in range(102)))

    def worth_extra(self, plan: Plan, card: int, pile: int) -> bool:
        """Whether an extra play may pay: it is cheap, moves back, or sets up a backwards move."""
        top = plan.tops[pile]
        if card == backwards_card(pile, top) or backwards_card(pile, card) in plan.hand:
            return True
        return self.live_between(min(top, card), max(top, card), plan.hand) <= self.extra_limit

    def live_between(self, low: int, high: int, hand: Hand) -> int:
        """Live cards strictly between ``low`` and ``high``: unseen ones and the ones we keep."""
        if high - low < 2:
            return 0
        return self.prefix[high - 1] - self.prefix[low] + sum(1 for card in hand if low < card < high)

    def coverage(self, tops: Tops, hand: Hand) -> float:
        """How well the piles accept the live cards: each card is worth ``values[k]`` when ``k`` piles
        accept it in their direction. Piles cut 2..99 into at most five runs of equal ``k``."""
        bounds = sorted({1, 100, *tops})
        total = 0.0
        for low, high in pairwise(bounds):
            card = low + 1
            accepting = (card > tops[0]) + (card > tops[1]) + (card < tops[2]) + (card < tops[3])
            total += self.values[accepting] * self.live_between(low, high, hand)
        return total

    def score(self, start: Tops, plan: Plan, need: int) -> float:
        hand, tops = plan.hand, plan.tops
        cost = self.coverage(start, hand) - self.coverage(tops, hand)
        for pile in range(4):
            if pile in self.avoid and start[pile] != tops[pile]:
                cost += self.signalled
            if backwards_card(pile, tops[pile]) in hand:
                cost -= self.hold
        return cost - self.reach * (len(plan.plays) - need)


def ranked_plans(hand: Hand, tops: Tops, need: int, scorer: Scorer, count: int) -> list[tuple[float, Plan]]:
    """Up to ``count`` best-scored end states, best first, as ``(score, plan)``: among those with at
    least ``need`` plays (or, if none has, among those with the most plays)."""
    scored = [
        (-min(len(plan.plays), need), scorer.score(tops, plan, need), index, plan)
        for index, plan in enumerate(reachable(hand, tops, need, scorer))
    ]
    best = heapq.nsmallest(count, scored)
    return [(score, plan) for placed, score, _, plan in best if placed == best[0][0]]


def best_plan(hand: Hand, tops: Tops, need: int, scorer: Scorer) -> Plan:
    """The best-scored end state with at least ``need`` plays (or with the most plays if none has)."""
    return ranked_plans(hand, tops, need, scorer, 1)[0][1]

"""Determinised lookahead for one player: candidate turns compared over sampled draw orders.

Alone, the only hidden thing is the *order* of the draw pile: the cards in it are exactly the
cards neither in hand nor played. So a candidate turn can be judged by dealing the draw pile in a
few random orders and playing each on to the end with a fast policy (``Rollout``); the candidate
that leaves the fewest cards on average (plus a share of its heuristic score) wins. The orders come
in rounds and candidates clearly behind drop out after each, so the samples go to the close calls
(``choose``). Every candidate still in the race sees the same orders, so the comparison is paired.
Rollouts work on plain lists and ints, not on the game's immutable ``State``.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right, insort
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import BACKWARDS
from .turns import Plan

#: A cost that sorts after any real move (a pile nothing can be played on).
NONE = 1 << 20


class Rollout:
    """One game played on from a position with a known draw order, by a greedy card-counting policy.

    Each play is the move skipping the fewest live cards (cards not yet placed: in hand or to
    draw); a backwards move costs -10. After the required plays, moves skipping at most ``extra``
    live cards are played too.
    """

    def __init__(
        self, hand: Sequence[int], tops: Sequence[int], draw: Sequence[int], extra: int, least: int, dead: int = 4
    ) -> None:
        self.dead = dead
        self.hand = sorted(hand)
        self.tops = list(tops)
        self.draw = list(draw)
        self.extra = extra
        self.least = least
        self.live = bytearray(102)
        for card in (*hand, *draw):
            self.live[card] = 1

    def cards_left(self) -> int:
        """Play to the end; the cards never placed (0 is a win)."""
        drawn = 0
        while self.hand:
            need = min(self.least if drawn < len(self.draw) else 1, len(self.hand))
            placed = self.turn(need)
            if placed < need:
                break
            fresh = self.draw[drawn : drawn + placed]
            drawn += len(fresh)
            for card in fresh:
                insort(self.hand, card)
        return len(self.hand) + len(self.draw) - drawn

    def turn(self, need: int) -> int:
        """Play one turn; the number of cards placed (fewer than ``need`` means the game is lost)."""
        placed = 0
        while self.hand:
            cost, card, pile = self.cheapest()
            if cost == NONE or (placed >= need and cost > self.extra):
                break
            self.place(card, pile)
            placed += 1
        return placed

    def cheapest(self) -> tuple[int, int, int]:
        """``(cost, card, pile)`` of the cheapest move: live cards skipped, ``dead`` more for each
        one no other pile accepts any more; a backwards move costs -10."""
        hand, live, dead = self.hand, self.live, self.dead
        up1, up2, down1, down2 = self.tops
        held = set(hand)
        if up1 - BACKWARDS in held:
            return (-BACKWARDS, up1 - BACKWARDS, 0)
        if up2 - BACKWARDS in held:
            return (-BACKWARDS, up2 - BACKWARDS, 1)
        if down1 + BACKWARDS in held:
            return (-BACKWARDS, down1 + BACKWARDS, 2)
        if down2 + BACKWARDS in held:
            return (-BACKWARDS, down2 + BACKWARDS, 3)
        best, best_card, best_pile = NONE, 0, -1
        floor = down1 if down1 > down2 else down2  # cards from here up no descending pile accepts
        for pile, top, other in ((0, up1, up2), (1, up2, up1)):
            index = bisect_right(hand, top)
            if index < len(hand):
                card = hand[index]
                cost = live.count(1, top + 1, card)
                low, high = (top + 1 if top >= floor else floor), (card if card <= other else other + 1)
                if low < high:
                    cost += dead * live.count(1, low, high)
                if cost < best:
                    best, best_card, best_pile = cost, card + BACKWARDS if card + BACKWARDS in held else card, pile
        ceiling = up1 if up1 < up2 else up2  # cards up to here no ascending pile accepts
        for pile, top, other in ((2, down1, down2), (3, down2, down1)):
            index = bisect_left(hand, top)
            if index:
                card = hand[index - 1]
                cost = live.count(1, card + 1, top)
                low, high = (card + 1 if card >= other else other), (top if top <= ceiling else ceiling + 1)
                if low < high:
                    cost += dead * live.count(1, low, high)
                if cost < best:
                    best, best_card, best_pile = cost, card - BACKWARDS if card - BACKWARDS in held else card, pile
        return best, best_card, best_pile

    def place(self, card: int, pile: int) -> None:
        self.hand.remove(card)
        self.live[card] = 0
        self.tops[pile] = card


@dataclass(frozen=True)
class Settings:
    """How candidate turns are judged: ``samples`` draw orders a round, rollouts playing extra cards
    that skip at most ``extra`` live cards and at least ``least`` cards a turn while the pile lasts;
    a win is worth ``win_bonus`` cards, and ``prior`` times the heuristic's score is added. After
    each round, candidates worse than the best by more than ``gap`` drop out; up to ``rounds``
    rounds are played while more than one is left, so samples go to the close calls."""

    samples: int
    extra: int
    least: int
    win_bonus: float
    prior: float
    rounds: int = 1
    gap: float = 0.0

    def __post_init__(self) -> None:
        if self.samples < 1 or self.rounds < 1 or self.gap < 0:
            raise ValueError("a race needs samples >= 1, rounds >= 1 and gap >= 0")


def plan_total(plan: Plan, draws: list[list[int]], settings: Settings) -> float:
    """The cards ``plan`` leaves summed over ``draws`` (draw orders), playing on by ``Rollout``,
    a won draw counting ``-win_bonus`` (lower is better)."""
    placed = len(plan.plays)
    total = 0.0
    for draw in draws:
        hand = (*plan.hand, *draw[:placed])
        left = Rollout(hand, plan.tops, draw[placed:], settings.extra, settings.least).cards_left()
        total += left or -settings.win_bonus
    return total


def choose(ranked: list[tuple[float, Plan]], unseen: Sequence[int], rng: random.Random, settings: Settings) -> Plan:
    """The plan of ``ranked`` (``(heuristic score, plan)``, best first) with the best value: its
    average over the sampled draw orders plus ``prior`` times its score.

    Every plan still in the race is judged on the same draw orders; ties keep the heuristic's order.
    """
    alive = list(range(len(ranked)))
    totals = [0.0] * len(ranked)
    values: dict[int, float] = {}
    drawn = 0
    for _ in range(settings.rounds):
        draws = []
        for _ in range(settings.samples):
            draw = list(unseen)
            rng.shuffle(draw)
            draws.append(draw)
        drawn += len(draws)
        for index in alive:
            totals[index] += plan_total(ranked[index][1], draws, settings)
        values = {index: totals[index] / drawn + settings.prior * ranked[index][0] for index in alive}
        best = min(values.values())
        alive = [index for index in alive if values[index] - best <= settings.gap]
        if len(alive) == 1:
            break
    return ranked[min(alive, key=lambda index: (values[index], index))][1]

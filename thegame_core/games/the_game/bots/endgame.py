"""Exact endgame search, for when no card is hidden any more.

Once the draw pile is empty and at most one other seat holds cards, card counting tells every
hand: the other seat holds exactly the unseen cards. The rest of the game is then a puzzle with
full information, shared by both seats: a depth-first search over single plays and turn ends
(smallest jump first, dead ends memoized, a node budget) finds a way to place every card. The
other seat, searching the same position deterministically, finds a continuation of it.
"""

from __future__ import annotations

from ..rules import ASCENDING, jump, legal_plays
from .turns import Hand, Tops, after_play

#: A play jumping further than this is tried only after ending the turn was.
PATIENCE = 4


class OutOfBudget(Exception):
    """The search visited its node budget without an answer."""


class TeamSearch:
    """Places every card: ``hands`` (the seat to move first) and then the ``draw`` pile, in draw order.

    A turn places at least ``min_per_turn`` cards while the draw pile lasts, ``min_after_empty``
    after (never more than the hand), then its player draws as many as were placed.
    """

    def __init__(self, min_per_turn: int, min_after_empty: int, budget: int) -> None:
        self.min_per_turn = min_per_turn
        self.min_after_empty = min_after_empty
        self.budget = budget
        self.failed: set[tuple[tuple[Hand, ...], Tops, int, int, int]] = set()

    def solve(
        self, hands: tuple[Hand, ...], tops: Tops, draw: Hand, placed: int, required: int
    ) -> list[tuple[int, int]] | None:
        """The first seat's plays for this turn in a winning line, or None (no line, or out of budget)."""
        line: list[tuple[int, int]] = []
        try:
            found = self.search(hands, tops, draw, placed, required, line)
        except OutOfBudget:
            return None
        return line if found else None

    def search(
        self, hands: tuple[Hand, ...], tops: Tops, draw: Hand, placed: int, required: int, line: list[tuple[int, int]]
    ) -> bool:
        hand = hands[0]
        if not draw and not any(hands):
            return True
        key = (hands, tops, len(draw), placed, required)
        if key in self.failed:
            return False
        self.budget -= 1
        if self.budget < 0:
            raise OutOfBudget
        plays = sorted(legal_plays(hand, tops), key=lambda play: jump(ASCENDING[play[1]], tops[play[1]], play[0]))
        cheap = [play for play in plays if jump(ASCENDING[play[1]], tops[play[1]], play[0]) <= PATIENCE]
        for card, pile in cheap:
            if self.play(hands, tops, draw, placed, required, line, card, pile):
                return True
        may_end = (placed >= required or not hand) and (len(hands) > 1 or bool(draw))
        if may_end and self.end_turn(hands, tops, draw, placed):
            return True
        for card, pile in plays[len(cheap) :]:
            if self.play(hands, tops, draw, placed, required, line, card, pile):
                return True
        self.failed.add(key)
        return False

    def play(
        self,
        hands: tuple[Hand, ...],
        tops: Tops,
        draw: Hand,
        placed: int,
        required: int,
        line: list[tuple[int, int]],
        card: int,
        pile: int,
    ) -> bool:
        hand, tops_after = after_play(hands[0], tops, card, pile)
        line.append((card, pile))
        if self.search((hand, *hands[1:]), tops_after, draw, placed + 1, required, line):
            return True
        line.pop()
        return False

    def end_turn(self, hands: tuple[Hand, ...], tops: Tops, draw: Hand, placed: int) -> bool:
        """Draw, pass to the next seat holding cards, and search on from the start of its turn."""
        drawn = min(placed, len(draw))
        hands = self.next_turn((tuple(sorted(hands[0] + draw[:drawn])), *hands[1:]))
        draw = draw[drawn:]
        least = self.min_per_turn if draw else self.min_after_empty
        return self.search(hands, tops, draw, 0, min(least, len(hands[0])), [])

    @staticmethod
    def next_turn(hands: tuple[Hand, ...]) -> tuple[Hand, ...]:
        """Hands rotated to the next seat holding cards (an empty hand is skipped)."""
        rotated = (*hands[1:], hands[0])
        while not rotated[0]:
            rotated = (*rotated[1:], rotated[0])
        return rotated

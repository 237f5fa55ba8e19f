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
    """Places every card of ``hands`` (the seat to move first), ``least`` cards per turn at least."""

    def __init__(self, least: int, budget: int) -> None:
        self.least = least
        self.budget = budget
        self.failed: set[tuple[tuple[Hand, ...], Tops, bool]] = set()

    def solve(self, hands: tuple[Hand, ...], tops: Tops, placed: int) -> list[tuple[int, int]] | None:
        """The first seat's plays for this turn in a winning line, or None (no line, or out of budget)."""
        line: list[tuple[int, int]] = []
        try:
            found = self.search(hands, tops, placed, line)
        except OutOfBudget:
            return None
        return line if found else None

    def search(self, hands: tuple[Hand, ...], tops: Tops, placed: int, line: list[tuple[int, int]]) -> bool:
        hand = hands[0]
        if not any(hands):
            return True
        may_end = placed >= min(self.least, len(hand))
        key = (hands, tops, may_end)
        if key in self.failed:
            return False
        self.budget -= 1
        if self.budget < 0:
            raise OutOfBudget
        plays = sorted(legal_plays(hand, tops), key=lambda play: jump(ASCENDING[play[1]], tops[play[1]], play[0]))
        cheap = [play for play in plays if jump(ASCENDING[play[1]], tops[play[1]], play[0]) <= PATIENCE]
        for card, pile in cheap:
            if self.play(hands, tops, placed, line, card, pile):
                return True
        if may_end and len(hands) > 1 and self.search(self.next_turn(hands), tops, 0, []):
            return True
        for card, pile in plays[len(cheap) :]:
            if self.play(hands, tops, placed, line, card, pile):
                return True
        self.failed.add(key)
        return False

    def play(
        self, hands: tuple[Hand, ...], tops: Tops, placed: int, line: list[tuple[int, int]], card: int, pile: int
    ) -> bool:
        hand, tops_after = after_play(hands[0], tops, card, pile)
        line.append((card, pile))
        if self.search((hand, *hands[1:]), tops_after, placed + 1, line):
            return True
        line.pop()
        return False

    @staticmethod
    def next_turn(hands: tuple[Hand, ...]) -> tuple[Hand, ...]:
        """Hands rotated to the next seat holding cards (an empty hand is skipped)."""
        rotated = (*hands[1:], hands[0])
        while not rotated[0]:
            rotated = (*rotated[1:], rotated[0])
        return rotated


def place_all(hand: Hand, tops: Tops, budget: int = 100_000) -> list[tuple[int, int]] | None:
    """A legal order of ``(card, pile)`` plays placing all of ``hand``, or None if there is none."""
    return TeamSearch(1, budget).solve((hand,), tops, 0)

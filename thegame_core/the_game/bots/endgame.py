"""Exact endgame search: place every card of a hand when nothing else is left to play.

Once the draw pile is empty and every other hand is empty, the game is a puzzle with full
information: a depth-first search over legal plays (smallest jump first, dead ends memoized)
either finds an order that places the whole hand, or proves none exists.
"""

from __future__ import annotations

from ..rules import ASCENDING, jump, legal_plays
from .turns import Hand, Tops, after_play


def place_all(hand: Hand, tops: Tops) -> list[tuple[int, int]] | None:
    """A legal order of ``(card, pile)`` plays placing all of ``hand``, or None if there is none."""
    failed: set[tuple[Hand, Tops]] = set()

    def search(hand: Hand, tops: Tops) -> list[tuple[int, int]] | None:
        if not hand:
            return []
        if (hand, tops) in failed:
            return None
        plays = sorted(legal_plays(hand, tops), key=lambda play: jump(ASCENDING[play[1]], tops[play[1]], play[0]))
        for card, pile in plays:
            rest = search(*after_play(hand, tops, card, pile))
            if rest is not None:
                return [(card, pile), *rest]
        failed.add((hand, tops))
        return None

    return search(hand, tops)

"""The rules of placing cards (spec: "Placing a card" and "End of the game") as pure functions.

Piles are indexed 0..3 in the order of ``actions.PILES``: two ascending, then two descending.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

ASCENDING = (True, True, False, False)
BASES = (1, 1, 100, 100)
BACKWARDS = 10
CARDS_IN_DECK = 98


def accepts(ascending: bool, top: int, card: int) -> bool:
    """Ascending: ``card > top`` or exactly 10 below; descending: ``card < top`` or exactly 10 above."""
    if ascending:
        return card > top or card == top - BACKWARDS
    return card < top or card == top + BACKWARDS


def jump(ascending: bool, top: int, card: int) -> int:
    """How far the pile moves in its own direction; a backwards move gives -10 (a gain)."""
    return card - top if ascending else top - card


def legal_plays(hand: Sequence[int], tops: Sequence[int]) -> list[tuple[int, int]]:
    """Every ``(card, pile_index)`` that may be placed now, cards ascending, piles in order."""
    return [(card, pile) for card in hand for pile in range(4) if accepts(ASCENDING[pile], tops[pile], card)]


def can_place(hand: Sequence[int], tops: Sequence[int], need: int) -> bool:
    """Whether some sequence of ``need`` legal plays from the sorted ``hand`` exists (spec: "Lost").

    Cards that are legal right now can always all be placed: on each pile play its one
    backwards card first, then the others in the pile's direction. So count them (with bisect:
    this runs at every turn of every game); only when too few are legal now, search plays
    that open the way for others (89 then 79 on an ascending pile).
    """
    if need <= 0:
        return True
    up1, up2, down1, down2 = tops
    lowest_up = up1 if up1 < up2 else up2
    highest_down = down1 if down1 > down2 else down2
    if lowest_up < highest_down:  # every card is above an ascending top or below a descending one
        return len(hand) >= need
    legal = len(hand) - bisect_right(hand, lowest_up) + bisect_left(hand, highest_down)
    backwards = {up1 - BACKWARDS, up2 - BACKWARDS, down1 + BACKWARDS, down2 + BACKWARDS}
    legal += sum(1 for card in backwards if highest_down <= card <= lowest_up and card in hand)
    if legal >= need:
        return True
    for card, pile in legal_plays(hand, tops):
        after = list(tops)
        after[pile] = card
        if can_place([other for other in hand if other != card], after, need - 1):
            return True
    return False

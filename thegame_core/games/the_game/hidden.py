"""What one seat cannot see, and deals of it consistent with what it saw (``State.resample``).

A seat sees its own hand and every card played; the other hands and the draw order are hidden. The cards it cannot
place (``unseen_cards``) are exactly the other hands and the draw pile, whose sizes are public.
"""

from __future__ import annotations

import random
from itertools import accumulate

from .actions import Play
from .views import Observation

FULL_DECK = tuple(range(2, 100))


def unseen_cards(observation: Observation) -> frozenset[int]:
    """Cards still to come: neither in our hand nor played (in the draw pile or another hand)."""
    played = {action.card for action in observation.history if isinstance(action, Play)}
    return frozenset(FULL_DECK) - played - set(observation.hand)


def deal(cards: list[int], sizes: list[int]) -> list[tuple[int, ...]]:
    """``cards`` split, in order, into sorted hands of ``sizes``."""
    ends = list(accumulate(sizes))
    return [tuple(sorted(cards[end - size : end])) for size, end in zip(sizes, ends, strict=True)]


def hidden_deal(observation: Observation, rng: random.Random) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every hand (the seat's own as it is, the others dealt from the unseen cards at random) and a deck whose cards
    from ``drawn`` on are a random draw order of the rest; the deck's earlier cards are the ones already drawn, in no
    particular order (nothing reads them but a replay record)."""
    seat = observation.seat
    assert seat is not None, "a spectator has no hand to keep"
    unseen = sorted(unseen_cards(observation))
    rng.shuffle(unseen)
    sizes = [0 if other == seat else size for other, size in enumerate(observation.hand_sizes)]
    dealt = deal(unseen, sizes)
    hands = tuple(observation.hand if other == seat else cards for other, cards in enumerate(dealt))
    draw = unseen[sum(sizes) :]
    drawn = sorted(set(FULL_DECK) - set(draw))
    return hands, (*drawn, *draw)

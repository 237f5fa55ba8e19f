"""Deals of the cards one seat cannot see, consistent with what it saw (``State.resample``).

Hidden from a seat: the other hands, every face-down card (its own too) and the stock's order. What it knows of
them comes from the public history, which ``bots.knowledge.Tracker`` replays from the seat's first observation (the
burned values, the piles other seats picked up, swaps, face-up cards taken): the hidden cards are dealt from the
rest, as the ``best`` bot deals them for its own search.
"""

from __future__ import annotations

import random
from collections import Counter

from .bots.knowledge import Tracker
from .cards import FULL_DECK
from .views import Observation

Cards = tuple[int, ...]


def hidden_deal(
    first: Observation, now: Observation, rng: random.Random
) -> tuple[tuple[Cards, ...], tuple[Cards, ...], Cards]:
    """Every hand (sorted; the seat's own as it is), every seat's face-down cards, and a deck whose cards from the
    stock's start on are a random stock: from the seat's observation at the deal (``first``) and now (``now``). The
    deck's earlier cards are those dealt or drawn already, in no particular order (only a replay record reads them)."""
    seat = now.seat
    assert seat is not None, "a spectator has no hand to keep"
    tracker = Tracker(first)
    tracker.update(now)
    hands, face_down, stock = tracker.deal_hidden(seat, now.hand, rng)
    gone = Counter(FULL_DECK)
    gone.subtract(stock)
    dealt = sorted(gone.elements())[: len(FULL_DECK) - len(stock)]
    return tuple(tuple(sorted(cards)) for cards in hands), tuple(map(tuple, face_down)), (*dealt, *stock)

"""Deals of the cards one seat cannot see, consistent with what it saw (``State.resample``).

Nobody sees a packet's cards, its owner included, nor the face-down penalty cards under the pile: a seat's
observation shows the face-up pile and the counts. The hidden cards are the game's cards less the pile, dealt at
random into packets and penalty cards of the counts shown. (A seat that remembered every collected pile would know
more; the observation, which is all a bot is given, does not hold it.)
"""

from __future__ import annotations

import random

from .cards import CARD_OF, NAMES, deck_names
from .views import Observation

Cards = tuple[int, ...]


def hidden_deal(observation: Observation, rng: random.Random) -> tuple[tuple[Cards, ...], Cards, tuple[str, ...]]:
    """Every packet, the penalty cards and a deck (the cards as strings, in no particular order: only a replay record
    reads it), from one seat's observation."""
    pile = set(observation.pile)
    hidden = [card for card in (CARD_OF[name] for name in deck_names(observation.options.jokers)) if card not in pile]
    rng.shuffle(hidden)
    packets: list[Cards] = []
    for count in observation.packets:
        packets.append(tuple(hidden[:count]))
        del hidden[:count]
    penalty = tuple(hidden)
    deck = tuple(
        NAMES[card] for card in (*observation.pile, *penalty, *(card for packet in packets for card in packet))
    )
    return tuple(packets), penalty, deck

"""Bataille corse's cards (rules C1, "Cards"): an int per card inside, a string per card outside.

Card ``c`` of 0..51 has rank ``c >> 2`` (0 = ace .. 12 = king) and suit ``c & 3`` (spades, hearts, diamonds,
clubs); the jokers are 52 and 53, both of rank 13, with no numeric value. Strings (``"AS"``, ``"10H"``, ``"QD"``,
``"RJ"``, ``"BJ"``) are what views, decks and replay records show.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...dealt import shuffled
from ...errors import InvalidSetup

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
JOKER = 13  # the jokers' rank
NAMES = (*(rank + suit for rank in RANKS for suit in SUITS), "RJ", "BJ")
CARD_OF = {name: card for card, name in enumerate(NAMES)}
PLAIN_DECK = NAMES[:52]
JOKER_DECK = NAMES
#: The numeric value of each rank (C1): A = 1 .. K = 13; a joker has none (0).
VALUE: tuple[int, ...] = (*range(1, 14), 0)
#: Tries an honour gives its payer (C1), by rank: J 1, Q 2, K 3, A 4, joker 5; 0 for any other card.
TRIES = (4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 5)
#: The same for the catalog (``facts``): each honour's rank, or a joker's card string, -> its tries.
HONOURS = {
    **{rank: tries for rank, tries in zip(RANKS, TRIES, strict=False) if tries},
    **{joker: TRIES[JOKER] for joker in NAMES[52:]},
}


def deck_names(jokers: bool) -> tuple[str, ...]:
    """Every card of the game, in rank then suit order."""
    return JOKER_DECK if jokers else PLAIN_DECK


def shuffled_deck(seed: int, jokers: bool) -> tuple[str, ...]:
    """The deal order ``seed`` gives: a shuffle of the cards in rank then suit order."""
    return shuffled(deck_names(jokers), seed)


def check_deck(deck: Any, jokers: bool) -> tuple[str, ...]:
    """``deck`` as a tuple of card strings if it holds each card of the game once; ``InvalidSetup`` otherwise."""
    names = deck_names(jokers)
    if isinstance(deck, str | bytes) or not isinstance(deck, Iterable):
        raise InvalidSetup("deck must be a list of card strings")
    dealt = tuple(deck)
    if any(type(card) is not str for card in dealt) or sorted(dealt) != sorted(names):
        what = "54 cards (the jokers option adds RJ and BJ)" if jokers else "52 cards"
        raise InvalidSetup(f'deck must hold the {what}, each once, as strings such as "AS", "10H", "QD"')
    return dealt


def deal(deck: tuple[str, ...], players: int, first_seat: int) -> tuple[tuple[int, ...], ...]:
    """Each seat's packet (C3): one card at a time clockwise from ``first_seat``; a packet is a queue, flipped in
    the order it was dealt, so the seats served first hold the extra cards."""
    cards = [CARD_OF[name] for name in deck]
    packets: list[tuple[int, ...]] = [()] * players
    for offset in range(players):
        packets[(first_seat + offset) % players] = tuple(cards[offset::players])
    return tuple(packets)

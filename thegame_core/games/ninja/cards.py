"""Ninja's cards (spec N1 and "Cards"): an int per card, 1..13, and 0 for NINJA; the deck and the deal (N4)."""

from __future__ import annotations

from typing import Any

from ...dealt import checked_deck, shuffled

NINJA = 0
LOWEST, HIGHEST = 1, 13
VALUES = tuple(range(NINJA, HIGHEST + 1))  # every card value, NINJA first
#: 4 x (1..13) + 2 NINJA, in value order (spec ambiguity 1).
FULL_DECK = tuple(sorted([value for value in range(LOWEST, HIGHEST + 1) for _ in range(4)] + [NINJA, NINJA]))
CARDS_IN_DECK = len(FULL_DECK)  # 54
TABLE_CARDS = 3  # face-down, face-up and hand cards dealt to each seat
HAND_TARGET = 3  # N10: "always 3 in hand"
COPIES = {value: FULL_DECK.count(value) for value in VALUES}
MAX_COPIES = max(COPIES.values())  # 4: no group can hold more cards


def card_name(card: int) -> str:
    """How a card is shown to people: "00" for NINJA, the number otherwise."""
    return "00" if card == NINJA else str(card)


def shuffled_deck(seed: int) -> tuple[int, ...]:
    """The deal order for ``seed``: a shuffle of the 54 cards in value order."""
    return shuffled(FULL_DECK, seed)


def check_deck(deck: Any) -> tuple[int, ...]:
    """``deck`` as a tuple if it holds exactly the 54 cards (ints only); ``InvalidSetup`` otherwise."""
    return checked_deck(deck, FULL_DECK, "the 54 cards in deal order: four of each value 1..13 and two NINJA (0)")


def deal(
    deck: tuple[int, ...], players: int, first_seat: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int]:
    """Face-down, face-up and hand cards of every seat, and how many cards were dealt (N4.2, "Cards").

    One card at a time clockwise from ``first_seat``: three rounds face-down, three face-up, three into
    hands. Face-down cards keep their deal order (they are taken in it, N10); the others are sorted.
    """
    rounds = players * TABLE_CARDS
    zones: list[list[tuple[int, ...]]] = []
    for start in (0, rounds, 2 * rounds):
        zone: list[tuple[int, ...]] = [()] * players
        for offset in range(players):
            cards = deck[start + offset : start + rounds : players]
            zone[(first_seat + offset) % players] = cards
        zones.append(zone)
    face_down, face_up, hands = zones
    return (
        tuple(face_down),
        tuple(tuple(sorted(cards)) for cards in face_up),
        tuple(tuple(sorted(cards)) for cards in hands),
        3 * rounds,
    )

"""Shared helpers of Ninja's tests: decks that deal chosen cards, started games, and checks.

Every scenario goes through the public API: an explicit deck deals the cards wanted (``deck_for``), and
the pile is brought into position by real actions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

import thegame_core as tg
from thegame_core.games.ninja import FULL_DECK, Ready, State
from thegame_core.games.ninja.actions import Action

Zone = Mapping[int, Sequence[int]]
#: Order in which cards nobody named fill the table and the stock: plain cards first, so that
#: filler rarely triggers an effect a test does not expect.
FILL_ORDER = (2, 3, 4, 5, 7, 10, 11, 12, 1, 6, 8, 9, 13, 0)


def deck_for(
    players: int,
    *,
    hands: Zone | None = None,
    up: Zone | None = None,
    down: Zone | None = None,
    stock: Sequence[int] = (),
    first_seat: int = 0,
) -> list[int]:
    """The 54-card deck in deal order giving each seat the named hand, face-up and face-down cards
    (face-down in the order they will be taken), then ``stock`` at the front of the stock.

    Slots not named get the cards nobody named, in ``FILL_ORDER``; the rest of the stock follows.
    """
    named = Counter(card for zone in (hands, up, down) for cards in (zone or {}).values() for card in cards)
    named.update(stock)
    left = Counter(FULL_DECK)
    left.subtract(named)
    assert all(count >= 0 for count in left.values()), f"more copies named than exist: {named}"
    filler = [card for value in FILL_ORDER for card in [value] * left[value]]
    slots = players * 3
    deck: list[int | None] = [None] * 54
    for zone_index, zone in enumerate((down, up, hands)):
        for offset in range(players):
            seat = (first_seat + offset) % players
            cards = list((zone or {}).get(seat, ()))
            assert len(cards) <= 3, "three cards per zone"
            for round_index in range(3):
                position = zone_index * slots + round_index * players + offset
                deck[position] = cards[round_index] if round_index < len(cards) else filler.pop(0)
    rest = list(stock) + filler
    deck[3 * slots :] = rest
    assert len(deck) == 54 and None not in deck
    return [card for card in deck if card is not None]


def new(players: int, **kwargs: Any) -> State:
    """``tg.new_game("ninja", players, ...)``, checked to be a Ninja state."""
    state = tg.new_game("ninja", players, **kwargs)
    assert isinstance(state, State)
    return state


def start(
    players: int,
    *,
    hands: Zone | None = None,
    up: Zone | None = None,
    down: Zone | None = None,
    stock: Sequence[int] = (),
    first_seat: int = 0,
    options: Mapping[str, Any] | None = None,
    ready: bool = True,
) -> State:
    """A game dealt by ``deck_for``, every seat ready (unless ``ready=False``): play starts at ``first_seat``."""
    deck = deck_for(players, hands=hands, up=up, down=down, stock=stock, first_seat=first_seat)
    state = new(players, deck=deck, options=options, first_seat=first_seat)
    if ready:
        state = state.apply_all(Ready(seat) for seat in range(players))
    return state


def run(state: State, *actions: Action) -> State:
    """Apply ``actions`` one at a time, checking that each was listed as legal for its seat."""
    for action in actions:
        assert action in state.legal_actions(action.seat), f"{action} not listed: {state.legal_actions(action.seat)}"
        state = state.apply(action)
    return state


def refused(state: State, action: object, code: str) -> tg.GameError:
    """Apply ``action``, expecting a refusal with ``code`` that leaves the state as it was."""
    before = tg.dumps(state)
    with pytest.raises(tg.GameError) as caught:
        state.apply(action)  # type: ignore[arg-type]
    assert caught.value.code == code, caught.value
    assert tg.dumps(state) == before
    listed = {repr(listed) for seat in range(state.players) for listed in state.legal_actions(seat)}
    assert repr(action) not in listed, "a refused action is never listed"
    return caught.value


def all_cards(state: State) -> Counter[int]:
    """Every card the state places somewhere, burned cards excepted (they are a count)."""
    cards: Counter[int] = Counter(state.pile)
    for zone in (state.hands, state.face_up, state.face_down):
        for cards_of_seat in zone:
            cards.update(cards_of_seat)
    cards.update(state.deck[state.drawn :])
    return cards


def check_conservation(state: State) -> None:
    """The 54 cards are all somewhere: hands, face-up, face-down, stock, pile, or burned."""
    cards = all_cards(state)
    assert sum(cards.values()) + state.burned == 54
    assert all(cards[value] <= FULL_DECK.count(value) for value in cards)

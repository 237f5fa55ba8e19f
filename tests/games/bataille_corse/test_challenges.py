"""C5 and C9: challenges with every honour, counter-challenges, a payer out of cards (borrow, transfer_to_next),
the challenger's exception, a lone seat."""

from __future__ import annotations

import pytest

import thegame_core as tg
from thegame_core.games.bataille_corse.cards import JOKER_DECK

from .helpers import flip, packet, position, slap


@pytest.mark.parametrize(("honour", "tries"), [("JS", 1), ("QS", 2), ("KS", 3), ("AS", 4), ("RJ", 5)])
def test_each_honour_gives_its_tries_and_the_challenger_collects(honour: str, tries: int) -> None:
    state = position(2, {0: f"{honour} 2S", 1: "3H 5C 7H 9C 3D"}, current=0, options={"jokers": True})
    state = flip(state)
    assert state.challenge == (0, 1, tries) and state.current_seat == 1
    for left in range(tries - 1, 0, -1):
        state = flip(state)
        assert state.challenge == (0, 1, left) and state.current_seat == 1
    state = flip(state)
    assert state.challenge is None and state.current_seat == 0 and state.won_by == (0, 1, 0)
    assert packet(state, 0)[-(tries + 1) :] == [honour, *["3H", "5C", "7H", "9C", "3D"][:tries]]


@pytest.mark.parametrize("card", JOKER_DECK)
def test_the_catalog_gives_each_card_the_tries_the_rules_give_it(card: str) -> None:
    """The page notes an honour's tries from the catalog's ``facts``: a card opens a challenge of exactly the tries
    it lists (by rank, a joker by its card), and a card it does not list opens none."""
    honours = tg.get_game("bataille-corse").info.to_dict()["facts"]["honours"]
    listed = honours.get(card, honours.get(card[:-1]))
    others = [name for name in ("2S", "2H", "3H") if name != card]
    state = flip(position(2, {0: f"{card} {others[0]}", 1: others[1]}, current=0, options={"jokers": True}))
    assert state.challenge == (None if listed is None else (0, 1, listed))


def test_a_payer_turning_an_honour_becomes_the_challenger() -> None:
    state = flip(flip(position(2, {0: "KS 2S", 1: "QH 4C"}, current=0)))
    assert state.challenge == (1, 0, 2) and state.current_seat == 0


def test_a_payer_out_of_cards_borrows_from_the_next_seat_holding_cards() -> None:
    state = flip(flip(position(3, {0: "KS", 1: "2H", 2: "3C 5C 9C"}, current=0)))
    assert state.challenge == (0, 1, 2) and state.seat_states() == ("in", "in", "in")  # both by exception
    state = flip(state)  # seat 1 borrows seat 2's 3C
    assert packet(state, 2) == ["5C", "9C"] and state.challenge == (0, 1, 1)


def test_borrowing_reaches_the_challenger_and_the_challenger_collects() -> None:
    state = flip(flip(position(2, {0: "KS 7D 9D 4S", 1: "2H"}, current=0)))
    state = flip(flip(state))  # seat 1 borrows 7D then 9D from the challenger
    assert state.challenge is None and state.current_seat == 0
    assert packet(state, 0) == ["4S", "KS", "2H", "7D", "9D"] and state.seat_states() == ("in", "out")


def test_a_borrowing_payer_that_turns_an_honour_becomes_the_challenger() -> None:
    state = flip(flip(flip(position(3, {0: "QS", 1: "2H", 2: "JC 5C"}, current=0))))
    assert state.challenge == (1, 2, 1) and state.current_seat == 2 and state.seat_states()[0] == "out"


def test_transfer_to_next_passes_the_attempts_left() -> None:
    options = {"exhausted_payer": "transfer_to_next"}
    state = flip(flip(position(3, {0: "KS", 1: "2H", 2: "3C 5C"}, current=0, options=options)))
    assert state.challenge == (0, 2, 2) and state.current_seat == 2 and state.seat_states()[1] == "out"


def test_with_nobody_holding_a_card_the_challenger_collects() -> None:
    state = flip(flip(position(2, {0: "KS", 1: "2H"}, current=0)))
    assert state.challenge is None and packet(state, 0) == ["KS", "2H"] and state.current_seat == 0


def test_an_open_challenger_without_cards_stays_in_until_the_pile_goes_elsewhere() -> None:
    state = flip(position(2, {0: "KS", 1: "2H 2D 9C"}, current=0))
    assert state.seat_states()[0] == "in" and state.packets[0] == ()
    lost = slap(flip(flip(state)), 1)  # 2H then 2D: a double; seat 1 slaps it
    assert lost.seat_states()[0] == "out" and lost.current_seat == 1


def test_a_lone_seat_turning_an_honour_collects_at_once() -> None:
    state = flip(position(2, {0: "KS 2S"}, "4D", current=0))
    assert state.challenge is None and packet(state, 0) == ["2S", "4D", "KS"] and state.won_by == (0, 1, 0)


def test_a_lone_seat_flips_on_and_an_out_seat_slaps_back_in() -> None:
    state = flip(position(2, {0: "2S 3S 9C"}, current=0))
    assert state.current_seat == 0
    state = slap(flip(state), 1)  # 3S on 2S: a suite
    assert state.seat_states() == ("in", "in") and packet(state, 1) == ["2S", "3S"] and state.current_seat == 1


def test_lone_player_auto_collect() -> None:
    state = flip(position(2, {0: "2S 3S"}, current=0, options={"lone_player_auto_collect": True}))
    assert state.pile == () and packet(state, 0) == ["3S", "2S"] and state.won_by == (0, 0, 1)

"""C10 and "Ends": one seat holds every card, the degenerate end, the flip limit, the rankings, game over."""

from __future__ import annotations

import pytest

import thegame_core as tg
from thegame_core.games.bataille_corse import GAME, Slap
from thegame_core.games.bataille_corse.cards import PLAIN_DECK

from .helpers import deck_for, flip, packet, position, slap

ALL_BUT = " ".join(name for name in PLAIN_DECK if name not in {"2H", "3C", "7H", "7D", "9S", "4D"})


def test_the_seat_holding_every_card_wins_and_the_others_rank_by_when_they_went_out() -> None:
    state = position(3, {0: ALL_BUT + " 9S 4D", 1: "2H", 2: "3C"}, "7H 7D", current=1)
    state = flip(state)  # seat 1 flips its last card: out first
    state = flip(state)  # seat 2 flips 3C on 2H, a suite; out second
    assert state.seat_states() == ("in", "out", "out")
    over = slap(state, 0)
    assert over.status == "finished" and over.outcome is not None
    assert (over.outcome.reason, over.outcome.winner, over.outcome.ranking) == ("all_cards", 0, (0, 2, 1))


def test_seats_out_in_the_same_action_rank_clockwise_from_first_seat_and_excluded_seats_last() -> None:
    everything_else = ALL_BUT + " 9S 4D 2H 3C"
    state = position(4, {0: everything_else}, "7H 7D", current=3, challenge=(1, 3, 2), errors=[0, 0, 3, 0])
    state = state._replace(excluded=(2,))
    assert state.seat_states() == ("in", "in", "excluded", "in")  # the challenger and the payer, by exception
    over = slap(state, 0)  # the pile goes elsewhere: both lapse in this one action
    assert over.outcome is not None and over.outcome.ranking == (0, 1, 3, 2)


def test_the_degenerate_end_gives_the_pile_to_the_last_seat_that_flipped() -> None:
    state = flip(flip(position(2, {0: "2S", 1: "9H"}, current=0)))
    assert state.pile == () and packet(state, 1) == ["2S", "9H"] and state.won_by == (0, 0, 1)


def test_max_flips_ranks_by_cards_held_ties_clockwise_from_first_seat() -> None:
    deck = deck_for(3, {0: "2S 3D", 1: "9H 5C", 2: "8C 4D"}, first_seat=1)
    state = GAME.new_game(players=3, deck=deck, first_seat=1, options={"max_flips": 3})
    state = flip(flip(flip(state)))
    assert state.outcome is not None and state.outcome.reason == "flip_limit"
    assert [len(p) for p in state.packets] == [16, 17, 16] and state.outcome.ranking == (1, 2, 0)


def test_once_over_every_action_is_game_over_even_a_stale_slap() -> None:
    state = GAME.new_game(players=2, seed=3, options={"max_flips": 1})
    state = flip(state)
    for action in (Slap(0, 0), Slap(1, 1), *state.legal_actions(0)):
        with pytest.raises(tg.GameOver):
            state.apply(action)
    assert state.waiting_for == frozenset() and state.asking_order() == ()

"""N1 (cards), N2 (players), N4 (deal), options and presets, and the setup's refusals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import thegame_core as tg
from thegame_core.games.ninja import FULL_DECK, GAME
from thegame_core.games.ninja.cards import shuffled_deck
from thegame_core.games.ninja.options import OPTIONS, PRESETS

from .helpers import check_conservation, deck_for, new, start


def test_n1_the_deck_is_four_of_each_value_and_two_ninja() -> None:
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == 54
    assert counts == {0: 2, **{value: 4 for value in range(1, 14)}}
    plain = [card for card in FULL_DECK if card in (2, 3, 4, 5, 7, 10, 11, 12)]
    assert (len(plain), 54 - len(plain)) == (32, 22)


def test_a_seed_shuffles_the_54_cards_with_random_random() -> None:
    expected = list(FULL_DECK)
    random.Random(42).shuffle(expected)
    assert list(new(3, seed=42).deck) == expected == list(shuffled_deck(42))
    assert new(3, seed=42) == new(3, seed=42)
    assert new(3, seed=42) != new(3, seed=43)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_n2_two_to_six_players_and_six_leave_no_stock(players: int) -> None:
    state = new(players, seed=players)
    assert state.players == players
    assert state.stock == 54 - 9 * players
    assert (state.stock == 0) == (players == 6)
    check_conservation(state)


@pytest.mark.parametrize("players", [1, 7, 0, True, 2.0, "3"])
def test_n2_other_player_counts_are_refused(players: object) -> None:
    with pytest.raises(tg.InvalidSetup):
        tg.new_game("ninja", players, seed=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("first_seat", [0, 1, 2])
def test_n4_deal_one_card_at_a_time_from_first_seat(first_seat: int) -> None:
    players = 3
    state = new(players, seed=5, first_seat=first_seat)
    deck = list(state.deck)
    for offset in range(players):
        seat = (first_seat + offset) % players
        assert state.face_down[seat] == tuple(deck[offset:9:3]), "face-down in deal order"
        assert state.face_up[seat] == tuple(sorted(deck[9 + offset : 18 : 3]))
        assert state.hands[seat] == tuple(sorted(deck[18 + offset : 27 : 3]))
    assert state.drawn == 27 and state.deck[27:] == tuple(deck[27:])
    assert state.current_seat == first_seat and state.phase == "swap"


def test_n4_the_first_turn_goes_to_first_seat_on_an_empty_pile() -> None:
    state = start(4, first_seat=3)
    assert (state.phase, state.current_seat, state.pile, state.waiting_for) == ("play", 3, (), frozenset({3}))


def test_deck_builder_deals_the_named_cards() -> None:
    deck = deck_for(3, hands={1: [13, 13, 1]}, up={0: [9, 9]}, down={2: [0, 6, 8]}, stock=[12, 11], first_seat=1)
    state = new(3, deck=deck, first_seat=1)
    assert state.hands[1] == (1, 13, 13)
    assert state.face_up[0].count(9) == 2
    assert state.face_down[2] == (0, 6, 8)
    assert state.deck[state.drawn : state.drawn + 2] == (12, 11)


@pytest.mark.parametrize(
    "deck",
    [
        [1, 2, 3],
        [*FULL_DECK[:-1], 1],
        [True if card == 1 else card for card in FULL_DECK],
        [float(card) for card in FULL_DECK],
        "0" * 54,
        None,
        [*FULL_DECK, 5],
    ],
)
def test_a_deck_must_be_the_54_cards_as_ints(deck: object) -> None:
    with pytest.raises(tg.InvalidSetup):
        GAME.new_game(players=3, seed=None, deck=deck, options=None, first_seat=0)  # type: ignore[arg-type]


def test_seed_or_deck_exactly_one() -> None:
    with pytest.raises(tg.InvalidSetup):
        GAME.new_game(players=3, seed=1, deck=list(FULL_DECK), options=None, first_seat=0)
    with pytest.raises(tg.InvalidSetup):
        GAME.new_game(players=3, seed=None, deck=None, options=None, first_seat=0)
    with pytest.raises(tg.InvalidSetup):
        GAME.new_game(players=3, seed=True, deck=None, options=None, first_seat=0)


@pytest.mark.parametrize("first_seat", [-1, 3, True, 1.0, None])
def test_first_seat_must_be_a_seat(first_seat: object) -> None:
    with pytest.raises(tg.InvalidSetup):
        tg.new_game("ninja", 3, seed=1, first_seat=first_seat)  # type: ignore[arg-type]


def test_every_option_has_the_pinned_name_and_default() -> None:
    expected = {
        "max_cards_per_play": None,
        "voluntary_pickup": False,
        "play_to_last": False,
        "burner_leads": True,
        "skip_mode": "cap",
        "give_optional": False,
        "any_player_may_counter": False,
        "after_give_leader": "last_layer",
        "single_completion": False,
        "table_mode": "draw_into_hand",
        "after_pickup_leader": "last_layer",
        "ninja_mode": "transparent",
        "ninja_out_of_turn": False,
        "ninja_breaks_run": True,
        "strict_one": False,
        "thirteen_on_six": False,
        "nine_anywhere": False,
        "six_mode": "must_le",
        "max_turns": 2000,
    }
    assert {option.name: option.default for option in OPTIONS} == expected
    options = new(2, seed=1).options.to_dict()
    assert options == {"players": 2, **expected, "preset": "standard"}
    assert all(option.description for option in OPTIONS)


def test_presets() -> None:
    assert set(PRESETS) == {"standard", "classic_palace"}
    palace = new(3, seed=1, options={"preset": "classic_palace"}).options
    assert (palace.table_mode, palace.after_pickup_leader, palace.preset) == (
        "play_from_table",
        "next_after_picker",
        "classic_palace",
    )
    same = new(3, seed=1, options={"table_mode": "play_from_table", "after_pickup_leader": "next_after_picker"})
    assert same.options == palace
    custom = new(3, seed=1, options={"preset": "classic_palace", "strict_one": True}).options
    assert custom.preset is None and custom.table_mode == "play_from_table" and custom.strict_one


def test_options_to_dict_is_accepted_back() -> None:
    options = {"preset": "classic_palace", "max_cards_per_play": 3, "skip_mode": "modulo", "max_turns": 50}
    state = new(4, seed=3, options=options)
    again = new(4, seed=3, options=state.options.to_dict())
    assert again == state


@pytest.mark.parametrize(
    "options",
    [
        {"no_such_option": 1},
        {"voluntary_pickup": 1},
        {"voluntary_pickup": "true"},
        {"skip_mode": "wrap"},
        {"skip_mode": None},
        {"max_cards_per_play": 0},
        {"max_cards_per_play": True},
        {"max_cards_per_play": 2.0},
        {"max_turns": 0},
        {"max_turns": None},
        {"max_turns": 10**9},
        {"preset": "palace"},
        {"preset": 1},
        {"players": 4},
        {"players": 3.0},
        ["voluntary_pickup"],
    ],
)
def test_bad_options_are_refused_with_a_clear_message(options: object) -> None:
    with pytest.raises(tg.InvalidSetup) as caught:
        tg.new_game("ninja", 3, seed=1, options=options)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_setup" and caught.value.message


def test_max_cards_per_play_takes_null_or_a_positive_integer() -> None:
    assert new(3, seed=1, options={"max_cards_per_play": None}).options.max_cards_per_play is None
    assert new(3, seed=1, options={"max_cards_per_play": 7}).options.max_cards_per_play == 7

"""C1-C3 and "Cards": the deck, the deal as queues, the options and their checks, the lobby."""

from __future__ import annotations

from typing import Any

import pytest

import thegame_core as tg
from thegame_core.games.bataille_corse import GAME, combinations
from thegame_core.games.bataille_corse.cards import PLAIN_DECK

from .helpers import cards, deck_for, flip, packet


def test_the_deal_goes_one_card_at_a_time_clockwise_from_first_seat() -> None:
    deck = list(PLAIN_DECK)
    state = GAME.new_game(players=3, deck=deck, first_seat=1)
    assert packet(state, 1)[:3] == [deck[0], deck[3], deck[6]]
    assert packet(state, 2)[:2] == [deck[1], deck[4]]
    assert packet(state, 0)[:2] == [deck[2], deck[5]]
    assert [len(p) for p in state.packets] == [17, 18, 17]  # the extra card goes to the seat served first
    assert state.current_seat == 1 and state.pile_version == 0 and state.challenge is None
    assert state.seat_states() == ("in", "in", "in")


def test_packets_are_queues_flipped_in_deal_order() -> None:
    state = GAME.new_game(players=2, deck=deck_for(2, {0: "2S 3S", 1: "4H 5H"}))
    state = flip(state)
    assert state.public_view()["pile"] == ["2S"] and state.current_seat == 1
    state = flip(state)
    assert state.public_view()["pile"] == ["2S", "4H"]


def test_a_seed_deals_the_same_game_and_jokers_add_two_cards() -> None:
    assert tg.new_game("bataille-corse", 2, seed=5) == tg.new_game("bataille-corse", 2, seed=5)
    with_jokers = tg.new_game("bataille-corse", 2, seed=5, options={"jokers": True})
    assert sum(map(len, with_jokers.packets)) == 54 and {"RJ", "BJ"} <= set(with_jokers.deck)


@pytest.mark.parametrize(
    "deck",
    [
        [1, 2, 3],
        list(PLAIN_DECK[:-1]),
        [*PLAIN_DECK[:-1], "AS"],
        [*PLAIN_DECK, "RJ", "BJ"],
        "AS 2S",
        [*PLAIN_DECK[:-1], 7],
    ],
)
def test_a_deck_must_hold_each_card_once_as_strings(deck: Any) -> None:
    with pytest.raises(tg.InvalidSetup):
        GAME.new_game(players=2, deck=deck)


def test_options_have_their_defaults_and_refuse_bad_values() -> None:
    options = tg.new_game("bataille-corse", 4, seed=1).options.to_dict()
    assert options == {
        "players": 4, "jokers": False, "wrap_K_A": False, "exhausted_payer": "borrow", "penalty_place": "bottom",
        "penalty_count": 3, "lone_player_auto_collect": False, "double": True, "sandwich": True, "suite": True,
        "sum10": True, "product10": True, "poisson": True, "max_flips": 10_000, "preset": "standard",
        "slap_window_ms": 0,
    }  # fmt: skip
    for bad in (
        {"penalty_count": True},
        {"max_flips": 10_001},
        {"slap_window_ms": 1001},
        {"exhausted_payer": "x"},
        {"double": 1},
        {"x": 1},
    ):
        with pytest.raises(tg.InvalidSetup):
            tg.new_game("bataille-corse", 2, seed=1, options=bad)
    for players in (1, 9):
        with pytest.raises(tg.InvalidSetup):
            tg.new_game("bataille-corse", players, seed=1)


def test_the_classic_preset_keeps_doubles_and_sandwiches_only() -> None:
    options = tg.new_game("bataille-corse", 2, seed=1, options={"preset": "classic"}).options
    assert options.preset == "classic"
    assert combinations(cards("5S 6H"), options) == []
    assert combinations(cards("5S 6H 5H"), options) == ["sandwich"]


def test_the_lobby_shows_nothing_dealt() -> None:
    view = GAME.lobby_view(3, None)
    assert view["status"] == "lobby" and view["pile"] == [] and [s["packet"] for s in view["seats"]] == [0, 0, 0]


def test_the_engines_table_declares_the_fields_as_fields_does() -> None:
    """``engine.Table`` holds every field of ``Fields`` by name, each with its type, and its own two (the actions
    added, the reason to end): a field added to ``Fields`` and not to the table fails here, not in a game."""
    import typing

    from thegame_core.games.bataille_corse import engine
    from thegame_core.games.bataille_corse.fields import Fields

    hints = typing.get_type_hints(engine.Table)
    assert {name: hints[name] for name in Fields._fields} == typing.get_type_hints(Fields)
    assert engine.Table.__slots__ == (*Fields._fields, "added", "end")

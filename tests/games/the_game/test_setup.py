"""Spec "Components", "Options" and "Setup": cards, piles, options, presets, invalid setups, the deal."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import thegame_core as tg

from .helpers import ALL_CARDS, CARDS, deck_for, new, raises_code, turn_actions, undrawn

# --- Components -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 42, 2**40])
def test_98_number_cards_each_value_2_to_99_exactly_once(seed: int) -> None:
    """Spec: "98 number cards, each value 2..99 exactly once." """
    state = new(3, seed=seed)
    cards = [card for hand in state.hands for card in hand] + undrawn(state)
    assert len(cards) == CARDS
    assert sorted(cards) == ALL_CARDS


def test_four_piles_asc_start_at_1_desc_start_at_100() -> None:
    """Spec: "Four piles: asc1, asc2 start at 1 and go up; desc1, desc2 start at 100 and go down." """
    state = new(2, seed=7)
    assert tg.PILES == ("asc1", "asc2", "desc1", "desc2")
    assert state.tops == (1, 1, 100, 100)
    piles = state.public_view()["piles"]
    assert [(pile["id"], pile["direction"], pile["top"]) for pile in piles] == [
        ("asc1", "up", 1),
        ("asc2", "up", 1),
        ("desc1", "down", 100),
        ("desc2", "down", 100),
    ]


def test_only_the_top_card_of_a_pile_is_visible() -> None:
    """Spec: "Only the top card of a pile is visible; a pile's contents cannot be checked." """
    state = new(1, deck=deck_for([[10, 20, 30, 40, 50, 60, 70, 80]]))
    state = state.apply_all([tg.Play(0, 10, "asc1"), tg.Play(0, 20, "asc1"), tg.Play(0, 30, "asc1")])
    for view in (state.public_view(), state.view(0)):
        asc1 = view["piles"][0]
        assert asc1["top"] == 30
        assert not any(isinstance(value, list | tuple) for value in asc1.values()), "no pile contents"
        numbers = {int(number) for number in re.findall(r"\d+", json.dumps(view["piles"]))}
        assert not {10, 20} & numbers, "cards under the top are not shown"


# --- Options and presets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_players_1_to_5(players: int) -> None:
    """Spec: "players | 1..5 (required)" """
    state = new(players, seed=1)
    assert state.players == players
    assert len(state.hands) == players


@pytest.mark.parametrize(("players", "hand_size"), [(1, 8), (2, 7), (3, 6), (4, 6), (5, 6)])
def test_default_options(players: int, hand_size: int) -> None:
    """Defaults: "min_per_turn 2", "min_after_empty 1", "hand_size 8 / 7 / 6 for 1 / 2 / 3-5 players",
    "first_seat 0 in the library", "stuck_policy strict"."""
    state = new(players, seed=3)
    assert (state.options.hand_size, state.options.min_per_turn) == (hand_size, 2)
    assert (state.options.min_after_empty, state.options.stuck_policy) == (1, "strict")
    assert [len(hand) for hand in state.hands] == [hand_size] * players
    assert state.current_seat == 0
    assert state.required_this_turn == 2


PRESET_VALUES = [
    # (preset, players, hand_size, min_per_turn): "expert (min_per_turn 3); expert_small_hand (min_per_turn 3 and
    # hand one smaller)", the smaller hands being "7 / 6 / 5" for 1 / 2 / 3-5 players.
    ("standard", 1, 8, 2),
    ("standard", 2, 7, 2),
    ("standard", 4, 6, 2),
    ("expert", 1, 8, 3),
    ("expert", 2, 7, 3),
    ("expert", 3, 6, 3),
    ("expert", 5, 6, 3),
    ("expert_small_hand", 1, 7, 3),
    ("expert_small_hand", 2, 6, 3),
    ("expert_small_hand", 3, 5, 3),
    ("expert_small_hand", 4, 5, 3),
    ("expert_small_hand", 5, 5, 3),
]


@pytest.mark.parametrize(("preset", "players", "hand_size", "min_per_turn"), PRESET_VALUES)
def test_presets(preset: str, players: int, hand_size: int, min_per_turn: int) -> None:
    """Spec: "Presets: standard; expert (min_per_turn 3); expert_small_hand (min_per_turn 3 and hand one smaller)",
    and "min_after_empty ... 1 (also in expert mode)"."""
    state = new(players, seed=5, options={"preset": preset})
    assert [len(hand) for hand in state.hands] == [hand_size] * players
    assert state.required_this_turn == min_per_turn
    assert state.options.min_after_empty == 1
    assert state.options.stuck_policy == "strict"
    assert state.options.preset == preset


def test_presets_are_exported() -> None:
    """The three presets of the spec, by name."""
    assert set(tg.PRESETS) == {"standard", "expert", "expert_small_hand"}


@pytest.mark.parametrize("hand_size", [1, 4, 8])
def test_individual_hand_size(hand_size: int) -> None:
    """Spec: "Individual options may be set instead of a preset, within sane ranges (hand_size 1..8 ...)" """
    state = new(2, seed=1, options={"hand_size": hand_size, "min_per_turn": 1})
    assert [len(hand) for hand in state.hands] == [hand_size, hand_size]
    assert state.draw_pile == CARDS - 2 * hand_size


@pytest.mark.parametrize("min_per_turn", [1, 3, 6])
def test_individual_min_per_turn(min_per_turn: int) -> None:
    """Spec: "min_per_turn 1..hand_size": the turn's required minimum while the draw pile has cards."""
    state = new(3, seed=1, options={"min_per_turn": min_per_turn})
    assert state.required_this_turn == min_per_turn


def test_individual_stuck_policy_try() -> None:
    """Spec: "stuck_policy | "strict" | ... "try" ..." may be chosen."""
    assert new(2, seed=1, options={"stuck_policy": "try"}).options.stuck_policy == "try"
    assert new(2, seed=1, options={"stuck_policy": "strict"}).options.stuck_policy == "strict"


INVALID_OPTIONS: list[Any] = [
    {"colour": "red"},  # unknown option
    {"preset": "nightmare"},  # unknown preset
    {"hand_size": 0},
    {"hand_size": 9},
    {"hand_size": -1},
    {"hand_size": "6"},
    {"hand_size": True},
    {"hand_size": 6.0},
    {"min_per_turn": 0},
    {"min_per_turn": 7},  # above hand_size (6 for three players)
    {"hand_size": 3, "min_per_turn": 4},
    {"min_per_turn": "2"},
    {"min_after_empty": 0},
    {"min_after_empty": -1},
    {"min_after_empty": 7},  # more than a whole hand
    {"min_after_empty": None},
    {"stuck_policy": "lenient"},
    {"stuck_policy": "STRICT"},
    {"stuck_policy": None},
]


@pytest.mark.parametrize("options", INVALID_OPTIONS, ids=repr)
def test_options_out_of_range_are_invalid_setup(options: dict[str, Any]) -> None:
    """Spec: "Individual options may be set ... within sane ranges (hand_size 1..8, min_per_turn 1..hand_size);
    anything else is refused with invalid_setup." """
    with raises_code("invalid_setup"):
        new(3, seed=1, options=options)


@pytest.mark.parametrize("options", ["expert", ["expert"], 3], ids=repr)
def test_options_that_are_not_a_mapping_are_invalid_setup(options: Any) -> None:
    """Spec: "anything else is refused with invalid_setup": options given as a bare preset name or a list are not a
    set of options, and must be refused with the setup error, not a stray ValueError/TypeError."""
    with raises_code("invalid_setup"):
        new(3, seed=1, options=options)


@pytest.mark.parametrize("players", [0, 6, -1, True, False, "3", None, 2.0], ids=repr)
def test_players_out_of_range_are_invalid_setup(players: Any) -> None:
    """Spec: "Players are always 1..5." """
    with raises_code("invalid_setup"):
        new(players, seed=1)


def _permutation_breakers() -> list[tuple[str, list[Any]]]:
    deck = list(ALL_CARDS)
    return [
        ("97 cards", deck[:-1]),
        ("99 cards", [*deck, 100]),
        ("duplicate", [*deck[:-1], deck[0]]),
        ("card 1", [1, *deck[1:]]),
        ("card 100", [*deck[:-1], 100]),
        ("string card", ["2", *deck[1:]]),
        ("bool card", [True, *deck[1:]]),
        ("empty", []),
    ]


@pytest.mark.parametrize(
    ("name", "deck"), _permutation_breakers(), ids=lambda value: value if isinstance(value, str) else ""
)
def test_deck_not_a_permutation_is_invalid_setup(name: str, deck: list[Any]) -> None:
    """Spec: "an explicit order of the 98 cards may be given": anything but a permutation of 2..99 is refused."""
    with raises_code("invalid_setup"):
        new(2, deck=deck)


def test_deck_as_a_string_is_invalid_setup() -> None:
    """A deck is an order of 98 cards, not text."""
    with raises_code("invalid_setup"):
        new(2, deck=" ".join(map(str, ALL_CARDS)))


def test_seed_and_deck_both_or_neither_is_invalid_setup() -> None:
    """Spec: "deck | shuffled from a seed | an explicit order ... may be given": exactly one source of cards."""
    with raises_code("invalid_setup"):
        new(2, seed=1, deck=ALL_CARDS)
    with raises_code("invalid_setup"):
        new(2)


@pytest.mark.parametrize(("players", "first_seat"), [(3, -1), (3, 3), (1, 1), (5, 7), (2, True), (2, "0"), (2, None)])
def test_first_seat_out_of_range_is_invalid_setup(players: int, first_seat: Any) -> None:
    """Spec: "first_seat ... the seat that starts": a seat of the game, 0..players-1."""
    with raises_code("invalid_setup"):
        new(players, seed=1, first_seat=first_seat)


# --- Setup ------------------------------------------------------------------------------------------------


def test_shuffle_from_a_seed_is_deterministic() -> None:
    """Spec: "1. Shuffle the 98 cards into the face-down draw pile" from the game's seed: the same seed deals the same
    game, another seed another."""
    assert new(3, seed=11) == new(3, seed=11)
    assert new(3, seed=11).replay_record()["deck"] == new(3, seed=11).replay_record()["deck"]
    decks = {tuple(new(3, seed=seed).replay_record()["deck"]) for seed in range(20)}
    assert len(decks) == 20
    assert sorted(new(3, seed=11).replay_record()["deck"]) == ALL_CARDS


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_deal_round_robin_from_seat_0(players: int) -> None:
    """Spec: "card d[i] of the first players x hand_size goes to seat i mod players"."""
    deck = list(reversed(ALL_CARDS))  # any order will do; this one differs from the sorted hands
    state = new(players, deck=deck)
    size = state.options.hand_size
    for seat in range(players):
        expected = [deck[index] for index in range(players * size) if index % players == seat]
        assert sorted(state.hands[seat]) == sorted(expected)
    assert state.draw_pile == CARDS - players * size
    assert undrawn(state) == deck[players * size :]


def test_deal_round_robin_ignores_first_seat() -> None:
    """The deal is "round robin from seat 0" even when another seat starts."""
    deck = deck_for([[2, 5, 8, 11, 14, 17], [3, 6, 9, 12, 15, 18], [4, 7, 10, 13, 16, 19]])
    assert deck[:6] == [2, 3, 4, 5, 6, 7]
    state = new(3, deck=deck, first_seat=2)
    assert sorted(state.hands[0]) == [2, 5, 8, 11, 14, 17]
    assert sorted(state.hands[2]) == [4, 7, 10, 13, 16, 19]
    assert state.current_seat == 2


def test_later_draws_take_from_the_front_of_what_remains() -> None:
    """Spec: "later draws take from the front of what remains"."""
    state = new(2, deck=deck_for([[10, 11, 12, 13, 14, 15, 16], [20, 21, 22, 23, 24, 25, 26]], then=[90, 50, 70]))
    state = state.apply_all([tg.Play(0, 10, "asc1"), tg.Play(0, 11, "asc1"), tg.EndTurn(0)])
    assert sorted(state.hands[0]) == [12, 13, 14, 15, 16, 50, 90]
    state = state.apply_all([tg.Play(1, 20, "asc1"), tg.Play(1, 21, "asc1"), tg.EndTurn(1)])
    assert 70 in state.hands[1]


@pytest.mark.parametrize(("players", "first_seat"), [(1, 0), (3, 0), (3, 2), (5, 4)])
def test_the_first_player_starts(players: int, first_seat: int) -> None:
    """Spec: "3. The first player starts." (first_seat, 0 by default in the library)"""
    state = new(players, seed=2, first_seat=first_seat)
    assert state.current_seat == first_seat
    assert state.placed_this_turn == 0
    assert {action.seat for action in turn_actions(state)} == {first_seat}
    assert state.status == "playing" and state.version == 0 and state.history == ()


def test_a_hand_is_seen_by_its_owner_only() -> None:
    """Spec: "A hand is seen by its owner only." """
    state = new(3, seed=9)
    for seat in range(3):
        assert sorted(state.view(seat)["hand"]) == sorted(state.hands[seat])
        assert state.observe(seat).hand == state.hands[seat]
    assert "hand" not in state.public_view()
    assert state.observe(None).hand == ()


def test_unknown_game_is_refused() -> None:
    """The registry knows "the-game", "ninja" and "bataille-corse"; any other name is refused with code unknown_game."""
    assert {"the-game", "ninja", "bataille-corse"} <= set(tg.game_names())
    with raises_code("unknown_game"):
        tg.new_game("egyptian-ratscrew", 2, seed=1)

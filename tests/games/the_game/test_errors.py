"""Error codes, their check order, malformed actions, and all-or-nothing application."""

from __future__ import annotations

from typing import Any

import pytest

import thegame_core as tg

from .helpers import A1, D1, deck_for, new, raises_code

# Three players; seat 0 holds 10..15, seat 1 holds 20..25, seat 2 holds 30..35.
HANDS = [[10, 11, 12, 13, 14, 15], [20, 21, 22, 23, 24, 25], [30, 31, 32, 33, 34, 35]]


@pytest.fixture
def state() -> tg.State:
    """Seat 0 to play, asc1 at 12 (so 10 and 11 no longer fit it)."""
    return new(3, deck=deck_for(HANDS)).apply(tg.Play(0, 12, A1))


def lost_state() -> tg.State:
    """A finished game: two players with two cards; after one turn each the piles are 90 / 91 / 20 / 11 and seat 0
    draws 50 and 51, which fit nowhere: lost at the start of its turn."""
    options = {"hand_size": 2}
    state = new(2, deck=deck_for([[90, 20], [91, 11]], then=[50, 51, 52, 53]), options=options)
    state = state.apply_all([tg.Play(0, 90, "asc1"), tg.Play(0, 20, "desc1"), tg.EndTurn(0)])
    state = state.apply_all([tg.Play(1, 91, "asc2"), tg.Play(1, 11, "desc2"), tg.EndTurn(1)])
    assert state.outcome == tg.Outcome("lost", "minimum_unreachable", 0)
    return state


def test_error_codes_are_documented() -> None:
    """Every code of the contract is listed with its meaning."""
    expected = {"invalid_setup", "invalid_action", "game_over", "not_your_turn", "card_not_in_hand"}
    expected |= {"illegal_play", "minimum_not_reached", "corrupt_state"}
    assert expected <= set(tg.ERROR_CODES)


def test_illegal_play(state: tg.State) -> None:
    """Spec "Placing a card": a card in hand that the pile does not accept -> illegal_play."""
    with raises_code("illegal_play"):
        state.apply(tg.Play(0, 10, A1))


def test_card_not_in_hand(state: tg.State) -> None:
    """A card held by another seat, or already placed, is not in the acting seat's hand."""
    for card in (20, 12, 99):
        with raises_code("card_not_in_hand"):
            state.apply(tg.Play(0, card, D1))


@pytest.mark.parametrize("action", [tg.Play(1, 20, D1), tg.EndTurn(1), tg.Play(2, 30, D1), tg.EndTurn(2)])
def test_not_your_turn(state: tg.State, action: Any) -> None:
    """Spec "A turn": only the current seat plays or ends the turn -> not_your_turn."""
    with raises_code("not_your_turn"):
        state.apply(action)


def test_card_not_in_hand_is_checked_before_illegal_play(state: tg.State) -> None:
    """Check order: card_not_in_hand before illegal_play (2 is neither held nor legal on asc1 at 12)."""
    with raises_code("card_not_in_hand"):
        state.apply(tg.Play(0, 2, A1))


def test_not_your_turn_is_checked_before_card_not_in_hand(state: tg.State) -> None:
    """Check order: not_your_turn before card_not_in_hand and illegal_play."""
    with raises_code("not_your_turn"):
        state.apply(tg.Play(1, 11, A1))  # seat 1 does not hold 11, and 11 does not fit asc1
    with raises_code("not_your_turn"):
        state.apply(tg.Play(1, 20, A1))  # seat 1 holds 20, but it is not its turn


@pytest.mark.parametrize(
    "action",
    [
        tg.Play(1, 52, "asc1"),  # another seat's card, not its turn
        tg.EndTurn(1),
        tg.Play(0, 52, "asc1"),  # not in hand
        tg.Play(0, 50, "asc1"),  # in hand, illegal
        tg.EndTurn(0),  # below the minimum
        tg.Signal(1, "asc1", "dont_play"),  # signals too: "any time while playing"
    ],
    ids=repr,
)
def test_game_over_is_checked_before_everything_else(action: Any) -> None:
    """Check order: game_over before not_your_turn, card_not_in_hand, illegal_play and minimum_not_reached."""
    with raises_code("game_over"):
        lost_state().apply(action)


class _PlayLike(tg.Play):
    pass


class _EndTurnLike(tg.EndTurn):
    pass


class _SignalLike(tg.Signal):
    pass


class _PileName(str):
    __slots__ = ()


MALFORMED: list[Any] = [
    tg.Play(0, 13, "asc3"),  # unknown pile
    tg.Play(0, 13, "ASC1"),
    tg.Play(0, 13, ""),
    tg.Play(0, 1, A1),  # cards are 2..99
    tg.Play(0, 100, D1),
    tg.Play(0, 0, A1),
    tg.Play(0, True, A1),  # bool card
    tg.Play(0, 13.0, A1),  # type: ignore[arg-type]
    tg.Play(0, "13", A1),  # type: ignore[arg-type]
    tg.Play(3, 13, A1),  # seat out of range for three players
    tg.Play(-1, 13, A1),
    tg.Play(False, 13, A1),  # bool seat
    tg.EndTurn(3),
    tg.EndTurn(-1),
    tg.EndTurn(True),
    tg.Signal(0, A1, "play_here"),  # unknown signal kind
    tg.Signal(0, A1, "big_jump"),
    tg.Signal(0, "asc9", "dont_play"),
    tg.Signal(5, A1, "dont_play"),
    tg.Signal(0, A1, "dont_play", clear="yes"),  # type: ignore[arg-type]
    tg.Play(0, 13, [A1]),  # type: ignore[arg-type]  # an unhashable pile
    tg.Signal(0, [A1], "dont_play"),  # type: ignore[arg-type]
    tg.Signal(0, A1, ["dont_play"]),  # type: ignore[arg-type]
    _PlayLike(0, 13, A1),  # subclasses are not actions of The Game
    _EndTurnLike(0),
    _SignalLike(0, A1, "dont_play"),
    tg.Play(0, 13, _PileName(A1)),  # nor are look-alike strings
    tg.Signal(0, A1, _PileName("dont_play")),
    ("play", 0, 13, A1),
    {"type": "play", "seat": 0, "card": 13, "pile": A1},
    None,
]


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_malformed_actions_are_invalid_action(state: tg.State, action: Any) -> None:
    """invalid_action: "the action is malformed (unknown pile or kind, impossible card or seat)"; nothing
    changes."""
    before = tg.dumps(state)
    with raises_code("invalid_action"):
        state.apply(action)
    assert tg.dumps(state) == before


def test_apply_all_is_all_or_nothing(state: tg.State) -> None:
    """apply_all: a failing action anywhere leaves the state as it was, and nothing of the batch is kept."""
    before = tg.dumps(state)
    batch = [tg.Play(0, 13, A1), tg.Play(0, 14, A1), tg.Play(0, 10, A1)]
    with raises_code("illegal_play"):
        state.apply_all(batch)
    assert tg.dumps(state) == before
    assert state.placed_this_turn == 1
    assert state.apply_all(batch[:2]).placed_this_turn == 3


def test_errors_are_value_errors_with_a_code(state: tg.State) -> None:
    """GameError is a ValueError carrying a stable machine code and a message."""
    with pytest.raises(ValueError) as caught:
        state.apply(tg.Play(0, 10, A1))
    assert isinstance(caught.value, tg.GameError)
    assert caught.value.code in tg.ERROR_CODES
    assert str(caught.value)

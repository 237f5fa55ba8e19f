"""Refusals: every code, in the contract's order (game over, malformed, not your turn, rule), and a
refused action or batch changes nothing."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

import thegame_core as tg
from thegame_core.errors import COMMON_ERROR_CODES
from thegame_core.games.ninja import GAME, Accept, Complete, Give, PickUp, Play, Ready, Swap, TakeFaceUp
from thegame_core.games.ninja.engine import ERRORS

from .helpers import refused, run, start

STOCK = [10, 11, 12, 10, 11, 12]


def finished() -> Any:
    state = start(3, hands={0: [13, 2, 2]}, stock=STOCK, options={"max_turns": 1})
    return run(state, Play(0, 13, 1))


def test_game_over_comes_first_even_for_a_malformed_action() -> None:
    state = finished()
    refused(state, Play(0, 2, 1), "game_over")
    refused(state, Play(7, True, 0), "game_over")
    refused(state, "not an action", "game_over")
    error = refused(state, Ready(0), "game_over")
    assert isinstance(error, tg.GameOver)


@pytest.mark.parametrize(
    "action",
    [
        Play(3, 2, 1),
        Play(-1, 2, 1),
        Play(True, 2, 1),  # type: ignore[arg-type]
        Play(0, True, 1),  # type: ignore[arg-type]
        Play(0, 14, 1),
        Play(0, -1, 1),
        Play(0, 2, 0),
        Play(0, 2, 5),
        Play(0, 2.0, 1),  # type: ignore[arg-type]
        Play(0, None, 2),
        Give(0, 3),
        Give(0, True),  # type: ignore[arg-type]
        Complete(0, None),  # type: ignore[arg-type]
        TakeFaceUp(0, "7"),  # type: ignore[arg-type]
        Swap(0, 2, 99),
        (0, 2, 1),
        "play",
        None,
    ],
)
def test_malformed_actions_are_invalid_whoever_sends_them(action: object) -> None:
    state = start(3, hands={0: [2, 2, 3]}, stock=STOCK)
    error = refused(state, action, "invalid_action")
    assert isinstance(error, tg.InvalidAction)


def test_a_look_alike_of_an_action_is_not_an_action() -> None:
    class Fake(NamedTuple):
        seat: int
        value: int
        count: int

    class Subclass(Play):
        pass

    state = start(3, hands={0: [2, 2, 3]}, stock=STOCK)
    refused(state, Fake(0, 2, 1), "invalid_action")
    refused(state, Subclass(0, 2, 1), "invalid_action")
    assert Play(0, 2, 1) != (0, 2, 1) and Play(0, 2, 1) != Fake(0, 2, 1)


def test_not_your_turn_comes_before_the_rule_errors() -> None:
    state = start(3, hands={0: [2, 2, 3], 1: [4, 4, 5]}, stock=STOCK)
    refused(state, Play(1, 9, 1), "not_your_turn")  # seat 1 holds no 9 either
    refused(state, PickUp(1), "not_your_turn")
    refused(state, Give(1, 0), "not_your_turn")
    refused(state, TakeFaceUp(1, 2), "not_your_turn")
    error = refused(state, Accept(2), "not_your_turn")
    assert isinstance(error, tg.NotYourTurn)


def test_rule_errors_are_illegal_actions_with_a_code() -> None:
    state = start(3, hands={0: [2, 2, 3]}, stock=STOCK)
    for action, code in [
        (Play(0, 9, 1), "card_not_in_hand"),
        (PickUp(0), "must_play"),
        (Give(0, 1), "not_in_phase"),
        (Accept(0), "not_in_phase"),
        (TakeFaceUp(0, 2), "not_in_phase"),
        (Complete(1, 2), "window_closed"),
        (Swap(0, 2, 3), "not_in_phase"),
        (Ready(0), "not_in_phase"),
        (Play(0, None, 1), "not_blind"),
    ]:
        error = refused(state, action, code)
        assert type(error) is tg.IllegalAction and error.code in ERRORS


def test_every_rule_code_is_documented_and_raised_somewhere() -> None:
    assert set(GAME.info.errors) == set(ERRORS)
    assert set(ERRORS) == {
        "not_in_phase",
        "same_value_swap",
        "card_not_in_hand",
        "not_face_up",
        "too_many_cards",
        "illegal_play",
        "must_play",
        "empty_pile",
        "must_give",
        "bad_target",
        "window_closed",
        "not_blind",
    }
    assert all(meaning for meaning in ERRORS.values())
    assert not set(ERRORS) & set(COMMON_ERROR_CODES)


def test_a_refused_action_in_a_batch_refuses_the_whole_batch() -> None:
    state = start(3, hands={0: [2, 2, 3], 1: [4, 4, 5]}, stock=STOCK)
    before = tg.dumps(state)
    with pytest.raises(tg.GameError) as caught:
        state.apply_all([Play(0, 2, 1), Play(1, 4, 1), Play(2, 99, 1)])
    assert caught.value.code == "invalid_action"
    assert tg.dumps(state) == before and state.version == 0 + 3
    after = state.apply_all([Play(0, 2, 1), Play(1, 4, 1)])
    assert after.version == state.version + 2 and after == run(state, Play(0, 2, 1), Play(1, 4, 1))


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "seat": 0, "value": 2},
        {"type": "play", "seat": 0, "value": 2, "count": 1, "extra": 1},
        {"type": "play", "value": 2, "count": 1},
        {"type": "play", "seat": True, "value": 2, "count": 1},
        {"type": "play", "seat": 0, "value": 2, "count": True},
        {"type": "play", "seat": 6, "value": 2, "count": 1},
        {"type": "play", "seat": 0, "value": "2", "count": 1},
        {"type": "complete", "seat": 0, "value": None},
        {"type": "give", "seat": 0, "target": "1"},
        {"type": "give", "seat": 0, "target": -1},
        {"type": "swap", "seat": 0, "hand_card": 2},
        {"type": "ready", "seat": 0, "value": 1},
        {"type": "slap", "seat": 0},
        {"type": None, "seat": 0},
        {"seat": 0},
        ["play", 0],
        "play",
    ],
)
def test_parse_action_refuses_anything_malformed(data: Any) -> None:
    with pytest.raises(tg.InvalidAction):
        GAME.parse_action(data)


def test_parse_action_reads_every_dict_form() -> None:
    for action in [
        Swap(1, 2, 3),
        Ready(2),
        Play(0, 0, 2),
        Play(5, None, 1),
        PickUp(1),
        Give(0, 3),
        Give(0, None),
        Accept(4),
        Complete(2, 13),
        TakeFaceUp(3, 7),
    ]:
        assert GAME.parse_action(action.to_dict()) == action
        assert type(GAME.parse_action(action.to_dict())) is type(action)
    assert GAME.parse_action({"type": "give", "seat": 0}) == Give(0, None), "target may be left out"

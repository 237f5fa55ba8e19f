"""Snapshots (tg.dumps / tg.loads) and replays (replay_record / tg.replay)."""

from __future__ import annotations

import itertools
import json
import operator
from collections.abc import Callable
from typing import Any
from unittest import mock

import pytest

import thegame_core as tg
from thegame_core.bots import create_bot

from .helpers import (
    A1,
    A2,
    ascending_turns,
    bot_game,
    deck_for,
    new,
    notations_parsed,
    play_turns,
    raises_code,
    random_states,
)


def sample_states() -> list[tg.State]:
    """A fresh game, a game mid-turn with signals, a won game and a lost game."""
    fresh = new(3, seed=21, options={"preset": "expert"}, first_seat=1)
    mid = new(2, deck=deck_for([[10, 11, 12, 13, 14, 15, 16], [20, 21, 22, 23, 24, 25, 26]]))
    mid = mid.apply_all([tg.Play(0, 10, A1), tg.Signal(1, A2, "dont_play"), tg.Play(0, 11, A1)])
    won = play_turns(new(1, deck=list(range(2, 100))), ascending_turns(1, 8, itertools.repeat(8)))
    lost = bot_game(new(4, seed=5), [create_bot("random", seed=seat) for seat in range(4)])
    return [fresh, mid, won, lost]


@pytest.mark.parametrize("index", range(4))
def test_loads_dumps_round_trip(index: int) -> None:
    """loads(dumps(s)) == s, for a fresh, a running, a won and a lost game; the text is JSON."""
    state = sample_states()[index]
    text = tg.dumps(state)
    assert tg.loads(text) == state
    assert tg.loads(text.encode()) == state
    assert tg.dumps(tg.loads(text)) == text
    data = json.loads(text)
    assert data["game"] == "the-game"
    assert "format" in data


def test_sample_states_cover_every_status() -> None:
    assert [state.status for state in sample_states()] == ["playing", "playing", "won", "lost"]


@pytest.mark.parametrize("index", range(4))
def test_states_are_frozen_hashable_and_equal_only_to_states(index: int) -> None:
    """A state refuses assignment; equal states hash alike; a state never equals a plain tuple of its fields."""
    state = sample_states()[index]
    copy = tg.loads(tg.dumps(state))
    assert copy == state
    assert operator.ne(copy, state) is False
    assert hash(copy) == hash(state)
    assert len({state, copy}) == 1
    for name in ("hands", "tops", "outcome", "history", "current_seat"):
        with pytest.raises(AttributeError):
            setattr(state, name, None)
    assert state != tuple(state)
    assert operator.eq(state, tuple(state)) is False
    assert tg.dumps(state) == tg.dumps(copy)
    assert state == mock.ANY  # a state leaves comparisons with other kinds of object to them
    for compare in (operator.lt, operator.le, operator.gt, operator.ge):
        with pytest.raises(TypeError):
            compare(state, copy)
        with pytest.raises(TypeError):
            compare(tuple(state), state)


@pytest.mark.parametrize("index", range(4))
def test_replay_of_the_replay_record_is_the_same_state(index: int) -> None:
    """tg.replay(s.replay_record()) == s: setup plus the public actions rebuild the exact state."""
    state = sample_states()[index]
    record = json.loads(json.dumps(state.replay_record()))  # a record survives JSON
    assert tg.replay(record) == state


def test_replay_refuses_an_illegal_action() -> None:
    """A record whose actions break the rules does not replay."""
    record = new(2, seed=1).replay_record()
    record["actions"] = [{"type": "end_turn", "seat": 0}]
    with raises_code("minimum_not_reached"):
        tg.replay(record)


@pytest.mark.parametrize("text", ["not json", "", "{", "[1, 2]", "null", "42", '"the-game"', b"\xff\xfe"], ids=repr)
def test_loads_refuses_what_is_not_a_json_snapshot(text: str | bytes) -> None:
    """Anything but a snapshot object -> corrupt_state."""
    with raises_code("corrupt_state"):
        tg.loads(text)


def _edit(change: Callable[[dict[str, Any]], None]) -> str:
    data = json.loads(tg.dumps(new(3, seed=4).apply(tg.Signal(2, A1, "dont_play"))))
    change(data)
    return json.dumps(data)


def _duplicate_card(data: dict[str, Any]) -> None:
    data["deck"][0] = data["deck"][1]


def _drop_card(data: dict[str, Any]) -> None:
    data["deck"].pop()


def _impossible_card(data: dict[str, Any]) -> None:
    data["deck"][0] = 1


def _play_a_card_seat_0_does_not_hold(data: dict[str, Any]) -> None:
    hand = tg.loads(json.dumps(data)).hands[0]  # type: ignore[attr-defined]
    data["history"].append(f"P0:{next(card for card in range(2, 100) if card not in hand)}:asc1")


CORRUPTIONS: dict[str, Callable[[dict[str, Any]], None]] = {
    "format version 2": lambda data: data.update(format=2),
    "format version missing": lambda data: data.pop("format"),
    "format version as text": lambda data: data.update(format="1"),
    "unknown game": lambda data: data.update(game="ninja"),
    "game missing": lambda data: data.pop("game"),
    "duplicated card": _duplicate_card,
    "missing card": _drop_card,
    "impossible card": _impossible_card,
    "deck not a permutation": lambda data: data.update(deck=data["deck"][:-1]),
    "deck not a list": lambda data: data.update(deck="abc"),
    "options out of range": lambda data: data["options"].update(hand_size=99),
    "first seat out of range": lambda data: data.update(first_seat=3),
    "history not notation": lambda data: data.update(history=["X"]),
    "history not a list": lambda data: data.update(history=7),
    "history plays a card not in hand": _play_a_card_seat_0_does_not_hold,
    "history acts out of turn": lambda data: data["history"].append("E1"),
    "history ends a turn before the minimum": lambda data: data["history"].append("E0"),
}


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_loads_refuses_damaged_snapshots(name: str) -> None:
    """A snapshot with a wrong format version, an unknown game, a deck that is not the 98 cards, or a history that
    breaks the rules -> corrupt_state."""
    with raises_code("corrupt_state"):
        tg.loads(_edit(CORRUPTIONS[name]))


IMPOSSIBLE: dict[str, Callable[[dict[str, Any]], None]] = {
    "current seat out of range": lambda data: data.update(current_seat=7),
    "three piles": lambda data: data.update(tops=[1, 1, 100]),
    "unknown outcome status": lambda data: data.update(outcome={"status": "exploded", "reason": "x", "seat": None}),
    "signal on an unknown pile": lambda data: data.update(signals=[[0, "asc9", "dont_play"]]),
    "pile top that was never placed": lambda data: data.update(tops=[50, 1, 100, 100]),
    "hands edited": lambda data: data.update(hands=[[2, 3], [4, 5], [6, 7]]),
}


@pytest.mark.parametrize("name", IMPOSSIBLE)
def test_loads_refuses_snapshots_no_game_can_reach(name: str) -> None:
    """tg.loads: "The state written by dumps; CorruptState for anything else" - a snapshot is the setup and the
    history, from which the rules derive everything else; one that also claims a seat, piles, an outcome, signals
    or hands of its own (a state no replay of its history produces) is refused, not played on."""
    with raises_code("corrupt_state"):
        tg.loads(_edit(IMPOSSIBLE[name]))


def test_unedited_snapshot_loads() -> None:
    """The base of the corruption tests is itself a valid snapshot (so each failure is due to its edit)."""
    assert tg.loads(_edit(lambda data: None)).version == 1


def test_hand_order_in_a_snapshot_does_not_change_the_rules() -> None:
    """A hand is a set of cards: a snapshot listing it in another order is either refused (corrupt_state) or plays
    exactly like the original. One player, hand 6, minimum 3; after 97 / 92 / 5 / 36 the hand is 13 17 30 39 55 57.
    Placing 17 on desc2 (36) leaves 13 as the only card that fits anywhere, so 2 more plays are out of reach: lost
    (spec "Lost ... checked ... after each play")."""
    options = {"hand_size": 6, "min_per_turn": 3}
    state = new(1, deck=deck_for([[97, 92, 5, 36, 13, 17]], then=[30, 39, 55, 57]), options=options)
    state = play_turns(state, [[(97, A1), (92, A2), (5, "desc1"), (36, "desc2")]])
    assert sorted(state.hands[0]) == [13, 17, 30, 39, 55, 57]
    assert state.status == "playing"
    assert state.apply(tg.Play(0, 17, "desc2")).outcome == tg.Outcome("lost", "minimum_unreachable", 0)
    data = json.loads(tg.dumps(state))
    data["hands"] = [[30, 55, 13, 57, 17, 39]]
    try:
        reordered = tg.loads(json.dumps(data))
        assert isinstance(reordered, tg.State)
    except tg.GameError as error:
        assert error.code == "corrupt_state"
        return
    for action in state.legal_actions():
        assert reordered.apply(action).outcome == state.apply(action).outcome, action


def notations_read(text: str, earlier: tuple[str, tg.State] | None) -> tuple[tg.AnyState, int]:
    """The state ``text`` holds, read on from ``earlier``, and how many action notations the read parsed."""
    return notations_parsed(lambda: tg.loads(text, earlier))


def test_a_snapshot_read_on_from_an_earlier_state_parses_only_the_newer_actions() -> None:
    states = random_states(40, seed=3)
    later, earlier = states[40], states[35]
    text = tg.dumps(later)
    assert notations_read(text, None) == (later, 40)
    assert notations_read(text, (tg.dumps(earlier), earlier)) == (later, 5)
    # from what it does not continue, the whole history: a later state, another game, an edited setup, no actions
    assert notations_read(tg.dumps(earlier), (text, later)) == (earlier, 35)
    other = random_states(5, seed=4)[5]
    assert notations_read(text, (tg.dumps(other), other)) == (later, 40)
    edited = tg.dumps(states[10]).replace('"first_seat":0', '"first_seat":1')
    assert edited != tg.dumps(states[10])
    assert notations_read(text, (edited, states[10])) == (later, 40)
    assert notations_read(text, (tg.dumps(states[0]), states[0])) == (later, 40)


def test_a_continuation_that_breaks_the_rules_is_a_corrupt_snapshot() -> None:
    earlier = random_states(6, seed=5)[6]
    text = tg.dumps(earlier)
    again = json.dumps(json.loads(text)["history"][-1])  # the last action once more: its card is no longer held
    broken = f"{text[:-2]},{again}]}}"
    for known in (None, (text, earlier)):
        with pytest.raises(tg.CorruptState):
            tg.loads(broken, known)

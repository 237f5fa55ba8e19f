"""N5 (reference card, legal groups), N6 (play or pick up) and N12 (leading)."""

from __future__ import annotations

import pytest

from thegame_core.games.ninja import Give, PickUp, Play, State

from .helpers import refused, run, start


def plays(state: State, seat: int) -> set[tuple[int | None, int]]:
    return {(action.value, action.count) for action in state.legal_actions(seat) if isinstance(action, Play)}


def values(state: State, seat: int) -> set[int | None]:
    return {value for value, _ in plays(state, seat)}


def test_n12_leading_any_group_is_legal_one_nine_and_thirteen_included() -> None:
    state = start(3, hands={0: [1, 9, 13]})
    assert values(state, 0) == {1, 9, 13}
    assert PickUp(0) not in state.legal_actions(0), "nothing to pick up"
    assert state.apply(Play(0, 1, 1)).pile == (1,)
    assert state.apply(Play(0, 13, 1)).pile == (13,)
    assert state.apply(Play(0, 9, 1)).burned == 1, "a 9 burns even a pile of its own"


def test_n5_a_group_must_be_at_least_the_reference() -> None:
    state = run(start(3, hands={0: [7, 2, 3], 1: [5, 7, 10]}), Play(0, 7, 1))
    assert state.ref == 7 and state.current_seat == 1
    assert values(state, 1) == {7, 10}
    refused(state, Play(1, 5, 1), "illegal_play")
    assert run(state, Play(1, 7, 1)).ref == 7, "equal is enough"


def test_n5_a_group_is_any_number_of_cards_of_one_value() -> None:
    state = start(2, hands={0: [5, 5, 5]}, stock=[2, 3, 4])
    assert plays(state, 0) == {(5, 1), (5, 2), (5, 3)}
    state = run(state, Play(0, 5, 3))
    assert state.pile == (5, 5, 5) and state.hands[0] == (2, 3, 4)


def test_n5_on_a_six_only_six_or_lower_and_a_one_is_lower() -> None:
    state = run(start(3, hands={0: [6, 2, 3], 1: [1, 5, 7], 2: [6, 12, 12]}), Play(0, 6, 1))
    assert state.ref == 6
    assert values(state, 1) == {1, 5}
    refused(state, Play(1, 7, 1), "illegal_play")
    state = run(state, Play(1, 5, 1))
    assert state.ref == 5


def test_n5_six_on_six_and_thirteen_not_on_six() -> None:
    state = run(start(3, hands={0: [6, 2, 3], 1: [6, 13, 7]}), Play(0, 6, 1))
    assert values(state, 1) == {6}
    refused(state, Play(1, 13, 1), "illegal_play")


def test_n5_ninja_is_always_legal_and_transparent() -> None:
    state = start(3, hands={0: [6, 2, 3], 1: [0, 12, 12], 2: [5, 7, 9]})
    state = run(state, Play(0, 6, 1))
    assert 0 in values(state, 1), "NINJA goes on a 6"
    state = run(state, Play(1, 0, 1))
    assert state.pile == (6, 0) and state.ref == 6, "the 6 shows through the NINJA"
    assert values(state, 2) == {5}, "the 6 restriction survives the NINJA"


def test_n5_ninja_on_an_empty_pile_sets_no_reference() -> None:
    state = run(start(2, hands={0: [0, 2, 3], 1: [2, 2, 3]}), Play(0, 0, 1))
    assert state.pile == (0,) and state.ref is None
    assert values(state, 1) == {2, 3}


def test_n5_a_one_goes_on_a_thirteen_in_a_normal_turn() -> None:
    options = {"give_optional": True}
    state = start(3, hands={0: [13, 2, 3], 1: [1, 12, 4], 2: [2, 3, 4]}, options=options)
    state = run(state, Play(0, 13, 1), Give(0, None))
    assert state.current_seat == 1 and state.ref == 13 and state.phase == "play"
    assert values(state, 1) == {1}
    state = run(state, Play(1, 1, 1))
    assert state.ref == 1 and state.current_seat == 2
    assert values(state, 2) == {2, 3, 4}, "anything may follow a 1"


def test_n6_pick_up_only_without_a_legal_group() -> None:
    state = run(start(2, hands={0: [12, 2, 3], 1: [2, 3, 4]}), Play(0, 12, 1))
    assert state.legal_actions(1) == [PickUp(1)], "nothing beats a 12 here"
    refused(state, Play(1, 4, 1), "illegal_play")
    state = run(start(2, hands={0: [7, 2, 3], 1: [2, 3, 10]}), Play(0, 7, 1))
    assert PickUp(1) not in state.legal_actions(1)
    refused(state, PickUp(1), "must_play")


def test_n6_voluntary_pickup_allows_taking_the_pile_anyway() -> None:
    options = {"voluntary_pickup": True}
    state = run(start(2, hands={0: [7, 2, 3], 1: [2, 3, 10]}, options=options), Play(0, 7, 1))
    assert PickUp(1) in state.legal_actions(1)
    state = run(state, PickUp(1))
    assert state.hands[1] == (2, 3, 7, 10) and state.pile == ()
    refused(state, PickUp(0), "empty_pile")


def test_playing_needs_the_cards() -> None:
    state = start(2, hands={0: [7, 7, 3]})
    refused(state, Play(0, 9, 1), "card_not_in_hand")
    refused(state, Play(0, 7, 3), "card_not_in_hand")


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_max_cards_per_play_limits_a_group(limit: int) -> None:
    state = start(2, hands={0: [5, 5, 5]}, options={"max_cards_per_play": limit})
    assert plays(state, 0) == {(5, count) for count in range(1, limit + 1)}
    if limit < 3:
        refused(state, Play(0, 5, limit + 1), "too_many_cards")

"""N9: completing a pair out of turn, when the window opens and closes, and ``single_completion``."""

from __future__ import annotations

from thegame_core.games.ninja import Accept, Complete, Give, Play

from .helpers import refused, run, start

STOCK = [10, 11, 12, 10, 11, 12]


def test_a_pair_on_top_opens_a_window_for_the_holder_of_the_other_two() -> None:
    state = start(4, hands={0: [5, 2, 2], 1: [5, 3, 3], 3: [5, 5, 4]}, stock=STOCK)
    state = run(state, Play(0, 5, 1), Play(1, 5, 1))
    assert state.window == (5, 1, 2)
    assert state.public_view()["completion"] == {"value": 5, "placed_by": 1}
    assert state.legal_actions(3) == [Complete(3, 5)]
    assert Complete(2, 5) not in state.legal_actions(2)
    assert state.waiting_for == frozenset({2}), "the completion is out of turn"
    assert state.asking_order() == (3, 2), "claimants first, clockwise from the placer"
    refused(state, Complete(2, 5), "window_closed")
    refused(state, Complete(1, 5), "window_closed")
    refused(state, Complete(3, 4), "window_closed")
    state = run(state, Complete(3, 5))
    assert (state.pile, state.burned, state.current_seat, state.window) == ((), 4, 3, None)
    assert len(state.hands[3]) == 3, "a completion is a placement: refilled"
    assert state.turns == 2, "not an in-turn play"


def test_the_window_closes_with_the_next_action_of_any_other_kind() -> None:
    state = start(4, hands={0: [5, 2, 2], 1: [5, 3, 3], 2: [7, 4, 4], 3: [5, 5, 4]}, stock=STOCK)
    state = run(state, Play(0, 5, 1), Play(1, 5, 1), Play(2, 7, 1))
    assert state.window is None and state.public_view()["completion"] is None
    refused(state, Complete(3, 5), "window_closed")


def test_two_cards_placed_at_once_make_a_pair_too() -> None:
    state = start(3, hands={0: [7, 7, 2], 2: [7, 7, 4]}, stock=STOCK)
    state = run(state, Play(0, 7, 2))
    assert state.window == (7, 0, 2) and state.legal_actions(2)[0] == Complete(2, 7)


def test_three_of_a_kind_opens_no_window_and_one_card_cannot_complete_it() -> None:
    state = start(3, hands={0: [7, 7, 2], 1: [7, 3, 3], 2: [7, 4, 4]}, stock=STOCK)
    state = run(state, Play(0, 7, 2), Play(1, 7, 1))
    assert state.window is None
    refused(state, Complete(2, 7), "window_closed")


def test_single_completion_lets_the_last_copy_complete_three_of_a_kind() -> None:
    options = {"single_completion": True}
    state = start(4, hands={0: [7, 7, 2], 1: [7, 3, 3], 3: [7, 4, 4]}, stock=STOCK, options=options)
    state = run(state, Play(0, 7, 2), Play(1, 7, 1))
    assert state.window == (7, 1, 1) and state.legal_actions(3) == [Complete(3, 7)]
    state = run(state, Complete(3, 7))
    assert state.burned == 4 and state.current_seat == 3


def test_no_window_for_sixes_or_ninjas() -> None:
    state = start(3, hands={0: [6, 6, 2], 1: [0, 0, 3], 2: [6, 6, 4]}, stock=STOCK)
    assert run(state, Play(0, 6, 2)).window is None
    state = start(3, hands={0: [0, 0, 2]}, stock=STOCK)
    assert run(state, Play(0, 0, 2)).window is None


def test_a_completion_pre_empts_the_skip_of_eights() -> None:
    state = start(4, hands={0: [8, 2, 2], 2: [8, 3, 3], 3: [8, 8, 4]}, stock=STOCK)
    state = run(state, Play(0, 8, 1))
    assert state.current_seat == 2, "seat 1 skipped"
    state = run(state, Play(2, 8, 1))
    assert state.current_seat == 0 and state.window == (8, 2, 2), "seat 3 would be skipped"
    state = run(state, Complete(3, 8))
    assert state.current_seat == 3 and state.burned == 4


def test_a_completion_pre_empts_the_give_of_thirteens() -> None:
    state = start(4, hands={0: [13, 13, 2], 2: [13, 13, 4]}, stock=STOCK)
    state = run(state, Play(0, 13, 2))
    assert state.phase == "give" and state.window == (13, 0, 2)
    assert state.legal_actions(2)[0] == Complete(2, 13)
    state = run(state, Complete(2, 13))
    assert (state.phase, state.give, state.current_seat, state.burned) == ("play", None, 2, 4)


def test_naming_the_target_closes_the_window() -> None:
    state = start(4, hands={0: [13, 13, 2], 2: [13, 13, 4]}, stock=STOCK)
    state = run(state, Play(0, 13, 2), Give(0, 1))
    assert state.window is None
    refused(state, Complete(2, 13), "window_closed")
    state = run(state, Accept(1))
    assert state.current_seat == 0


def test_a_counter_that_makes_a_pair_opens_a_window() -> None:
    state = start(4, hands={0: [13, 2, 2], 1: [13, 3, 3], 3: [13, 13, 4]}, stock=STOCK)
    state = run(state, Play(0, 13, 1), Give(0, 1), Play(1, 13, 1))
    assert state.window == (13, 1, 2) and state.phase == "give"
    state = run(state, Complete(3, 13))
    assert state.burned == 4 and state.current_seat == 3 and state.give is None

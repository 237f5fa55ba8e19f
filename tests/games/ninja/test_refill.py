"""N10: refilling the hand from the stock, then face-up cards (chosen when it matters), then face-down cards."""

from __future__ import annotations

from thegame_core.games.ninja import PickUp, Play, Ready, TakeFaceUp

from .helpers import refused, run, start


def test_the_stock_comes_first() -> None:
    state = start(3, hands={0: [5, 5, 2]}, up={0: [7, 10, 12]}, stock=[3, 4])
    state = run(state, Play(0, 5, 2))
    assert state.hands[0] == (2, 3, 4) and state.face_up[0] == (7, 10, 12)


def test_a_refill_asks_which_face_up_card_when_the_choice_matters() -> None:
    state = start(6, hands={0: [5, 2, 3]}, up={0: [7, 7, 10]})
    state = run(state, Play(0, 5, 1))
    assert (state.phase, state.current_seat, state.waiting_for) == ("refill", 0, frozenset({0}))
    assert state.legal_actions(0) == [TakeFaceUp(0, 7), TakeFaceUp(0, 10)]
    assert all(state.legal_actions(seat) == [] for seat in range(1, 6))
    refused(state, TakeFaceUp(0, 12), "not_face_up")
    refused(state, Play(1, 2, 1), "not_your_turn")
    refused(state, Play(0, 2, 1), "not_in_phase")
    turns = state.turns
    state = run(state, TakeFaceUp(0, 10))
    assert state.hands[0] == (2, 3, 10) and state.face_up[0] == (7, 7)
    assert (state.phase, state.current_seat, state.turns) == ("play", 1, turns)


def test_one_card_per_choice_until_the_choice_no_longer_matters() -> None:
    state = start(6, hands={0: [5, 5, 2]}, up={0: [4, 7, 10]})
    state = run(state, Play(0, 5, 2), TakeFaceUp(0, 10))
    assert state.phase == "refill" and state.legal_actions(0) == [TakeFaceUp(0, 4), TakeFaceUp(0, 7)]
    state = run(state, TakeFaceUp(0, 4))
    assert state.hands[0] == (2, 4, 10) and state.face_up[0] == (7,) and state.phase == "play"


def test_the_rest_is_taken_without_asking_once_the_face_up_cards_are_all_alike() -> None:
    state = start(6, hands={0: [5, 5, 2]}, up={0: [4, 7, 7]})
    state = run(state, Play(0, 5, 2), TakeFaceUp(0, 4))
    assert state.hands[0] == (2, 4, 7) and state.face_up[0] == (7,) and state.phase == "play"


def test_no_question_when_all_face_up_cards_are_taken_or_all_alike() -> None:
    state = run(start(6, hands={0: [5, 5, 5]}, up={0: [2, 7, 10]}), Play(0, 5, 3))
    assert state.hands[0] == (2, 7, 10) and state.face_up[0] == () and state.phase == "play"
    state = run(start(6, hands={0: [5, 2, 3]}, up={0: [7, 7, 7]}), Play(0, 5, 1))
    assert state.hands[0] == (2, 3, 7) and state.face_up[0] == (7, 7) and state.phase == "play"


def test_face_down_cards_come_last_in_deal_order() -> None:
    state = start(6, hands={0: [5, 5, 5], 1: [2, 3, 4]}, up={0: [7, 7, 7]}, down={0: [12, 2, 4]})
    state = run(state, Play(0, 5, 3), PickUp(1), Play(0, 7, 1))
    assert state.hands[0] == (7, 7, 12) and state.face_down[0] == (2, 4), "the first dealt first"
    state = run(state, PickUp(1), Play(0, 7, 2))
    assert state.hands[0] == (2, 4, 12) and state.face_down[0] == ()


def test_a_pair_placed_before_a_refill_choice_opens_its_window_once_the_refill_is_done() -> None:
    state = start(6, hands={0: [5, 5, 2], 3: [5, 5, 3]}, up={0: [4, 7, 10]})
    state = run(state, Play(0, 5, 2))
    assert state.phase == "refill" and state.window is None and state.legal_actions(3) == []
    state = run(state, TakeFaceUp(0, 7), TakeFaceUp(0, 10))
    assert state.window == (5, 0, 2) and state.current_seat == 1


def test_max_turns_ends_the_game_once_the_refill_choice_is_made() -> None:
    state = start(6, hands={0: [5, 2, 3]}, up={0: [7, 7, 10]}, options={"max_turns": 1})
    state = run(state, Play(0, 5, 1))
    assert state.status == "playing" and state.phase == "refill"
    state = run(state, TakeFaceUp(0, 7))
    assert state.status == "finished" and state.outcome is not None and state.outcome.reason == "turn_limit"


def test_swaps_and_readies_do_not_refill() -> None:
    state = start(3, hands={0: [5, 2, 3]}, up={0: [7, 10, 12]}, ready=False)
    state = run(state, Ready(1))
    assert state.hands[0] == (2, 3, 5)

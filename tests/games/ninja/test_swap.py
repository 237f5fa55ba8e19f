"""N4.3: the swap phase, ``ready``, and what the game waits for meanwhile."""

from __future__ import annotations

from thegame_core.games.ninja import Play, Ready, Swap

from .helpers import refused, run, start


def test_a_swap_exchanges_a_hand_card_with_a_face_up_card() -> None:
    state = start(3, hands={0: [2, 5, 5]}, up={0: [5, 9, 12]}, ready=False)
    state = run(state, Swap(0, 2, 12))
    assert state.hands[0] == (5, 5, 12) and state.face_up[0] == (2, 5, 9)
    state = run(state, Swap(0, 5, 9), Swap(0, 9, 2))
    assert state.hands[0] == (2, 5, 12) and state.face_up[0] == (5, 5, 9)
    assert state.face_down == start(3, hands={0: [2, 5, 5]}, up={0: [5, 9, 12]}, ready=False).face_down
    assert state.version == 3 and state.phase == "swap"


def test_swap_legal_actions_are_every_exchange_of_different_values_then_ready() -> None:
    state = start(3, hands={0: [2, 5, 5]}, up={0: [5, 9, 12]}, ready=False)
    assert state.legal_actions(0) == [
        Swap(0, 2, 5),
        Swap(0, 2, 9),
        Swap(0, 2, 12),
        Swap(0, 5, 9),
        Swap(0, 5, 12),
        Ready(0),
    ]


def test_swapping_two_cards_of_the_same_value_is_not_an_action() -> None:
    state = start(3, hands={0: [2, 5, 5]}, up={0: [5, 9, 12]}, ready=False)
    refused(state, Swap(0, 5, 5), "same_value_swap")


def test_swap_needs_the_cards() -> None:
    state = start(3, hands={0: [2, 5, 5]}, up={0: [5, 9, 12]}, ready=False)
    refused(state, Swap(0, 9, 5), "card_not_in_hand")
    refused(state, Swap(0, 2, 13), "not_face_up")


def test_every_seat_not_ready_is_waited_for_and_play_starts_when_all_are_ready() -> None:
    state = start(3, first_seat=1, ready=False)
    assert state.waiting_for == frozenset({0, 1, 2}) and state.current_seat == 1
    assert state.asking_order() == (1, 2, 0)
    state = run(state, Ready(2))
    assert state.waiting_for == frozenset({0, 1}) and state.ready == (False, False, True)
    assert state.legal_actions(2) == []
    state = run(state, Ready(0))
    assert state.phase == "swap" and state.asking_order() == (1,)
    state = run(state, Ready(1))
    assert (state.phase, state.current_seat, state.waiting_for) == ("play", 1, frozenset({1}))


def test_a_ready_seat_can_neither_swap_nor_be_ready_again() -> None:
    state = run(start(3, hands={0: [2, 5, 5]}, up={0: [5, 9, 12]}, ready=False), Ready(0))
    refused(state, Ready(0), "not_your_turn")
    refused(state, Swap(0, 2, 9), "not_your_turn")


def test_no_card_is_played_while_swapping_and_no_swap_once_playing() -> None:
    state = start(3, hands={0: [2, 5, 5]}, up={0: [5, 9, 12]}, ready=False)
    refused(state, Play(0, 2, 1), "not_in_phase")
    playing = start(3, hands={0: [2, 5, 5]}, up={0: [5, 9, 12]})
    refused(playing, Swap(0, 2, 9), "not_in_phase")
    refused(playing, Ready(0), "not_in_phase")
    refused(playing, Swap(1, 2, 9), "not_your_turn")


def test_the_view_shows_who_is_ready() -> None:
    state = run(start(2, ready=False), Ready(1))
    view = state.public_view()
    assert [seat["ready"] for seat in view["seats"]] == [False, True]
    assert view["phase"] == "swap" and view["waiting_for"] == [0]

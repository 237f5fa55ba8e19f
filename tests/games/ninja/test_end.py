"""The end (N7.3 and "Ends"): out of cards, ``play_to_last``, ``max_turns`` and the ranking."""

from __future__ import annotations

import random

from thegame_core.games.ninja import PickUp, Play, State

from .helpers import new, run, start
from .test_resolution import out_of_cards_table


def test_max_turns_counts_in_turn_plays_and_pick_ups_and_ranks_by_cards_held() -> None:
    hands = {0: [12, 2, 2], 1: [3, 3, 4], 2: [5, 5, 4]}
    state = start(3, hands=hands, stock=[10, 10, 11, 11], options={"max_turns": 2}, first_seat=1)
    state = run(state, Play(1, 3, 2))
    assert state.turns == 1 and state.status == "playing"
    state = run(state, Play(2, 4, 1))
    assert state.status == "finished" and state.outcome is not None
    assert state.outcome.reason == "turn_limit" and state.turns == 2
    assert state.outcome.ranking == (1, 2, 0), "every seat holds 9 cards: clockwise from first_seat"
    assert state.outcome.winner == 1


def test_max_turns_ranks_fewest_cards_first() -> None:
    state = start(3, hands={0: [12, 2, 2], 1: [3, 3, 4]}, stock=[10, 10, 11, 11], options={"max_turns": 2})
    state = run(state, Play(0, 12, 1), PickUp(1))
    assert state.outcome is not None and state.outcome.ranking == (0, 2, 1)


def test_max_turns_does_not_play_the_give_a_thirteen_would_open() -> None:
    state = start(3, hands={0: [13, 2, 2]}, stock=[10, 11], options={"max_turns": 1})
    state = run(state, Play(0, 13, 1))
    assert state.status == "finished" and state.give is None and state.public_view()["give"] is None


def test_play_to_last_a_seat_out_gives_nothing_with_its_last_thirteens() -> None:
    state = start(
        6,
        hands={0: [10, 10, 10], 1: [2, 3, 4]},
        up={0: [11, 11, 11]},
        down={0: [13, 13, 13]},
        options={"play_to_last": True},
    )
    state = run(state, Play(0, 10, 3), PickUp(1), Play(0, 11, 3), PickUp(1), Play(0, 13, 3))
    assert state.out == (0,) and state.phase == "play" and state.give is None
    assert state.current_seat == 1 and state.ref == 13


def test_play_to_last_a_seat_out_never_plays_again() -> None:
    state = run(out_of_cards_table({"play_to_last": True}), Play(0, 12, 3))
    assert state.legal_actions(0) == [] and 0 not in state.asking_order()
    assert all(state.current_seat != 0 for state in [run(state, PickUp(1))])


def play_randomly(state: State, seed: int) -> State:
    rng = random.Random(seed)
    while state.status == "playing":
        seat = rng.choice(state.asking_order())
        actions = state.legal_actions(seat)
        if actions:
            state = state.apply(rng.choice(actions))
    return state


def test_play_to_last_ranks_seats_in_the_order_they_went_out() -> None:
    finished = 0
    for seed in range(12):
        state = play_randomly(new(4, seed=seed, options={"play_to_last": True}), seed)
        assert state.outcome is not None and sorted(state.outcome.ranking) == [0, 1, 2, 3]
        assert state.outcome.ranking[: len(state.out)] == state.out
        if state.outcome.reason == "out_of_cards":
            finished += 1
            assert len(state.out) == 3, "the game goes on until one seat is left"
    assert finished


def test_the_first_seat_out_wins_by_default() -> None:
    for seed in range(12):
        state = play_randomly(new(3, seed=seed), seed)
        assert state.outcome is not None
        if state.outcome.reason == "out_of_cards":
            winner = state.outcome.winner
            assert winner is not None and state.out == (winner,)
            assert not (state.hands[winner] or state.face_up[winner] or state.face_down[winner])

"""N8: giving the pile with 13s, counters with 13s and 1s, accepting, and the give options."""

from __future__ import annotations

import pytest

from thegame_core.games.ninja import Accept, Give, PickUp, Play, State

from .helpers import refused, run, start

STOCK = [2, 3, 4, 5, 7, 10, 11, 12]


def thirteen(options: dict[str, object] | None = None, **hands: list[int]) -> State:
    """Four seats; seat 0 has led 7 and seat 1 has placed a 13 on it, and must give."""
    dealt = {0: [7, 2, 2], 1: [13, 3, 3], 2: [4, 4, 5], 3: [5, 10, 10]}
    dealt.update({int(seat[1:]): cards for seat, cards in hands.items()})
    state = start(4, hands=dealt, stock=STOCK, options=options)
    return run(state, Play(0, 7, 1), Play(1, 13, 1))


def test_the_giver_must_name_another_seat() -> None:
    state = thirteen()
    assert (state.phase, state.current_seat, state.waiting_for) == ("give", 1, frozenset({1}))
    assert state.public_view()["give"] == {"giver": 1, "target": None}
    assert state.legal_actions(1) == [Give(1, 0), Give(1, 2), Give(1, 3)]
    refused(state, Give(1, 1), "bad_target")
    refused(state, Give(1, None), "must_give")
    refused(state, Play(1, 3, 1), "not_in_phase")
    refused(state, PickUp(1), "not_in_phase")
    refused(state, Give(2, 0), "not_your_turn")


def test_a_target_without_thirteen_or_one_must_accept_and_the_giver_leads() -> None:
    state = run(thirteen(), Give(1, 3))
    assert (state.current_seat, state.public_view()["give"]) == (3, {"giver": 1, "target": 3})
    assert state.legal_actions(3) == [Accept(3)]
    refused(state, PickUp(3), "not_in_phase")
    refused(state, Play(3, 10, 1), "illegal_play")
    refused(state, Accept(2), "not_your_turn")
    state = run(state, Accept(3))
    assert state.hands[3] == (5, 7, 10, 10, 13)
    assert (state.pile, state.phase, state.current_seat, state.give) == ((), "play", 1, None)


def test_a_ninja_cannot_counter_a_thirteen() -> None:
    state = run(thirteen(s2=[0, 4, 5]), Give(1, 2))
    assert state.legal_actions(2) == [Accept(2)]
    refused(state, Play(2, 0, 1), "illegal_play")


def test_counter_thirteen_makes_the_target_the_giver_who_may_give_back() -> None:
    state = run(thirteen(s2=[13, 4, 5]), Give(1, 2))
    assert state.legal_actions(2) == [Play(2, 13, 1), Accept(2)]
    state = run(state, Play(2, 13, 1))
    assert state.pile == (7, 13, 13) and state.last_layer == 2
    assert (state.phase, state.current_seat, state.give) == ("give", 2, (2, None, 1))
    assert Give(2, 1) in state.legal_actions(2), "back to the first giver"
    state = run(state, Give(2, 1))
    assert state.legal_actions(1) == [Accept(1)]
    state = run(state, Accept(1))
    assert state.current_seat == 2, "the final giver (last layer) leads"
    assert 13 in state.hands[1] and 7 in state.hands[1]


def test_counter_one_stops_the_give_and_play_restarts_after_the_target() -> None:
    state = run(thirteen(s3=[1, 1, 10]), Give(1, 3))
    assert state.legal_actions(3) == [Play(3, 1, 1), Play(3, 1, 2), Accept(3)]
    state = run(state, Play(3, 1, 1))
    assert (state.phase, state.give, state.current_seat, state.ref) == ("play", None, 0, 1)
    assert state.pile == (7, 13, 1)
    assert {action.value for action in state.legal_actions(0) if isinstance(action, Play)} == {2}, "anything beats 1"


def test_counters_are_placements_refilled_and_not_counted_as_turns() -> None:
    state = run(thirteen(s2=[13, 4, 5]), Give(1, 2))
    turns = state.turns
    state = run(state, Play(2, 13, 1))
    assert len(state.hands[2]) == 3 and state.turns == turns


def test_counter_thirteens_that_make_four_burn_and_nothing_is_given() -> None:
    state = start(4, hands={0: [13, 2, 2], 1: [13, 13, 13], 2: [4, 4, 5]}, stock=STOCK)
    state = run(state, Play(0, 13, 1), Give(0, 1), Play(1, 13, 3))
    assert (state.pile, state.burned, state.phase, state.current_seat) == ((), 4, "play", 1)


@pytest.mark.parametrize(
    ("rule", "leader"),
    [("last_layer", 2), ("next_after_original_giver", 2), ("next_after_target", 2)],
)
def test_after_give_leader_options(rule: str, leader: int) -> None:
    state = run(thirteen({"after_give_leader": rule}, s2=[13, 4, 5]), Give(1, 2), Play(2, 13, 1), Give(2, 1))
    state = run(state, Accept(1))
    assert state.current_seat == leader


@pytest.mark.parametrize(
    ("rule", "leader"),
    [("last_layer", 2), ("next_after_original_giver", 2), ("next_after_target", 0)],
)
def test_after_give_leader_options_after_a_chain(rule: str, leader: int) -> None:
    state = run(thirteen({"after_give_leader": rule}, s2=[13, 4, 5]), Give(1, 2), Play(2, 13, 1), Give(2, 3))
    state = run(state, Accept(3))
    assert state.current_seat == leader


def test_after_give_leader_next_after_original_giver_with_a_far_target() -> None:
    state = run(thirteen({"after_give_leader": "next_after_original_giver"}), Give(1, 3), Accept(3))
    assert state.current_seat == 2
    state = run(thirteen({"after_give_leader": "next_after_target"}), Give(1, 3), Accept(3))
    assert state.current_seat == 0


def test_give_optional_lets_the_giver_keep_the_pile_on_the_table() -> None:
    state = thirteen({"give_optional": True})
    assert state.legal_actions(1)[-1] == Give(1, None)
    state = run(state, Give(1, None))
    assert (state.phase, state.give, state.current_seat, state.ref) == ("play", None, 2, 13)
    assert state.legal_actions(2) == [PickUp(2)], "a 13 to beat"


def test_any_player_may_counter_lets_other_seats_counter_out_of_turn() -> None:
    options = {"any_player_may_counter": True}
    state = run(thirteen(options, s3=[1, 10, 10], s0=[13, 2, 7]), Give(1, 2))
    assert state.waiting_for == frozenset({2}) and state.current_seat == 2
    assert state.legal_actions(3) == [Play(3, 1, 1)]
    assert state.legal_actions(1) == [], "never the giver"
    assert state.legal_actions(0) == [Play(0, 13, 1)]
    assert state.asking_order() == (3, 0, 2), "seats with a counter, clockwise from the giver, then the target"
    state = run(state, Play(3, 1, 1))
    assert (state.phase, state.current_seat, state.pile[-1]) == ("play", 0, 1)


def test_any_player_may_counter_only_with_thirteens_or_ones() -> None:
    options = {"any_player_may_counter": True}
    state = run(thirteen(options, s3=[1, 10, 10]), Give(1, 2))
    refused(state, Play(3, 10, 1), "not_your_turn")
    refused(state, Accept(3), "not_your_turn")
    refused(state, Play(1, 13, 1), "not_your_turn")


def test_without_the_option_only_the_target_counters() -> None:
    state = run(thirteen(s3=[1, 10, 10]), Give(1, 2))
    assert state.legal_actions(3) == []
    refused(state, Play(3, 1, 1), "not_your_turn")

"""N7 (resolving a placement: refill, out of cards, four of a kind, 9, pairs, card effects) and N11 (pick-up)."""

from __future__ import annotations

import pytest

from thegame_core.games.ninja import PickUp, Play

from .helpers import refused, run, start


def test_n7_the_group_goes_on_the_pile_the_placer_is_last_layer_and_refills() -> None:
    state = start(3, hands={0: [7, 2, 3]}, stock=[11, 12])
    state = run(state, Play(0, 7, 1))
    assert state.pile == (7,) and state.last_layer == 0
    assert state.hands[0] == (2, 3, 11) and state.deck[state.drawn] == 12
    assert state.current_seat == 1


def out_of_cards_table(options: dict[str, object] | None = None) -> object:
    """Six seats (no stock): seat 0 plays 10s, 11s, 12s three at a time; seat 1 can never beat them,
    so seat 0 leads again after each pick-up, and is out after its third play."""
    state = start(
        6,
        hands={0: [10, 10, 10], 1: [2, 3, 4]},
        up={0: [11, 11, 11]},
        down={0: [12, 12, 12]},
        options=options,
    )
    state = run(state, Play(0, 10, 3))
    assert state.hands[0] == (11, 11, 11) and state.face_up[0] == ()
    state = run(state, PickUp(1))
    assert state.current_seat == 0 and state.pile == (), "the last layer leads"
    state = run(state, Play(0, 11, 3), PickUp(1))
    assert state.hands[0] == (12, 12, 12) and state.face_down[0] == ()
    return state


def test_n7_3_a_seat_with_no_cards_left_wins_and_the_others_are_ranked_by_cards_held() -> None:
    state = out_of_cards_table()
    state = run(state, Play(0, 12, 3))
    assert state.status == "finished" and state.outcome is not None
    assert (state.outcome.reason, state.outcome.winner) == ("out_of_cards", 0)
    assert state.outcome.ranking == (0, 2, 3, 4, 5, 1), "9 cards each, ties clockwise; seat 1 holds 15"
    assert state.waiting_for == frozenset() and state.current_seat is None
    assert all(state.legal_actions(seat) == [] for seat in range(6))


def test_n7_3_play_to_last_goes_on_without_the_seat_out() -> None:
    state = out_of_cards_table({"play_to_last": True})
    state = run(state, Play(0, 12, 3))
    assert state.status == "playing" and state.out == (0,)
    assert state.current_seat == 1 and state.ref == 12


def test_n7_4_four_of_a_kind_across_players_burns_and_the_placer_leads() -> None:
    state = start(3, hands={0: [5, 2, 3], 1: [5, 5, 3], 2: [5, 7, 7]}, stock=[10, 10, 11, 11])
    state = run(state, Play(0, 5, 1), Play(1, 5, 2))
    assert state.pile == (5, 5, 5) and state.window is None, "three of a kind opens no window"
    state = run(state, Play(2, 5, 1))
    assert (state.pile, state.burned, state.current_seat, state.last_layer) == ((), 4, 2, None)


def test_n7_4_four_at_once_burns() -> None:
    state = start(3, hands={0: [5, 2, 3], 1: [12, 3, 4], 2: [5, 5, 5]}, stock=[2, 7, 10, 11])
    state = run(state, Play(0, 5, 1), Play(1, 12, 1), PickUp(2))
    assert state.hands[2] == (5, 5, 5, 5, 12) and state.current_seat == 1
    state = run(state, Play(1, 3, 1), Play(2, 5, 4))
    assert state.burned == 5 and state.pile == () and state.current_seat == 2


def test_n7_4_four_sixes_burn_though_sixes_are_never_completed() -> None:
    state = start(3, hands={0: [6, 2, 3], 1: [6, 3, 4], 2: [6, 6, 7]}, stock=[10, 10, 11, 11])
    state = run(state, Play(0, 6, 1), Play(1, 6, 1))
    assert state.window is None, "a pair of 6s opens no window"
    state = run(state, Play(2, 6, 2))
    assert state.burned == 4 and state.current_seat == 2


@pytest.mark.parametrize("breaks", [True, False])
def test_n7_4_a_ninja_breaks_the_run_unless_ninja_breaks_run_is_off(breaks: bool) -> None:
    options = {"ninja_breaks_run": breaks}
    hands = {0: [5, 5, 2], 1: [0, 3, 4], 2: [5, 5, 7]}
    state = start(3, hands=hands, stock=[10, 10, 11, 11, 12], options=options)
    state = run(state, Play(0, 5, 2), Play(1, 0, 1), Play(2, 5, 2))
    if breaks:
        assert state.pile == (5, 5, 0, 5, 5) and state.burned == 0 and state.current_seat == 0
    else:
        assert state.pile == () and state.burned == 5 and state.current_seat == 2


@pytest.mark.parametrize(("burner_leads", "leader"), [(True, 1), (False, 2)])
def test_n7_5_a_nine_burns_the_pile_and_the_burner_leads(burner_leads: bool, leader: int) -> None:
    state = start(3, hands={0: [7, 2, 3], 1: [9, 3, 4]}, stock=[10, 10, 11, 11], options={"burner_leads": burner_leads})
    state = run(state, Play(0, 7, 1), Play(1, 9, 1))
    assert (state.pile, state.burned, state.current_seat) == ((), 2, leader)
    assert state.legal_actions(leader), "a new pile: any group"


def test_n7_5_a_nine_obeys_the_reference_like_any_card() -> None:
    state = start(3, hands={0: [10, 2, 3], 1: [9, 3, 4]}, stock=[10, 11, 11, 12])
    state = run(state, Play(0, 10, 1))
    refused(state, Play(1, 9, 1), "illegal_play")


@pytest.mark.parametrize(
    ("players", "count", "mode", "next_seat"),
    [
        (4, 1, "cap", 2),
        (4, 2, "cap", 3),
        (4, 3, "cap", 0),
        (3, 3, "cap", 0),
        (3, 3, "modulo", 1),
        (2, 1, "cap", 0),
        (2, 1, "modulo", 0),
        (2, 2, "cap", 0),
        (2, 2, "modulo", 1),
        (4, 3, "modulo", 0),
    ],
)
def test_n7_7_eights_skip_the_next_seats(players: int, count: int, mode: str, next_seat: int) -> None:
    state = start(players, hands={0: [8] * count + [2] * (3 - count)}, stock=[10, 11, 12], options={"skip_mode": mode})
    state = run(state, Play(0, 8, count))
    assert state.current_seat == next_seat


def test_n7_7_the_placer_plays_again_on_its_own_eights_and_may_pick_them_up() -> None:
    state = start(2, hands={0: [8, 2, 3], 1: [10, 11, 12]}, stock=[4, 5, 7])
    state = run(state, Play(0, 8, 1))
    assert state.current_seat == 0 and state.legal_actions(0) == [PickUp(0)]
    state = run(state, PickUp(0))
    assert state.current_seat == 0 and state.hands[0] == (2, 3, 4, 8), "the last layer (itself) leads"


@pytest.mark.parametrize("value", [1, 0, 7, 6])
def test_n7_7_ones_ninjas_and_plain_cards_pass_to_the_next_seat(value: int) -> None:
    state = start(3, hands={0: [value, 2, 3]}, stock=[10, 11, 12])
    assert run(state, Play(0, value, 1)).current_seat == 1


def test_n11_after_a_pick_up_the_last_layer_leads() -> None:
    state = start(3, hands={0: [4, 2, 3], 1: [12, 3, 4], 2: [2, 3, 5]}, stock=[10, 10, 11, 11])
    state = run(state, Play(0, 4, 1), Play(1, 12, 1), PickUp(2))
    assert state.hands[2] == (2, 3, 4, 5, 12) and state.current_seat == 1 and state.pile == ()
    assert state.last_layer is None


def test_n11_next_after_picker_leads_with_that_option() -> None:
    options = {"after_pickup_leader": "next_after_picker"}
    state = start(3, hands={0: [4, 2, 3], 1: [12, 3, 4], 2: [2, 3, 5]}, stock=[10, 10, 11, 11], options=options)
    state = run(state, Play(0, 4, 1), Play(1, 12, 1), PickUp(2))
    assert state.current_seat == 0


def test_a_hand_may_exceed_three_and_is_not_refilled_after_a_pick_up() -> None:
    state = start(3, hands={0: [4, 2, 3], 1: [12, 3, 4], 2: [2, 3, 5]}, stock=[10, 10, 11, 11])
    state = run(state, Play(0, 4, 1), Play(1, 12, 1), PickUp(2))
    assert len(state.hands[2]) == 5 and state.drawn == 27 + 2

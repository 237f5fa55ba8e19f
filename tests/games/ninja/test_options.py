"""The options not covered with the rule they change: NINJA's, the 1's, 13 on 6, 9 anywhere, the 6's,
and ``table_mode="play_from_table"`` (classic Palace: face-up, then face-down blind, from the table)."""

from __future__ import annotations

from thegame_core.games.ninja import Accept, Give, PickUp, Play, State

from .helpers import refused, run, start

STOCK = [10, 11, 12, 10, 11, 12]


def values(state: State, seat: int) -> set[int | None]:
    return {action.value for action in state.legal_actions(seat) if isinstance(action, Play)}


def test_ninja_mode_reset_lets_anything_follow_a_ninja() -> None:
    hands = {0: [10, 2, 2], 1: [0, 3, 3], 2: [2, 4, 4]}
    transparent = run(start(3, hands=hands, stock=STOCK), Play(0, 10, 1), Play(1, 0, 1))
    assert transparent.ref == 10 and values(transparent, 2) == set()
    reset = run(start(3, hands=hands, stock=STOCK, options={"ninja_mode": "reset"}), Play(0, 10, 1), Play(1, 0, 1))
    assert reset.ref is None and values(reset, 2) == {2, 4}
    assert reset.public_view()["ref"] is None


def test_ninja_out_of_turn_lets_any_seat_place_its_ninja_while_a_seat_is_to_play() -> None:
    hands = {0: [5, 2, 2], 1: [3, 3, 4], 2: [0, 4, 4]}
    state = run(start(3, hands=hands, stock=STOCK, options={"ninja_out_of_turn": True}), Play(0, 5, 1))
    assert state.current_seat == 1 and state.legal_actions(2) == [Play(2, 0, 1)]
    assert state.asking_order() == (2, 1)
    turns = state.turns
    state = run(state, Play(2, 0, 1))
    assert state.pile == (5, 0) and state.current_seat == 0 and state.turns == turns, "the seat after its player"
    refused(state, Play(2, 4, 1), "not_your_turn")


def test_without_ninja_out_of_turn_a_ninja_waits_for_its_turn() -> None:
    hands = {0: [5, 2, 2], 1: [3, 3, 4], 2: [0, 4, 4]}
    state = run(start(3, hands=hands, stock=STOCK), Play(0, 5, 1))
    assert state.legal_actions(2) == [] and state.asking_order() == (1,)
    refused(state, Play(2, 0, 1), "not_your_turn")


def test_ninja_out_of_turn_never_during_a_give() -> None:
    hands = {0: [13, 2, 2], 1: [3, 3, 4], 2: [0, 4, 4]}
    state = run(start(3, hands=hands, stock=STOCK, options={"ninja_out_of_turn": True}), Play(0, 13, 1))
    assert state.legal_actions(2) == []
    refused(state, Play(2, 0, 1), "not_your_turn")
    state = run(state, Give(0, 1))
    refused(state, Play(2, 0, 1), "not_your_turn")
    assert state.legal_actions(1) == [Accept(1)]


def test_strict_one_allows_a_one_only_on_an_empty_pile_or_a_thirteen() -> None:
    options = {"strict_one": True}
    hands = {0: [6, 1, 2], 1: [1, 5, 3], 2: [1, 1, 4]}
    state = run(start(3, hands=hands, stock=STOCK, options=options), Play(0, 6, 1))
    assert values(state, 1) == {5, 3}
    refused(state, Play(1, 1, 1), "illegal_play")
    default = run(start(3, hands=hands, stock=STOCK), Play(0, 6, 1))
    assert values(default, 1) == {1, 3, 5}
    led = start(3, hands=hands, stock=STOCK, options=options)
    assert 1 in values(led, 0), "on an empty pile"
    state = run(start(3, hands={0: [13, 2, 2], 1: [1, 3, 3]}, stock=STOCK, options=options), Play(0, 13, 1), Give(0, 1))
    assert Play(1, 1, 1) in state.legal_actions(1), "a counter-1 on a 13"
    state = run(start(3, hands={0: [1, 2, 2], 1: [1, 3, 3]}, stock=STOCK, options=options), Play(0, 1, 1))
    assert 1 not in values(state, 1), "not on a 1"


def test_thirteen_on_six() -> None:
    hands = {0: [6, 2, 2], 1: [13, 3, 7]}
    assert 13 not in values(run(start(3, hands=hands, stock=STOCK), Play(0, 6, 1)), 1)
    state = run(start(3, hands=hands, stock=STOCK, options={"thirteen_on_six": True}), Play(0, 6, 1))
    assert values(state, 1) == {3, 13}


def test_nine_anywhere() -> None:
    for lead in (10, 6):
        hands = {0: [lead, 2, 2], 1: [9, 3, 7]}
        assert 9 not in values(run(start(3, hands=hands, stock=STOCK), Play(0, lead, 1)), 1)
        state = run(start(3, hands=hands, stock=STOCK, options={"nine_anywhere": True}), Play(0, lead, 1))
        assert 9 in values(state, 1)
        assert run(state, Play(1, 9, 1)).burned == 2


def test_six_mode_may_le_lets_anything_follow_a_six() -> None:
    hands = {0: [6, 2, 2], 1: [13, 3, 7]}
    state = run(start(3, hands=hands, stock=STOCK, options={"six_mode": "may_le"}), Play(0, 6, 1))
    assert values(state, 1) == {3, 7, 13}


def palace() -> State:
    """Six seats (no stock), table cards played from the table. Seat 0 plays its hand, then its face-up
    cards; seat 1 can never beat seat 0 and picks up, so seat 0 leads each time."""
    state = start(
        6,
        hands={0: [5, 5, 5], 1: [2, 3, 4], 2: [3, 2, 2], 3: [4, 3, 3], 4: [5, 4, 4], 5: [12, 7, 7]},
        up={0: [7, 7, 10]},
        down={0: [6, 11, 12]},
        options={"table_mode": "play_from_table"},
    )
    state = run(state, Play(0, 5, 3))
    assert state.hands[0] == () and state.face_up[0] == (7, 7, 10), "the hand is not refilled from the table"
    state = run(state, PickUp(1))
    assert values(state, 0) == {7, 10} and PickUp(0) not in state.legal_actions(0)
    refused(state, Play(0, 2, 1), "card_not_in_hand")
    refused(state, Play(0, None, 1), "not_blind")
    state = run(state, Play(0, 7, 2), PickUp(1), Play(0, 10, 1), PickUp(1))
    assert state.hands[0] == () and state.face_up[0] == () and state.current_seat == 0
    return state


def test_play_from_table_plays_face_up_cards_then_face_down_blind() -> None:
    state = palace()
    assert state.legal_actions(0) == [Play(0, None, 1)]
    assert state.view(0)["legal_actions"] == [{"type": "play", "value": None, "count": 1}]
    refused(state, PickUp(0), "must_play")
    refused(state, Play(0, 6, 1), "card_not_in_hand")
    state = run(state, Play(0, None, 1))
    assert state.pile == (6,) and state.face_down[0] == (11, 12) and state.last_layer == 0
    assert state.public_log()[-1] == {"type": "play", "seat": 0, "value": None, "count": 1}


def test_a_blind_card_that_cannot_be_played_goes_with_the_pile_into_the_hand() -> None:
    state = run(palace(), Play(0, None, 1), Play(1, 2, 1), Play(2, 3, 1), Play(3, 4, 1), Play(4, 5, 1), Play(5, 12, 1))
    assert state.current_seat == 0 and state.ref == 12
    turns = state.turns
    state = run(state, Play(0, None, 1))
    assert state.hands[0] == (2, 3, 4, 5, 6, 11, 12) and state.pile == () and state.face_down[0] == (12,)
    assert state.current_seat == 5, "the last layer leads, as after a pick-up"
    assert state.turns == turns + 1


def test_classic_palace_preset_gives_the_lead_to_the_seat_after_the_picker() -> None:
    state = start(6, hands={0: [5, 5, 5], 1: [2, 3, 4]}, up={0: [7, 7, 10]}, options={"preset": "classic_palace"})
    state = run(state, Play(0, 5, 3), PickUp(1))
    assert state.hands[0] == () and state.current_seat == 2


def test_the_blind_play_is_for_play_from_table_only() -> None:
    state = start(3, hands={0: [5, 2, 2]}, stock=STOCK)
    refused(state, Play(0, None, 1), "not_blind")

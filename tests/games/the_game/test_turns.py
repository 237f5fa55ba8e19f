"""Spec "A turn": who plays, the required minimum, ending the turn, drawing, passing, skipping empty hands."""

from __future__ import annotations

import itertools

import pytest

import thegame_core as tg

from .helpers import (
    A1,
    A2,
    CARDS,
    D1,
    D2,
    ascending_turns,
    deck_for,
    new,
    play_turns,
    raises_code,
    scripted_start,
    turn_actions,
)

EIGHT = [30, 40, 50, 60, 70, 80, 90, 20]


@pytest.mark.parametrize(("preset", "required"), [("standard", 2), ("expert", 3), ("expert_small_hand", 3)])
def test_minimum_is_min_per_turn_while_the_draw_pile_has_cards(preset: str, required: int) -> None:
    """Spec: "The required minimum req is fixed at the start of the turn: min_per_turn while the draw pile has
    cards" (2, expert 3)."""
    options = {"preset": preset}
    turns = ascending_turns(3, new(3, seed=0, options=options).options.hand_size, [required] * 6)
    state = scripted_start(3, turns, options=options)
    for turn in turns:
        assert state.draw_pile > 0
        assert state.required_this_turn == required
        state = play_turns(state, [turn])


def test_minimum_is_fixed_at_the_start_of_the_turn() -> None:
    """Spec: "req is fixed at the start of the turn": placing cards counts up placed_this_turn, req stays."""
    state = new(1, deck=deck_for([EIGHT]))
    assert (state.required_this_turn, state.placed_this_turn) == (2, 0)
    for placed, (card, pile) in enumerate([(30, A1), (40, A1), (50, A1), (90, D1)], start=1):
        state = state.apply(tg.Play(0, card, pile))
        assert (state.required_this_turn, state.placed_this_turn) == (2, placed)


@pytest.mark.parametrize(
    ("options", "per_turn", "after_empty"),
    [
        # 1 player, 8 cards, 90 to draw: with 2 (or 3) placed per turn the draw pile empties after 45 (or 30) turns.
        ({}, 2, 1),
        ({"preset": "expert"}, 3, 1),  # "min_after_empty ... 1 (also in expert mode)"
        ({"min_after_empty": 2}, 2, 2),
    ],
)
def test_minimum_once_the_draw_pile_is_empty(options: dict[str, object], per_turn: int, after_empty: int) -> None:
    """Spec: "min_per_turn while the draw pile has cards, else min_after_empty" (1 by default, also in expert)."""
    turns = ascending_turns(1, 8, itertools.repeat(per_turn))
    state = scripted_start(1, turns, options=options)
    before_last = play_turns(state, turns[: 90 // per_turn - 1])
    assert before_last.draw_pile == per_turn
    assert before_last.required_this_turn == per_turn
    emptied = play_turns(before_last, turns[90 // per_turn - 1 : 90 // per_turn])
    assert emptied.draw_pile == 0
    assert emptied.required_this_turn == after_empty
    assert emptied.status == "playing"


def test_minimum_never_more_than_the_cards_in_hand() -> None:
    """Spec: req is "never more than the cards in hand". One player, hand 8, minimum 8 (also after the draw pile
    is empty): 11 turns of 8 draw 88 of the 90; the 12th draws the last 2, so the 13th starts with 2 cards."""
    options = {"hand_size": 8, "min_per_turn": 8, "min_after_empty": 8}
    turns = ascending_turns(1, 8, itertools.repeat(8))
    state = play_turns(scripted_start(1, turns, options=options), turns[:12])
    assert state.draw_pile == 0
    assert len(state.hands[0]) == 2
    assert state.required_this_turn == 2
    assert state.status == "playing"
    with raises_code("minimum_not_reached"):
        state.apply_all([tg.Play(0, state.hands[0][0], A1), tg.EndTurn(0)])
    state = play_turns(state, turns[12:])
    assert state.status == "won"


def test_place_as_many_as_they_like_possibly_the_whole_hand() -> None:
    """Spec: "The player places cards one at a time, on any piles, as many as they like (possibly the whole
    hand)." """
    state = new(1, deck=deck_for([EIGHT], then=[2, 3, 4, 5, 6, 7, 8, 9]))
    plays = [(30, A1), (40, A1), (50, A2), (60, A2), (70, A2), (90, D1), (80, D1), (20, D2)]
    state = state.apply_all([tg.Play(0, card, pile) for card, pile in plays])
    assert state.hands[0] == ()
    assert state.placed_this_turn == 8
    assert state.tops == (40, 70, 80, 20)
    state = state.apply(tg.EndTurn(0))
    assert sorted(state.hands[0]) == [2, 3, 4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("placed", [0, 1])
def test_ending_the_turn_before_the_minimum_is_refused(placed: int) -> None:
    """Spec: "Ending the turn is legal once req cards have been placed this turn" -> minimum_not_reached before."""
    state = new(1, deck=deck_for([EIGHT])).apply_all([tg.Play(0, 30, A1)][:placed])
    assert tg.EndTurn(0) not in turn_actions(state)
    before = tg.dumps(state)
    with raises_code("minimum_not_reached"):
        state.apply(tg.EndTurn(0))
    assert tg.dumps(state) == before


def test_ending_the_turn_before_the_expert_minimum_is_refused() -> None:
    """Spec: expert "min_per_turn 3": two cards are not enough to end the turn."""
    state = new(1, deck=deck_for([EIGHT]), options={"preset": "expert"})
    state = state.apply_all([tg.Play(0, 30, A1), tg.Play(0, 40, A1)])
    with raises_code("minimum_not_reached"):
        state.apply(tg.EndTurn(0))
    assert tg.EndTurn(0) in turn_actions(state.apply(tg.Play(0, 50, A1)))


def test_end_turn_is_legal_once_the_minimum_is_placed() -> None:
    """Spec: "Ending the turn is legal once req cards have been placed this turn"."""
    state = new(1, deck=deck_for([EIGHT])).apply_all([tg.Play(0, 30, A1), tg.Play(0, 40, A1)])
    assert tg.EndTurn(0) in turn_actions(state)
    assert state.apply(tg.EndTurn(0)).placed_this_turn == 0


@pytest.mark.parametrize("count", [2, 3, 5])
def test_draw_as_many_cards_as_placed(count: int) -> None:
    """Spec: "The player then draws as many cards as they placed", from the front of the draw pile."""
    state = new(
        2, deck=deck_for([[10, 11, 12, 13, 14, 15, 16], [20, 21, 22, 23, 24, 25, 26]], then=[99, 98, 97, 96, 95, 94])
    )
    plays = [tg.Play(0, card, A1) for card in [10, 11, 12, 13, 14][:count]]
    state = state.apply_all([*plays, tg.EndTurn(0)])
    assert len(state.hands[0]) == 7
    assert state.draw_pile == CARDS - 14 - count
    drawn = [99, 98, 97, 96, 95, 94]
    assert set(drawn[:count]) <= set(state.hands[0])
    assert drawn[count] not in state.hands[0]


def test_draw_only_while_the_draw_pile_lasts() -> None:
    """Spec: draws "as many cards as they placed, while the draw pile lasts". One player placing 3 then 2 per turn
    leaves 90 - 3 - 43 x 2 = 1 card to draw: placing 2 more draws only that one."""
    turns = ascending_turns(1, 8, itertools.chain([3], itertools.repeat(2)))
    state = play_turns(scripted_start(1, turns), turns[:44])
    assert state.draw_pile == 1
    state = play_turns(state, turns[44:45])
    assert state.draw_pile == 0
    assert len(state.hands[0]) == 7


@pytest.mark.parametrize(("players", "first_seat"), [(2, 0), (3, 0), (3, 2), (4, 1), (5, 3)])
def test_turn_passes_clockwise(players: int, first_seat: int) -> None:
    """Spec: "the turn passes clockwise (seat + 1, modulo players)"."""
    hand_size = {2: 7}.get(players, 6)
    turns = ascending_turns(players, hand_size, [2] * (2 * players + 1), first_seat=first_seat)
    state = scripted_start(players, turns, first_seat=first_seat)
    for number, turn in enumerate(turns):
        assert state.current_seat == (first_seat + number) % players
        state = play_turns(state, [turn])


def test_a_player_with_an_empty_hand_is_skipped_and_never_ends_the_game() -> None:
    """Spec: "Only players holding cards take turns; a player whose hand is empty is skipped and never ends the
    game", and the turn passes "to the next player holding cards".

    Three players, 6 cards each, 80 to draw: 40 turns of 2 empty the draw pile; turn 41 is seat 1's (40 mod 3),
    which places its whole hand. Then seats 2 and 0 alternate, seat 1 being skipped."""
    turns = ascending_turns(3, 6, itertools.chain([2] * 40, [6], itertools.repeat(1)))
    state = play_turns(scripted_start(3, turns), turns[:40])
    assert (state.draw_pile, state.current_seat) == (0, 1)
    state = play_turns(state, turns[40:41])
    assert state.hands[1] == ()
    assert state.status == "playing"
    seats = []
    for turn in turns[41:-1]:
        seats.append(state.current_seat)
        state = play_turns(state, [turn])
        assert state.status == "playing"
    assert seats[:6] == [2, 0, 2, 0, 2, 0]
    assert 1 not in seats
    state = play_turns(state, turns[-1:])
    assert state.status == "won"


def test_end_turn_is_explicit_after_emptying_the_hand() -> None:
    """Spec: "Ending the turn is always an explicit action, also after a player has emptied their hand (unless
    that play won the game)." Same three-player script: seat 1 places its whole hand after the draw pile emptied."""
    turns = ascending_turns(3, 6, itertools.chain([2] * 40, [6], itertools.repeat(1)))
    state = play_turns(scripted_start(3, turns), turns[:41], end_last=False)
    assert state.hands[1] == ()
    assert state.current_seat == 1
    assert turn_actions(state) == [tg.EndTurn(1)]
    with raises_code("not_your_turn"):
        state.apply(tg.Play(2, state.hands[2][0], A2))
    assert state.apply(tg.EndTurn(1)).current_seat == 2


def test_plays_on_every_pile_in_one_turn_then_pass() -> None:
    """Spec: "places cards one at a time, on any piles"; then the turn passes to seat + 1."""
    state = new(2, deck=deck_for([[10, 11, 88, 89, 12, 13, 14], [20, 21, 22, 23, 24, 25, 26]]))
    state = state.apply_all([tg.Play(0, 10, A1), tg.Play(0, 11, A2), tg.Play(0, 89, D1), tg.Play(0, 88, D2)])
    assert state.tops == (10, 11, 89, 88)
    state = state.apply(tg.EndTurn(0))
    assert state.current_seat == 1
    assert state.required_this_turn == 2


def test_the_last_holder_of_cards_plays_turn_after_turn() -> None:
    """Spec: the turn passes "to the next player holding cards" - when nobody else holds any, that is the same
    player again. Two players, 7 cards each, 84 to draw: 42 turns of 2 empty the draw pile; turn 43 is seat 0's
    (42 mod 2), which places its whole hand; seat 1 then plays every remaining turn, ending each explicitly."""
    turns = ascending_turns(2, 7, itertools.chain([2] * 42, [7], itertools.repeat(1)))
    state = play_turns(scripted_start(2, turns), turns[:43])
    assert state.hands[0] == () and len(state.hands[1]) == 7
    for turn in turns[43:-1]:
        assert state.current_seat == 1
        assert state.required_this_turn == 1
        state = play_turns(state, [turn])
    assert state.current_seat == 1 and state.hands[1]
    state = play_turns(state, turns[-1:])
    assert state.status == "won"

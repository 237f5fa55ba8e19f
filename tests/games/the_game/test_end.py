"""Spec "End of the game": won, lost (strict and "try"), score."""

from __future__ import annotations

import itertools

import pytest

import thegame_core as tg

from .helpers import (
    A1,
    A2,
    D1,
    D2,
    after_two_turns,
    ascending_turns,
    deck_for,
    new,
    play_turns,
    raises_code,
    scripted_game,
    turn_actions,
)

# One player, two cards, minimum two: see helpers.after_two_turns.
TWO = {"hand_size": 2, "min_per_turn": 2}
TWO_TRY = {**TWO, "stuck_policy": "try"}


def test_won_when_all_98_cards_are_placed() -> None:
    """Spec: "Won: all 98 cards placed (draw pile and every hand empty)"; the winning play needs no EndTurn
    ("unless that play won the game"), which is refused with game_over; "0 = the game is beaten"."""
    turns = ascending_turns(1, 8, itertools.repeat(8))  # 2..99 on asc1, eight cards a turn
    state = play_turns(new(1, deck=list(range(2, 100))), turns[:-1])
    last = turns[-1]
    state = state.apply_all([tg.Play(0, card, pile) for card, pile in last[:-1]])
    assert (state.status, state.score, state.draw_pile, state.hands) == ("playing", 1, 0, ((99,),))
    state = state.apply(tg.Play(0, *last[-1]))
    assert state.status == "won"
    assert state.outcome is not None
    assert (state.outcome.status, state.outcome.reason) == ("won", "all_cards_placed")
    assert (state.score, state.draw_pile, state.hands) == (0, 0, ((),))
    assert turn_actions(state) == []
    with raises_code("game_over"):
        state.apply(tg.EndTurn(0))


def test_won_with_several_players_when_every_hand_is_empty() -> None:
    """Spec: "Won: all 98 cards placed (draw pile and every hand empty)" - not when one hand empties."""
    turns = ascending_turns(3, 6, itertools.chain([2] * 40, itertools.repeat(6)))
    state = scripted_game(3, turns[:-1])
    assert state.status == "playing"
    assert sum(map(len, state.hands)) == len(turns[-1])
    assert sum(not hand for hand in state.hands) == 2  # two hands already empty: still playing
    state = play_turns(state, turns[-1:])
    assert state.status == "won"
    assert state.score == 0


def test_lost_at_turn_start_when_no_legal_play() -> None:
    """Spec: "Lost: as soon as the player whose turn it is holds cards and can no longer reach the minimum ...
    checked at the start of each turn"; "cards already placed stay placed"."""
    state = after_two_turns([50, 51], TWO)
    assert state.status == "lost"
    assert state.outcome == tg.Outcome("lost", "minimum_unreachable", 0)
    assert state.tops == (90, 91, 20, 11)
    assert state.score == 98 - 4  # four cards placed
    assert turn_actions(state) == []


def test_lost_at_turn_start_when_only_part_of_the_minimum_is_reachable() -> None:
    """Spec: lost when "there is no sequence of req - placed_this_turn legal plays": 95 can be placed, then
    nothing (50 fits nowhere), so two plays are out of reach at the start of the turn."""
    state = after_two_turns([50, 95], TWO)
    assert state.status == "lost"
    assert state.outcome is not None and state.outcome.seat == 0
    assert state.placed_this_turn == 0


def test_lost_after_a_play_that_blocks_the_minimum() -> None:
    """Spec: the loss "is checked ... after each play; cards already placed stay placed". With desc1 at 60,
    55 then 50 both fit; 50 first leaves 55 nowhere to go."""
    state = after_two_turns([50, 55], TWO, desc1=60)
    assert state.status == "playing"
    assert state.apply_all([tg.Play(0, 55, D1), tg.Play(0, 50, D1)]).status == "playing"
    lost = state.apply(tg.Play(0, 50, D1))
    assert lost.status == "lost"
    assert lost.outcome == tg.Outcome("lost", "minimum_unreachable", 0)
    assert lost.tops == (90, 91, 50, 11)
    assert lost.hands == ((55,),)
    assert lost.score == 98 - 5
    with raises_code("game_over"):
        lost.apply(tg.Play(0, 55, D1))


def test_self_enabled_play_89_then_79_is_not_a_loss() -> None:
    """Spec: "no sequence of req - placed_this_turn legal plays from their hand": 79 does not fit asc1 at 85,
    but after 89 it is exactly 10 below, so the two plays exist and the game goes on."""
    state = new(1, deck=deck_for([[85, 95]], then=[10, 11, 79, 89]), options=TWO)
    state = play_turns(state, [[(85, A1), (95, A2)], [(10, D1), (11, D2)]])
    assert sorted(state.hands[0]) == [79, 89]
    assert state.status == "playing"
    assert turn_actions(state) == [tg.Play(0, 89, A1)]
    state = state.apply(tg.Play(0, 89, A1))
    assert state.status == "playing"
    assert turn_actions(state) == [tg.Play(0, 79, A1)]
    assert state.apply_all([tg.Play(0, 79, A1), tg.EndTurn(0)]).status == "playing"


def three_chain(hand: list[int], policy: str) -> tg.State:
    """Hand of 3 and minimum 3; piles asc1 93, asc2 98, desc1 10, desc2 12 when ``hand`` is drawn."""
    options = {"hand_size": 3, "min_per_turn": 3, "stuck_policy": policy}
    state = new(1, deck=deck_for([[93, 98, 10]], then=[20, 15, 12, *hand]), options=options)
    return play_turns(state, [[(93, A1), (98, A2), (10, D1)], [(20, D2), (15, D2), (12, D2)]])


def test_self_enabled_chain_of_three_is_not_a_loss() -> None:
    """Spec: the check looks for a "sequence" of plays: only 99 fits now, then 89 and 79 each 10 below."""
    state = three_chain([79, 89, 99], "strict")
    assert state.status == "playing"
    assert {action.card for action in turn_actions(state) if isinstance(action, tg.Play)} == {99}
    assert tg.EndTurn(0) not in turn_actions(state)
    state = state.apply_all([tg.Play(0, 99, A1), tg.Play(0, 89, A1), tg.Play(0, 79, A1)])
    assert state.status == "playing"
    assert tg.EndTurn(0) in turn_actions(state)


def test_broken_chain_is_lost_at_turn_start() -> None:
    """Spec: strict loss when no sequence of req plays exists: 99 then 89 fit, 78 never (needs 79 or 88)."""
    state = three_chain([78, 89, 99], "strict")
    assert state.status == "lost"
    assert state.outcome == tg.Outcome("lost", "minimum_unreachable", 0)


def test_try_policy_plays_on_until_no_legal_play_is_left() -> None:
    """Spec: "Variant stuck_policy = "try": the game only ends when the player has no legal play at all while
    still below the minimum." Same hand as the strict loss above: the player may still place 99 and 89."""
    state = three_chain([78, 89, 99], "try")
    assert state.status == "playing"
    state = state.apply(tg.Play(0, 99, A1))
    assert state.status == "playing"
    with raises_code("minimum_not_reached"):
        state.apply(tg.EndTurn(0))
    state = state.apply(tg.Play(0, 89, A1))
    assert state.status == "lost"
    assert state.outcome == tg.Outcome("lost", "no_legal_play", 0)
    assert state.hands == ((78,),)


def test_try_policy_lost_at_turn_start_without_any_legal_play() -> None:
    """Spec "try": the game ends when the player "has no legal play at all while still below the minimum",
    including at the start of a turn."""
    state = after_two_turns([50, 51], TWO_TRY)
    assert state.status == "lost"
    assert state.outcome == tg.Outcome("lost", "no_legal_play", 0)


def test_try_policy_after_a_blocking_play() -> None:
    """Spec "try": 50 on desc1 at 60 leaves 55 without a legal play while below the minimum: lost."""
    state = after_two_turns([50, 55], TWO_TRY, desc1=60)
    assert state.status == "playing"
    assert state.apply(tg.Play(0, 50, D1)).outcome == tg.Outcome("lost", "no_legal_play", 0)


def test_try_policy_partial_minimum() -> None:
    """Spec "try" vs "strict": with 95 placeable and 50 not, strict loses at once; "try" lets 95 be placed."""
    assert after_two_turns([50, 95], TWO).status == "lost"
    state = after_two_turns([50, 95], TWO_TRY)
    assert state.status == "playing"
    state = state.apply(tg.Play(0, 95, A1))
    assert state.outcome == tg.Outcome("lost", "no_legal_play", 0)
    assert state.tops[0] == 95


def test_empty_hand_never_ends_the_game() -> None:
    """Spec: "a player whose hand is empty is skipped and never ends the game"; the loss is for "the player whose
    turn it is [and who] holds cards". Covered with the three-player script: after seat 1 emptied its hand the
    game only ends when all cards are placed."""
    turns = ascending_turns(3, 6, itertools.chain([2] * 40, [6], itertools.repeat(1)))
    states = [scripted_game(3, turns[:count]) for count in range(41, len(turns))]
    assert all(state.status == "playing" and not state.hands[1] for state in states)


def test_worked_example_score_25() -> None:
    """Spec worked example: "Three players, 6 cards in each hand and 7 in the draw pile at the end: score 25";
    "It is a count of cards, not a sum of values".

    Script: 73 cards are placed (65..81 up asc2, 82..99 up asc1, 39..21 down desc2, 20..2 down desc1), three in
    the first turn and two in each of the 35 others; every hand and the draw pile end with the 25 cards 40..64,
    which fit nowhere (asc 99 / 81, desc 2 / 21), so seat 0 (turn 37 = seat 36 mod 3) is lost at the start of
    its turn with 3 x 6 + 7 = 25 cards left."""
    plays = (
        [(card, A2) for card in range(65, 82)]
        + [(card, A1) for card in range(82, 100)]
        + [(card, D2) for card in range(39, 20, -1)]
        + [(card, D1) for card in range(20, 1, -1)]
    )
    assert len(plays) == 73
    turns = [plays[:3]] + [plays[index : index + 2] for index in range(3, 73, 2)]
    state = scripted_game(3, turns, fillers=list(range(40, 65)))
    assert state.status == "lost"
    assert state.outcome == tg.Outcome("lost", "minimum_unreachable", 0)
    assert [len(hand) for hand in state.hands] == [6, 6, 6]
    assert state.draw_pile == 7
    assert state.score == 25
    assert state.public_view()["score"] == 25
    assert sum(card for hand in state.hands for card in hand) > 25


@pytest.mark.parametrize("seed", range(5))
def test_score_counts_cards_in_hands_and_draw_pile(seed: int) -> None:
    """Spec: "Score: the number of cards not placed = cards in all hands + cards in the draw pile"."""
    state = new(4, seed=seed)
    assert state.score == 98
    plays = [action for action in turn_actions(state) if isinstance(action, tg.Play)]
    state = state.apply(plays[0])
    assert state.score == 97 == sum(map(len, state.hands)) + state.draw_pile

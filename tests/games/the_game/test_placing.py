"""Spec "Placing a card (a play)" and the worked examples about piles."""

from __future__ import annotations

import pytest

import thegame_core as tg

from .helpers import A1, A2, D1, D2, deck_for, new, raises_code, turn_actions


def pile_at(pile: str, top: int, *hand: int) -> tg.State:
    """One player whose ``pile`` shows ``top`` (placed in a first turn) and who now holds ``hand``."""
    size = len(hand)
    options = {"hand_size": size + 1, "min_per_turn": 1}
    state = new(1, deck=deck_for([[top, *hand]]), options=options)
    state = state.apply(tg.Play(0, top, pile))
    assert state.tops[tg.PILES.index(pile)] == top
    assert sorted(state.hands[0]) == sorted(hand)
    return state


def check_play(state: tg.State, card: int, pile: str, legal: bool) -> None:
    """``card`` on ``pile`` is listed and applies when ``legal``; else it is refused with ``illegal_play``."""
    play = tg.Play(0, card, pile)
    assert (play in turn_actions(state)) == legal
    if legal:
        after = state.apply(play)
        assert after.tops[tg.PILES.index(pile)] == card
        assert card not in after.hands[0]
    else:
        with raises_code("illegal_play"):
            state.apply(play)


# Ascending pile at 47 (the sheets' example): higher cards, or exactly 10 lower.
ASCENDING_AT_47 = [(48, True), (57, True), (99, True), (37, True), (46, False), (38, False), (36, False)]
ASCENDING_AT_47 += [(27, False), (17, False), (7, False), (2, False)]  # 20, 30, 40 lower: "no multiples"
# Descending pile at 65: lower cards, or exactly 10 higher.
DESCENDING_AT_65 = [(64, True), (55, True), (2, True), (75, True), (66, False), (74, False), (76, False)]
DESCENDING_AT_65 += [(85, False), (95, False), (99, False)]


@pytest.mark.parametrize("pile", [A1, A2])
@pytest.mark.parametrize(("card", "legal"), ASCENDING_AT_47)
def test_ascending_pile_legal_iff_higher_or_exactly_10_lower(pile: str, card: int, legal: bool) -> None:
    """Spec: "ascending pile: legal iff c > t or c == t - 10 (the backwards move)"; "Exactly 10 only; no
    multiples." """
    check_play(pile_at(pile, 47, card), card, pile, legal)


@pytest.mark.parametrize("pile", [D1, D2])
@pytest.mark.parametrize(("card", "legal"), DESCENDING_AT_65)
def test_descending_pile_legal_iff_lower_or_exactly_10_higher(pile: str, card: int, legal: bool) -> None:
    """Spec: "descending pile: legal iff c < t or c == t + 10"; "Exactly 10 only; no multiples." """
    check_play(pile_at(pile, 65, card), card, pile, legal)


def test_bases_accept_every_card() -> None:
    """Spec: piles "start at 1" (every card is above) and "at 100" (every card is below)."""
    state = new(5, seed=8)
    hand = state.hands[0]
    plays = {(action.card, action.pile) for action in turn_actions(state) if isinstance(action, tg.Play)}
    assert plays == {(card, pile) for card in hand for pile in tg.PILES}


def test_a_play_only_changes_its_own_pile() -> None:
    """Spec: "Card c on a pile whose top is t": the play moves that pile's top to c, nothing else."""
    state = new(1, deck=deck_for([[30, 40, 50, 60, 70, 80, 90, 20]]))
    after = state.apply(tg.Play(0, 50, D2))
    assert after.tops == (1, 1, 100, 50)
    assert sorted(after.hands[0]) == [20, 30, 40, 60, 70, 80, 90]
    assert after.placed_this_turn == 1


def test_worked_example_ascending_at_4_then_8_then_13() -> None:
    """Spec worked example: "Ascending pile at 4: 8 then 13 may follow." """
    state = pile_at(A1, 4, 8, 13)
    state = state.apply_all([tg.Play(0, 8, A1), tg.Play(0, 13, A1)])
    assert state.tops[0] == 13


def test_worked_example_ascending_at_47_takes_37() -> None:
    """Spec worked example: "Ascending pile at 47: 37 may be placed (backwards)." """
    state = pile_at(A1, 47, 37).apply(tg.Play(0, 37, A1))
    assert state.tops[0] == 37


def test_worked_example_descending_at_65_takes_75() -> None:
    """Spec worked example: "Descending pile at 65: 75 may be placed." """
    state = pile_at(D1, 65, 75).apply(tg.Play(0, 75, D1))
    assert state.tops[2] == 75


def test_backwards_move_any_number_of_times_in_a_turn_on_any_piles() -> None:
    """Spec: "The backwards move may be used any number of times in a turn, on any piles." Four backwards moves on
    three piles in one turn, two of them in a row on the same pile."""
    state = new(1, deck=deck_for([[50, 40, 30, 75, 65, 25, 35, 85]]))
    plays = [(50, A1), (40, A1), (30, A1), (75, A2), (65, A2), (25, D1), (35, D1), (85, D2)]
    state = state.apply_all([tg.Play(0, card, pile) for card, pile in plays])
    assert state.tops == (30, 65, 35, 85)
    assert state.placed_this_turn == 8
    assert state.status == "playing"


def test_backwards_twice_in_a_row_is_two_moves_of_ten_not_one_of_twenty() -> None:
    """Spec: "Exactly 10 only; no multiples": 47 -> 27 is refused, while 47 -> 37 -> 27 is two legal moves."""
    state = pile_at(A1, 47, 37, 27)
    with raises_code("illegal_play"):
        state.apply(tg.Play(0, 27, A1))
    assert state.apply_all([tg.Play(0, 37, A1), tg.Play(0, 27, A1)]).tops[0] == 27

"""Spec "Information and talk": what each seat sees, the public log, and signals."""

from __future__ import annotations

import json

import pytest

import thegame_core as tg

from .helpers import (
    A1,
    A2,
    D1,
    D2,
    after_two_turns,
    check_views,
    deck_for,
    new,
    placed_cards,
    raises_code,
    turn_actions,
)

HANDS = [[10, 11, 12, 13, 14, 15], [20, 21, 22, 23, 24, 25], [30, 31, 32, 33, 34, 35]]


@pytest.fixture
def state() -> tg.State:
    """Three players; seat 0 has placed 12 on asc1 and 90 then 80 on desc1."""
    start = new(3, deck=deck_for(HANDS, then=[90, 80, 70]))
    return start.apply_all([tg.Play(0, 12, A1), tg.Play(0, 13, A1), tg.EndTurn(0), tg.Play(1, 20, D1)])


def test_a_player_sees_own_hand_tops_draw_pile_hand_sizes_turn_and_placed(state: tg.State) -> None:
    """Spec: "A player sees: their own hand, the four pile tops, the draw pile's size, every player's hand size,
    whose turn it is and how many cards were placed this turn." """
    view = state.view(2)
    assert sorted(view["hand"]) == [30, 31, 32, 33, 34, 35]
    assert [pile["top"] for pile in view["piles"]] == [13, 1, 20, 100]
    assert view["draw_pile"] == 98 - 18 - 2
    assert [seat["hand_size"] for seat in view["seats"]] == [6, 5, 6]
    assert view["current_seat"] == 1
    assert view["placed_this_turn"] == 1
    assert view["seat"] == 2
    check_views(state)


def test_a_player_never_sees_another_hand_or_the_draw_order(state: tg.State) -> None:
    """Spec: "A hand is seen by its owner only"; the draw pile is "face-down" (only its size is seen)."""
    check_views(state)
    assert sorted(state.view(0)["hand"]) == [10, 11, 14, 15, 80, 90]  # drew 90 and 80 after placing two
    for seat in (1, 2):
        assert not {80, 90} & set(state.view(seat)["hand"])
    public = state.public_view()
    assert "hand" not in public
    assert isinstance(public["draw_pile"], int)


def test_only_the_current_seat_gets_legal_plays(state: tg.State) -> None:
    """A seat's view lists legal plays only on its turn (and only from its own hand)."""
    assert state.view(0)["legal_plays"] == []
    assert state.view(2)["legal_plays"] == []
    plays = state.view(1)["legal_plays"]
    assert plays and {play["card"] for play in plays} <= set(state.hands[1])
    assert state.view(1)["can_end_turn"] is False


def test_observation_of_a_seat_and_of_a_spectator(state: tg.State) -> None:
    """observe(seat) is what that seat may see; observe(None) a spectator, who holds no hand."""
    mine = state.observe(1)
    assert (mine.seat, mine.hand, mine.tops, mine.draw_pile) == (1, state.hands[1], state.tops, state.draw_pile)
    assert mine.hand_sizes == (6, 5, 6)
    spectator = state.observe(None)
    assert spectator.hand == ()
    assert spectator.legal_plays() == []


def test_observation_turns_a_plan_into_this_seats_actions(state: tg.State) -> None:
    """Bots turn (card, pile index) plans into actions through their observation: the seat's own plays, in order,
    the same value (and object) every time, and they apply."""
    mine = state.observe(1)
    card = state.hands[1][0]
    plays = mine.plays([(card, 2), (card, 3)])
    assert plays == [tg.Play(1, card, "desc1"), tg.Play(1, card, "desc2")]
    assert all(type(play) is tg.Play for play in plays)
    assert mine.plays([(card, 2)])[0] is plays[0]
    assert mine.end_turn() == tg.EndTurn(1) and type(mine.end_turn()) is tg.EndTurn
    assert state.observe(0).plays([(card, 0)]) == [tg.Play(0, card, "asc1")]
    legal = mine.legal_plays()[0]
    assert mine.plays([(legal.card, tg.PILES.index(legal.pile))]) == [legal]
    assert state.apply(legal).version == state.version + 1


def test_plays_are_public_as_they_happen(state: tg.State) -> None:
    """Spec: "Plays are public as they happen": the public log lists each play (seat, card, pile) and each end of
    turn, and shows no drawn card."""
    log = state.public_log()
    assert log == [
        {"type": "play", "seat": 0, "card": 12, "pile": A1},
        {"type": "play", "seat": 0, "card": 13, "pile": A1},
        {"type": "end_turn", "seat": 0},
        {"type": "play", "seat": 1, "card": 20, "pile": D1},
    ]
    assert placed_cards(state) == [12, 13, 20]
    assert "90" not in json.dumps(log) and "80" not in json.dumps(log)  # drawn by seat 0, never shown


def test_signal_kinds_carry_no_numbers() -> None:
    """Spec: "Allowed: asking others not to play on a pile, or not to make a big jump on a pile ... structured
    signals about a pile, never as free text that could carry numbers." """
    assert tuple(tg.SIGNAL_KINDS) == ("dont_play", "no_big_jump")


@pytest.mark.parametrize("kind", ["dont_play", "no_big_jump"])
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_signals_from_any_seat_at_any_time(state: tg.State, seat: int, kind: str) -> None:
    """Signals: "any seat, any time while playing" - here mid-turn of seat 1; shown in every view, public, and
    changing nothing else."""
    after = state.apply(tg.Signal(seat, D2, kind))
    expected = [{"seat": seat, "pile": D2, "kind": kind}]
    assert after.public_view()["signals"] == expected
    assert all(after.view(viewer)["signals"] == expected for viewer in range(3))
    assert after.version == state.version + 1
    assert (after.hands, after.tops, after.current_seat) == (state.hands, state.tops, state.current_seat)
    assert (after.placed_this_turn, after.required_this_turn) == (state.placed_this_turn, state.required_this_turn)
    assert turn_actions(after) == turn_actions(state)
    assert after.public_log()[-1] == {"type": "signal", "seat": seat, "pile": D2, "kind": kind, "clear": False}


def test_legal_actions_list_every_signal_that_changes_the_table(state: tg.State) -> None:
    """Every seat, on its turn or not, may send each signal it has not shown, and clear each it has shown; a
    signal that would change nothing is refused (signal_unchanged), so it is not listed."""
    state = state.apply(tg.Signal(2, D2, "dont_play"))
    signals = [action for action in state.legal_actions(2) if isinstance(action, tg.Signal)]
    assert len(signals) == len(tg.PILES) * len(tg.SIGNAL_KINDS)
    assert tg.Signal(2, D2, "dont_play", clear=True) in signals and tg.Signal(2, D2, "dont_play") not in signals
    assert all(isinstance(action, tg.Signal) for action in state.legal_actions(0))  # seat 1 is on turn
    for repeat in (tg.Signal(2, D2, "dont_play"), tg.Signal(2, A1, "dont_play", clear=True)):
        with raises_code("signal_unchanged"):
            state.apply(repeat)


def test_signal_at_turn_start_and_on_every_pile() -> None:
    """Signals before any play, from a seat not on turn, on each of the four piles."""
    state = new(2, seed=3)
    for pile in (A1, A2, D1, D2):
        state = state.apply(tg.Signal(1, pile, "no_big_jump"))
    assert len(state.public_view()["signals"]) == 4
    assert state.version == 4
    assert state.placed_this_turn == 0 and state.current_seat == 0


def test_signal_cleared_with_clear_true(state: tg.State) -> None:
    """Signal(..., clear=True) withdraws that seat's signal; the other signals stay."""
    state = state.apply_all(
        [tg.Signal(0, A1, "dont_play"), tg.Signal(2, A1, "dont_play"), tg.Signal(2, A2, "no_big_jump")]
    )
    assert len(state.public_view()["signals"]) == 3
    state = state.apply(tg.Signal(2, A1, "dont_play", clear=True))
    remaining = state.public_view()["signals"]
    assert {(signal["seat"], signal["pile"], signal["kind"]) for signal in remaining} == {
        (0, A1, "dont_play"),
        (2, A2, "no_big_jump"),
    }


def test_signals_survive_turns(state: tg.State) -> None:
    """A signal is a standing request: it stays shown after turns pass, until cleared."""
    state = state.apply(tg.Signal(2, D1, "dont_play"))
    state = state.apply_all([tg.Play(1, 21, A2), tg.EndTurn(1)])
    assert state.current_seat == 2
    assert state.view(0)["signals"] == [{"seat": 2, "pile": D1, "kind": "dont_play"}]


def test_signal_rejected_once_the_game_is_over() -> None:
    """Signals are allowed "while playing": once the game is over they are refused with game_over."""
    state = after_two_turns([50, 51], {"hand_size": 2})  # 50 and 51 fit none of 90 / 91 / 20 / 11
    assert state.status == "lost"
    for seat_signal in (tg.Signal(0, A1, "dont_play"), tg.Signal(0, A1, "dont_play", clear=True)):
        with raises_code("game_over"):
            state.apply(seat_signal)

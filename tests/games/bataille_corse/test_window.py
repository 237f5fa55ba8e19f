"""The collection window (``slap_window_ms``): slaps on one pile version gathered for the window after the first,
judged when it closes, the earliest received first; a window of 0 judges each slap as it comes, as before."""

from __future__ import annotations

import pytest

import thegame_core as tg
from thegame_core.games.bataille_corse import GAME, Flip, Judge, Slap, State

from .helpers import packet, position

W = 100


def table(pile: str = "7H 7D", **options: object) -> State:
    """Three seats holding cards, seat 0 on turn, ``pile`` face up, a window of ``W`` ms unless told."""
    packets = {0: "2S 3S 4S 5S", 1: "2H 3H 4H 5H", 2: "2D 3D 4D 5D"}
    return position(3, packets, pile, options={"slap_window_ms": W, **options})


def slap(state: State, seat: int, at: int) -> State:
    """``seat`` slaps the pile as it is now, received at ``at`` ms."""
    return state.apply(GAME.received(Slap(seat, state.pile_version), at))


def judged(state: State) -> State:
    """The state once its window's timer fired (the referee's judge)."""
    due = state.timer()
    assert due is not None
    return state.apply(due.action)


def judgement(state: State) -> list[tuple[int, str]]:
    last = state.history[-1]
    assert type(last) is Judge
    return list(last.results)


def test_the_earliest_received_wins_though_applied_later() -> None:
    state = slap(table(), 1, at=1000)
    assert state.results(1) == ["pending"] and state.timer() == (1000 + W, Judge(1))
    state = slap(state, 2, at=990)  # received 10 ms earlier, applied second (a slower request)
    assert state.results(1) == ["pending"]
    assert state.public_view()["slap_window"] == {"closes_at": 1000 + W, "slaps": [1, 2]}
    assert state.packets == table().packets and state.pile_version == 2  # nothing judged yet
    state = judged(state)
    assert judgement(state) == [(2, "valid"), (1, "stale")]
    assert packet(state, 2) == ["2D", "3D", "4D", "5D", "7H", "7D"] and state.current_seat == 2
    assert state.pile_version == 3 and state.timer() is None and state.public_view()["slap_window"] is None
    assert state.public_log()[-1] == {
        "type": "judge", "seat": 2, "results": [{"seat": 2, "result": "valid"}, {"seat": 1, "result": "stale"}],
    }  # fmt: skip


def test_equal_receive_times_go_in_the_order_applied() -> None:
    state = slap(slap(table(), 2, at=500), 0, at=500)
    assert judgement(judged(state)) == [(2, "valid"), (0, "stale")]


def test_a_slap_on_an_older_version_is_stale_at_once_even_while_a_window_is_open() -> None:
    state = slap(table(), 1, at=1000)
    late = state.apply(GAME.received(Slap(2, state.pile_version - 1), 1010))
    assert late.results(1) == ["stale"] and late.window == state.window
    after = judged(late)
    stale = after.apply(GAME.received(Slap(2, late.pile_version), 1200))  # the judged pile's version: now older
    assert stale.results(1) == ["stale"] and stale.history[-1].at is None  # a stale slap keeps no time


def test_false_slaps_in_a_window_each_pay_in_the_order_received() -> None:
    state = slap(slap(table("7H 2C"), 0, at=1050), 2, at=1000)
    state = judged(state)
    assert judgement(state) == [(2, "false"), (0, "false")]
    assert state.penalty == GAME.new_game(players=3, seed=1).penalty + tuple(
        card for seat in (2, 0) for card in table().packets[seat][:3]
    )
    assert packet(state, 2) == ["5D"] and packet(state, 0) == ["5S"] and state.current_seat == 0


def test_face_up_penalties_make_the_later_slaps_of_the_window_stale() -> None:
    state = slap(slap(table("7H 2C", penalty_place="top_face_up"), 0, at=1050), 2, at=1000)
    state = judged(state)
    assert judgement(state) == [(2, "false"), (0, "stale")]
    assert state.pile_version == 3 and packet(state, 0) == ["2S", "3S", "4S", "5S"]


def test_a_slap_after_the_window_closed_is_a_new_race() -> None:
    state = judged(slap(table("7H 2C"), 1, at=1000))  # false: the pile and its version stay
    assert judgement(state) == [(1, "false")]
    again = slap(state, 2, at=1000 + W)
    assert again.results(1) == ["pending"] and again.timer() == (1000 + 2 * W, Judge(2))


def test_a_window_closes_on_its_timer_with_nobody_else_acting() -> None:
    state = slap(table(), 0, at=5000)
    assert state.current_seat is None and state.waiting_for == frozenset()
    assert state.asking_order() == (1, 2) and state.legal_actions(0) == []
    state = judged(state)
    assert judgement(state) == [(0, "valid")] and state.current_seat == 0 and state.waiting_for == {0}


def test_nobody_flips_while_a_window_is_open_and_each_seat_slaps_once() -> None:
    state = slap(table(), 1, at=1000)
    with pytest.raises(tg.IllegalAction) as refused:
        state.apply(Flip(0))
    assert refused.value.code == "slap_window_open"
    with pytest.raises(tg.IllegalAction) as again:
        slap(state, 1, at=1010)
    assert again.value.code == "already_slapped"
    assert [action.to_dict() for action in state.legal_actions(2)] == [{"type": "slap", "seat": 2, "pile_version": 2}]


def test_the_referee_stamps_each_slap_and_judges_in_time() -> None:
    state = table()
    with pytest.raises(tg.InvalidAction, match="receive time"):
        state.apply(Slap(1, state.pile_version))
    opened = slap(state, 1, at=1000)
    with pytest.raises(tg.InvalidAction, match="closed at 1100"):
        slap(opened, 2, at=1000 + W)
    with pytest.raises(tg.InvalidAction, match="no slap window"):
        state.apply(Judge(0))
    with pytest.raises(tg.InvalidAction):
        GAME.parse_action({"type": "slap", "seat": 1, "pile_version": 2, "at": -1})


def test_without_a_window_slaps_are_judged_as_they_come_and_keep_no_time() -> None:
    state = table(slap_window_ms=0)
    won = slap(state, 1, at=1000).apply(GAME.received(Slap(2, state.pile_version), 990))
    assert won.results(2) == ["valid", "stale"] and won.timer() is None
    assert [action.to_dict() for action in won.history] == [
        {"type": "slap", "seat": 1, "pile_version": 2, "result": "valid"},
        {"type": "slap", "seat": 2, "pile_version": 2, "result": "stale"},
    ]


def test_replays_and_snapshots_reproduce_every_judgement() -> None:
    state = GAME.new_game(players=3, seed=5, options={"slap_window_ms": W})
    now, slapped = 0, -1
    while state.flips < 60 and state.status == "playing":
        now += 150
        due = state.timer()
        if due is not None:
            state = state.apply(due.action)
        elif len(state.pile) >= 2 and state.flips % 3 == 0 and slapped != state.flips:  # three slaps, out of order
            slapped = state.flips
            for seat, late in ((2, 40), (0, -5), (1, 70)):
                state = slap(state, seat, now + late)
        else:
            state = state.apply(Flip(state.current))
    text = tg.dumps(state)
    assert "|" in text and "a-45b75|" in text  # times written from the previous gathered slap's
    assert tg.loads(text) == state and tg.replay(state.replay_record()) == state
    judges = [entry for entry in state.public_log() if entry["type"] == "judge"]
    assert judges and all(entry["results"][0]["seat"] == 0 for entry in judges)  # 5 ms before the others
    middle = tg.loads(text[: text.index("|") + 1] + '"}')
    assert tg.loads(text, (tg.dumps(middle), middle)) == state

"""The views' ``last_slap``: the slap the last action judged, with the combinations of the pile a valid one won,
named by the rules' own predicates (the page says "double 2-2" from it and holds no rule)."""

from __future__ import annotations

import pytest

from thegame_core.games.bataille_corse import GAME, Slap, combinations
from thegame_core.games.bataille_corse.views import observation_from_view

from .helpers import flip, position, slap

PACKETS = {0: "2S 3S 4S 5S", 1: "8H 8C JH JC"}


@pytest.mark.parametrize(
    ("pile", "options", "expected"),
    [
        ("7H 7D", {}, ["double"]),
        ("RJ BJ", {"jokers": True}, ["double"]),
        ("7H 2C 7D", {}, ["sandwich"]),
        ("4C 5H", {}, ["suite"]),
        ("KS AH", {"wrap_K_A": True}, ["suite"]),
        ("3C 7D", {}, ["sum10"]),
        ("AS 5S 3C AH", {}, ["sum10"]),
        ("2H 5S", {}, ["product10"]),
        ("10H AS", {}, ["product10"]),
        ("6H 9S", {}, ["poisson"]),
        ("5H 5D", {}, ["double", "sum10"]),
        ("5H 5D", {"sum10": False}, ["double"]),  # only the combinations the game plays
        ("4H 6D", {"penalty_place": "top_face_up"}, ["sum10"]),
    ],
)
def test_a_valid_slap_names_each_combination_that_held(
    pile: str, options: dict[str, object], expected: list[str]
) -> None:
    before = position(2, PACKETS, pile, current=0, options=options)
    assert combinations(before.pile, before.options) == expected  # the rules' own answer, before the pile goes
    after = slap(before, 1)
    assert after.pile == ()
    for view in (after.public_view(), after.view(0), after.view(1)):
        assert view["last_slap"] == {"seat": 1, "result": "valid", "combinations": expected}


def test_a_false_slap_carries_no_combination_and_a_late_one_changes_nothing() -> None:
    state = position(2, PACKETS, "7H 9D", current=1)
    wrong = slap(state, 0)
    assert wrong.public_view()["last_slap"] == {"seat": 0, "result": "false", "combinations": []}
    won = slap(position(2, PACKETS, "7H 7D", current=0), 1)
    late = won.apply(Slap(0, won.pile_version - 1))
    assert late.results(1) == ["stale"] and late.public_view()["last_slap"] == won.public_view()["last_slap"]


def test_no_slap_after_a_flip_nor_before_any_action() -> None:
    state = position(2, PACKETS, "7H 7D", current=0)
    assert GAME.new_game(players=2, seed=1).public_view()["last_slap"] is None
    won = slap(state, 1)
    assert flip(won).public_view()["last_slap"] is None
    assert GAME.lobby_view(2, None)["last_slap"] is None


def test_a_window_names_its_decisive_slap_once_judged() -> None:
    state = position(3, {**PACKETS, 2: "2D 3D"}, "6H 9S", options={"slap_window_ms": 100})
    gathered = state.apply(GAME.received(Slap(2, state.pile_version), 500))
    gathered = gathered.apply(GAME.received(Slap(1, state.pile_version), 450))
    assert gathered.public_view()["last_slap"] is None  # still gathered: nothing judged yet
    due = gathered.timer()
    assert due is not None
    judged = gathered.apply(due.action)
    assert judged.public_view()["last_slap"] == {"seat": 1, "result": "valid", "combinations": ["poisson"]}
    wrong = position(3, {**PACKETS, 2: "2D 3D"}, "6H 8S", options={"slap_window_ms": 100})
    wrong = wrong.apply(GAME.received(Slap(2, wrong.pile_version), 500))
    due = wrong.timer()
    assert due is not None
    assert wrong.apply(due.action).public_view()["last_slap"] == {"seat": 2, "result": "false", "combinations": []}


def test_a_view_read_back_and_a_stored_history_replayed_keep_the_last_slap() -> None:
    start = position(2, PACKETS, "7H 2C 7D", current=0)
    won = slap(start, 0)
    observation = won.observe(1)
    assert observation_from_view(observation.to_dict(), won.options, won.history) == observation
    replayed = GAME.replay_history(start, GAME.history_notation(won), len(start.history))
    assert replayed.public_view()["last_slap"] == {"seat": 0, "result": "valid", "combinations": ["sandwich"]}


def test_the_log_entry_of_a_slap_is_unchanged() -> None:
    """The pinned log entry keeps its fields: the combinations are the view's."""
    won = slap(position(2, PACKETS, "7H 7D", current=0), 1)
    assert won.public_log()[-1] == {"type": "slap", "seat": 1, "pile_version": 2, "result": "valid"}

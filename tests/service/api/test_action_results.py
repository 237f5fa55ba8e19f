"""The answer to actions says what each did (``results``): a slap's ``valid``, ``false`` or ``stale``, in the
order sent, null where the game's action has none; a recalled retry answers the same results."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from gameclient import error_of
from test_any_game import Table

from thegame_core.games.bataille_corse.cards import PLAIN_DECK


def results(answer: Any) -> list[tuple[str, str | None]]:
    assert answer.status_code == 200, answer.get_json()
    return [(entry["type"], entry["result"]) for entry in answer.get_json()["results"]]


def dealt(http: FlaskClient, first: str, second: str) -> Table:
    """Bataille corse at 2 seats: seat 0 flips ``first``, seat 1 ``second``."""
    deck = [first, second, *(name for name in PLAIN_DECK if name not in (first, second))]
    return Table(http, "bataille-corse", 2, deck=deck)


def test_a_slap_is_valid_then_the_late_one_stale(http: FlaskClient) -> None:
    table = dealt(http, "7H", "7D")
    assert results(table.act(0, {"type": "flip"})) == [("flip", None)]
    assert results(table.act(1, {"type": "flip"})) == [("flip", None)]
    assert results(table.act(1, {"type": "slap", "pile_version": 2})) == [("slap", "valid")]
    assert results(table.act(0, {"type": "slap", "pile_version": 2})) == [("slap", "stale")]


def test_a_false_slap_says_so(http: FlaskClient) -> None:
    table = dealt(http, "7H", "9D")
    table.act(0, {"type": "flip"})
    table.act(1, {"type": "flip"})
    answer = table.act(1, {"type": "slap", "pile_version": 2})
    assert results(answer) == [("slap", "false")]
    assert answer.get_json()["seats"][1]["packet"] == 22  # the penalty was paid: 25 - 3


def test_a_batch_answers_one_result_per_action_in_order(http: FlaskClient) -> None:
    table = dealt(http, "7H", "7D")
    table.act(0, {"type": "flip"})
    table.act(1, {"type": "flip"})
    batch = {"actions": [{"type": "slap", "pile_version": 2}, {"type": "slap", "pile_version": 2}, {"type": "flip"}]}
    assert results(table.act(1, batch)) == [("slap", "valid"), ("slap", "stale"), ("flip", None)]


def test_a_recalled_retry_answers_the_same_results(http: FlaskClient) -> None:
    table = dealt(http, "7H", "7D")
    table.act(0, {"type": "flip"})
    table.act(1, {"type": "flip"})
    slap = {"type": "slap", "pile_version": 2}
    first = table.act(1, slap, **{"Idempotency-Key": "slap-once"})
    table.act(0, slap)  # stale now: the pile moved on
    again = table.act(1, slap, **{"Idempotency-Key": "slap-once"})
    assert results(first) == results(again) == [("slap", "valid")]
    assert again.get_json()["version"] == first.get_json()["version"]


def test_the_games_without_results_answer_nulls(http: FlaskClient) -> None:
    """The Game through ``/actions`` and its own routes, and Ninja: every action's result is null."""
    table = Table(http, "the-game", 2, seed=7)
    play = next(action for action in table.view(0)["legal_actions"] if action["type"] == "play")
    assert results(table.act(0, play)) == [("play", None)]
    second = next(action for action in table.view(0)["legal_actions"] if action["type"] == "play")
    routed = http.post(
        f"/v1/games/{table.id}/plays",
        json={"card": second["card"], "pile": second["pile"]},
        headers={"Authorization": f"Bearer {table.tokens[0]}"},
    )
    assert results(routed) == [("play", None)]
    ninja = Table(http, "ninja", 2, seed=7)
    seat = ninja.view()["current_seat"]
    assert [result for _, result in results(ninja.act(seat, ninja.view(seat)["legal_actions"][0]))] == [None]


def test_reads_and_other_changes_carry_no_results(http: FlaskClient) -> None:
    table = dealt(http, "7H", "7D")
    assert "results" not in table.view(0)


def test_a_slap_with_an_older_if_match_is_412_not_judged(http: FlaskClient) -> None:
    """Real-time clients send ``pile_version``, not ``If-Match``: any change since makes the slap 412."""
    table = dealt(http, "7H", "7D")
    table.act(0, {"type": "flip"})
    seen = table.act(1, {"type": "flip"}).get_json()["version"]
    table.act(0, {"type": "slap", "pile_version": 1})  # a stale slap: the pile is as it was, the game moved on
    refused = table.act(1, {"type": "slap", "pile_version": 2}, **{"If-Match": f'"{seen}"'})
    assert error_of(refused) == (412, "stale_version")
    assert results(table.act(1, {"type": "slap", "pile_version": 2})) == [("slap", "valid")]

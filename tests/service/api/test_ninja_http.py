"""Ninja over HTTP: the swap phase waits for every seat, and an out-of-turn completion races the next in-turn
action, ordered by the store: whichever request is applied first wins, the other gets a typed error."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from gameclient import bearer, error_of

from tests.games.ninja.helpers import deck_for

# Ann leads two 5s (a pair on top: the completion window opens); Cid holds the other two 5s; Bob is next.
DECK = deck_for(3, hands={0: [5, 5, 2], 1: [7, 10, 11], 2: [5, 5, 3]})


class Ninja:
    """A started three-seat game of Ninja dealt from ``DECK``, with people at every seat."""

    def __init__(self, http: FlaskClient) -> None:
        created = http.post("/v1/games", json={"game": "ninja", "players": 3, "deck": DECK}).get_json()
        self.http, self.id = http, created["game_id"]
        self.tokens = [
            http.post(f"/v1/games/{self.id}/seats", json={"name": name}).get_json()["token"]
            for name in ("ann", "bob", "cid")
        ]
        started = http.post(f"/v1/games/{self.id}/start", json={"first_seat": 0}, headers=bearer(created["host_token"]))
        assert started.get_json()["phase"] == "swap" and started.get_json()["waiting_for"] == [0, 1, 2]

    def view(self, seat: int) -> dict[str, Any]:
        return self.http.get(f"/v1/games/{self.id}", headers=bearer(self.tokens[seat])).get_json()  # type: ignore[no-any-return]

    def act(self, seat: int, action: dict[str, Any]) -> Any:
        return self.http.post(f"/v1/games/{self.id}/actions", json=action, headers=bearer(self.tokens[seat]))


def ready_and_lead(http: FlaskClient) -> Ninja:
    game = Ninja(http)
    for seat in range(3):
        answer = game.act(seat, {"type": "ready"})
        assert answer.status_code == 200 and answer.get_json()["waiting_for"] == (
            [0] if seat == 2 else [s for s in range(seat + 1, 3)]
        )
    led = game.act(0, {"type": "play", "value": 5, "count": 2}).get_json()
    assert led["pile"] == [5, 5] and led["completion"] == {"value": 5, "placed_by": 0} and led["current_seat"] == 1
    assert {"type": "complete", "value": 5} in game.view(2)["legal_actions"]
    assert not any(action["type"] == "complete" for action in game.view(1)["legal_actions"])
    return game


def test_a_completion_that_reaches_the_store_first_wins(http: FlaskClient) -> None:
    game = ready_and_lead(http)
    completed = game.act(2, {"type": "complete", "value": 5})
    assert completed.status_code == 200
    view = completed.get_json()
    assert view["pile"] == [] and view["burned"] == 4 and view["current_seat"] == 2  # four 5s burn; Cid leads
    assert error_of(game.act(1, {"type": "play", "value": 7, "count": 1})) == (409, "not_your_turn")


def test_an_in_turn_action_that_comes_first_closes_the_window(http: FlaskClient) -> None:
    game = ready_and_lead(http)
    played = game.act(1, {"type": "play", "value": 7, "count": 1})
    assert played.status_code == 200 and played.get_json()["completion"] is None
    assert error_of(game.act(2, {"type": "complete", "value": 5})) == (422, "window_closed")
    assert game.view(2)["pile"] == [5, 5, 7]


@pytest.mark.parametrize(
    ("game", "players", "message"),
    [
        ("ninja", 9, "players must be an integer from 2 to 6, got 9"),
        ("ninja", 1, "players must be an integer from 2 to 6, got 1"),
        ("the-game", 9, "players must be an integer from 1 to 5, got 9"),
        ("the-game", 0, "players must be an integer from 1 to 5, got 0"),
    ],
)
def test_a_player_count_out_of_range_names_the_game_s_own_range(
    http: FlaskClient, game: str, players: int, message: str
) -> None:
    answer = http.post("/v1/games", json={"game": game, "players": players})
    assert error_of(answer) == (422, "validation_error") and answer.get_json()["message"] == message


@pytest.mark.parametrize(
    ("route", "body"),
    [("plays", {"card": 5, "pile": "asc1"}), ("plays", {"type": "ready"}), ("turn/end", None), ("signals", {})],
)
def test_the_game_s_own_routes_send_another_game_to_actions(http: FlaskClient, route: str, body: Any) -> None:
    game = Ninja(http)
    before = game.view(0)["version"]
    answer = http.post(f"/v1/games/{game.id}/{route}", json=body, headers=bearer(game.tokens[0]))
    assert error_of(answer) == (422, "invalid_action")
    assert answer.get_json()["message"] == (
        f"this route is the-game's; a game of ninja takes its actions at POST /v1/games/{game.id}/actions "
        "(GET /v1/games/catalog lists them)"
    )
    assert game.view(0)["version"] == before  # nothing applied


def test_an_empty_batch_says_how_many_actions_a_batch_holds(http: FlaskClient) -> None:
    game = Ninja(http)
    answer = game.act(0, {"actions": []})
    assert error_of(answer) == (422, "validation_error")
    assert answer.get_json()["message"] == "actions is a list of 1 to 64 actions"

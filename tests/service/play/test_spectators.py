"""`"spectators": false`: the view and the log answer only seat and host tokens; the default lets anyone watch."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from gameclient import bearer, error_of, new_game, started


def test_defaults_are_private_with_spectators(http: FlaskClient) -> None:
    created = http.post("/v1/games", json={"players": 2}).get_json()
    assert (created["public"], created["spectators"]) == (False, True)
    game = started(http, players=2, seed=3)
    assert game.view().status_code == 200 and game.log().status_code == 200


def test_the_create_answer_and_every_view_show_the_choice(http: FlaskClient) -> None:
    created = http.post("/v1/games", json={"players": 1, "public": True, "spectators": False}).get_json()
    assert (created["public"], created["spectators"]) == (True, False)
    view = http.get(f"/v1/games/{created['game_id']}", headers=bearer(created["host_token"])).get_json()
    assert (view["public"], view["spectators"]) == (True, False)


@pytest.mark.parametrize("game_name", ["the-game", "ninja"])
def test_without_spectators_only_seats_and_the_host_read(http: FlaskClient, game_name: str) -> None:
    game = started(http, game=game_name, players=2, seed=5, spectators=False)
    for path in ("", "/log"):
        assert error_of(http.get(game.url + path)) == (403, "forbidden")
        assert http.get(game.url + path, headers=bearer(game.tokens[1])).status_code == 200
        assert http.get(game.url + path, headers=bearer(game.host)).status_code == 200
        assert error_of(http.get(game.url + path, headers=bearer("not-a-token"))) == (401, "invalid_token")
    assert game.view(0).get_json()["seat"] == 0


def test_a_closed_lobby_still_takes_seats_from_anyone(http: FlaskClient) -> None:
    game = new_game(http, players=2, spectators=False)
    assert error_of(game.view()) == (403, "forbidden")
    taken = game.seat("ann")
    assert taken.status_code == 201
    assert game.view(0).get_json()["spectators"] is False


@pytest.mark.parametrize("body", [{"public": "yes"}, {"public": 1}, {"spectators": "false"}, {"spectators": None}])
def test_the_flags_are_json_booleans(http: FlaskClient, body: dict[str, object]) -> None:
    response = http.post("/v1/games", json={"players": 2, **body})
    assert error_of(response) == (422, "validation_error")
    assert set(response.get_json()["errors"]) == set(body)

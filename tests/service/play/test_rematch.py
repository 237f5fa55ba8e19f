"""POST /v1/games/{id}/rematch: the next game with the same people, each seat's new token sealed to its old one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gameclient import GameClient, bearer, error_of, new_game, started, stuck_deck
from lobbies import Lobbies

from service.play import sealing
from service.play.tokens import new_token


@pytest.fixture
def http(make_app: Callable[..., Flask]) -> FlaskClient:
    """Bots left alone may play a game to its end inside one request here (the per-request cap of bot work
    is test_clock's subject)."""
    return make_app(BOT_DECISIONS=100_000).test_client()


def lost(http: FlaskClient, **body: Any) -> GameClient:
    """A one-player game of The Game, lost after one turn."""
    game = started(http, players=1, deck=stuck_deck(), **body)
    assert game.turn(0, [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")]).get_json()["status"] == "lost"
    return game


def rematch(game: GameClient, **headers: str) -> Any:
    return game.http.post(f"{game.url}/rematch", headers=bearer(game.host, **headers))


def test_x25519_matches_rfc_7748() -> None:
    scalar = bytes.fromhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4")
    point = bytes.fromhex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")
    expected = "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"
    assert sealing.x25519(scalar, point).hex() == expected


def test_only_the_token_opens_what_was_sealed_to_its_key() -> None:
    token, other, secret = new_token(), new_token(), new_token()
    sealed = sealing.seal_for(sealing.public_key(token), secret, "context")
    assert sealing.open_with(token, sealed, "context") == secret
    assert sealing.open_with(other, sealed, "context") != secret
    assert sealing.open_with(token, sealed, "another context") != secret
    assert sealing.seal_for(sealing.public_key(token), secret, "context") != sealed  # a fresh key each time


def test_the_seat_finds_its_new_token_in_its_view_and_the_new_game_starts(http: FlaskClient) -> None:
    game = lost(http)
    version = game.view(0).get_json()["version"]
    assert game.view(0).get_json()["rematch"] is None
    response = rematch(game)
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Location"] == f"/v1/games/{body['game_id']}"
    seat_view = game.view(0).get_json()
    assert seat_view["version"] == version + 1
    assert seat_view["rematch"]["game_id"] == body["game_id"]
    assert game.view().get_json()["rematch"] == {"game_id": body["game_id"]}
    assert game.view(Authorization=f"Bearer {game.host}").get_json()["rematch"] == {"game_id": body["game_id"]}
    token = seat_view["rematch"]["token"]
    assert token != game.tokens[0]
    new_view = http.get(f"/v1/games/{body['game_id']}", headers=bearer(token)).get_json()
    assert new_view["seat"] == 0 and new_view["status"] == "playing"
    assert new_view["seats"][0]["name"] == "player0" and new_view["options"] == game.view(0).get_json()["options"]
    assert http.get(f"/v1/games/{body['game_id']}", headers=bearer(game.tokens[0])).status_code == 401
    assert http.get(f"/v1/games/{body['game_id']}", headers=bearer(body["host_token"])).status_code == 200
    assert error_of(http.get(f"/v1/games/{body['game_id']}", headers=bearer(game.host))) == (401, "invalid_token")


def test_the_store_keeps_no_token(http: FlaskClient) -> None:
    game = lost(http)
    body = rematch(game).get_json()
    token = game.view(0).get_json()["rematch"]["token"]
    client = http.application.extensions["service"].store.client
    for game_id in (game.game_id, body["game_id"]):
        stored = b"".join(client.hvals(f"tg:{{{game_id}}}:game"))
        assert token.encode() not in stored and body["host_token"].encode() not in stored


def test_names_bots_options_and_flags_carry_over(http: FlaskClient) -> None:
    game = new_game(http, players=3, options={"preset": "expert"}, public=True, spectators=False)
    game.seat("ann")
    assert game.seat("robo", token=game.host, bot="greedy").status_code == 201
    game.seat("cat")
    assert game.start(first_seat=0).status_code == 200
    for seat in (0, 2):  # the people leave: the bots play it to its end
        assert http.delete(f"{game.url}/seats/{seat}", headers=bearer(game.tokens[seat])).status_code == 204
    assert game.view(Authorization=f"Bearer {game.host}").get_json()["status"] in ("won", "lost")
    body = rematch(game).get_json()
    new = http.get(f"/v1/games/{body['game_id']}", headers=bearer(body["host_token"])).get_json()
    assert new["status"] == "lobby"  # the seats left open are free in the rematch
    assert [(seat["name"], seat["bot_name"]) for seat in new["seats"]] == [
        (None, None),
        ("robo", "greedy"),
        (None, None),
    ]
    assert (new["public"], new["spectators"], new["options"]["min_per_turn"]) == (True, False, 3)


def test_a_public_rematch_waiting_for_players_is_listed(lobbies: Lobbies) -> None:
    game = lobbies.create(players=2)
    game.fill()
    assert game.start().status_code == 200
    for seat in (0, 1):
        lobbies.http.delete(f"{game.url}/seats/{seat}", headers=bearer(game.tokens[seat]))
    body = rematch(game).get_json()
    assert lobbies.listed() == [body["game_id"]]


def test_who_and_when(http: FlaskClient) -> None:
    lobby = new_game(http, players=1)
    assert error_of(rematch(lobby)) == (409, "game_not_started")
    playing = started(http, players=1, seed=2)
    assert error_of(rematch(playing)) == (409, "game_not_over")
    game = lost(http)
    url = f"{game.url}/rematch"
    assert error_of(http.post(url)) == (401, "invalid_token")
    assert error_of(http.post(url, headers=bearer(game.tokens[0]))) == (403, "forbidden")
    assert error_of(rematch(game, **{"If-Match": '"1"'})) == (412, "stale_version")
    first = rematch(game).get_json()
    again = rematch(game)
    assert error_of(again) == (409, "rematch_exists") and first["game_id"] in again.get_json()["message"]


@pytest.mark.parametrize("same_key", [True, False])
def test_a_retried_rematch_answers_the_same_game_once(http: FlaskClient, same_key: bool) -> None:
    game = lost(http)
    first = rematch(game, **{"Idempotency-Key": "rematch-1"})
    again = rematch(game, **{"Idempotency-Key": "rematch-1" if same_key else "rematch-2"})
    if same_key:
        assert (again.status_code, again.get_json()) == (201, first.get_json())
    else:
        assert error_of(again) == (409, "rematch_exists")

"""The error body, client input that must never cause a 5xx, and the contract's check order."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, bearer, error_of, started, stuck_deck

STALE = {"If-Match": '"1"'}


def test_error_body_shape(http: FlaskClient) -> None:
    body = http.get("/v1/games/nosuchgame").get_json()
    assert body == {
        "code": 404,
        "status": "Not Found",
        "message": "no such game (it may have expired)",
        "error": "unknown_game",
    }
    validation = http.post("/v1/games", json={"players": "many"}).get_json()
    assert validation["code"] == 422 and validation["status"] == "Unprocessable Entity"
    assert validation["error"] == "validation_error" and "players" in validation["errors"]


@pytest.mark.parametrize("raw", [b"{", b"players=2", b"\xff\xfe", b'{"players": 2,}', b"[" * 5000, b"9" * 5000])
def test_malformed_json(http: FlaskClient, raw: bytes) -> None:
    response = http.post("/v1/games", data=raw, content_type="application/json")
    assert error_of(response) == (400, "malformed_json")


def test_body_too_large(app: Flask, http: FlaskClient) -> None:
    huge = b'{"players": 2, "name": "' + b"x" * app.config["MAX_CONTENT_LENGTH"] + b'"}'
    assert error_of(http.post("/v1/games", data=huge, content_type="application/json")) == (413, "body_too_large")


def test_unknown_route_and_method(http: FlaskClient) -> None:
    assert error_of(http.get("/v1/nothing/here")) == (404, "not_found")
    response = http.delete("/v1/games")
    assert error_of(response) == (405, "method_not_allowed") and "POST" in response.headers["Allow"]
    assert error_of(http.put("/v1/health")) == (405, "method_not_allowed")


def test_a_body_must_say_it_is_json(http: FlaskClient) -> None:
    response = http.post("/v1/games", data=b'{"players": 1}', content_type="text/plain")
    assert error_of(response) == (415, "unsupported_media_type")


def test_get_with_a_bad_token_is_refused(http: FlaskClient) -> None:
    game = started(http, players=1)
    assert error_of(http.get(game.url, headers=bearer("x" * 43))) == (401, "invalid_token")
    assert error_of(http.get(game.url, headers=bearer("x" * 500))) == (401, "invalid_token")
    assert error_of(http.get(f"{game.url}/log", headers={"Authorization": "Bearer"})) == (401, "invalid_token")
    assert http.get(game.url, headers=bearer(game.tokens[0])).get_json()["hand"]


# Check order: unknown game -> token -> over / not started -> If-Match -> body -> not your turn -> rules.
def finished_game(http: FlaskClient) -> GameClient:
    game = started(http, players=1, deck=stuck_deck())
    game.turn(0, [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")])
    return game


def test_order_unknown_game_before_token(http: FlaskClient) -> None:
    response = http.post("/v1/games/nosuchgame/plays", data=b"{", headers=bearer("forged"))
    assert error_of(response) == (404, "unknown_game")
    malformed = {"Authorization": "Basic abc", "Idempotency-Key": "k" * 500}
    assert error_of(http.post("/v1/games/nosuchgame/plays", headers=malformed)) == (404, "unknown_game")
    assert error_of(http.get("/v1/games/nosuchgame", headers=malformed)) == (404, "unknown_game")


def test_order_token_before_game_over(http: FlaskClient) -> None:
    game = finished_game(http)
    assert error_of(http.post(f"{game.url}/plays", json={}, headers=bearer("forged"))) == (401, "invalid_token")
    assert error_of(http.post(f"{game.url}/plays", json={}, headers=bearer(game.host))) == (403, "forbidden")


def test_order_game_over_before_if_match(http: FlaskClient) -> None:
    game = finished_game(http)
    assert error_of(game.play(0, 50, "asc1", **STALE)) == (409, "game_over")


def test_order_not_started_before_if_match(http: FlaskClient) -> None:
    game = GameClient(http, http.post("/v1/games", json={"players": 1}))
    game.seat("ann")
    assert error_of(game.post("plays", 0, {"card": "x"}, **STALE)) == (409, "game_not_started")


def test_order_if_match_before_body(http: FlaskClient) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    assert error_of(game.post("plays", 0, {"card": "x"}, **STALE)) == (412, "stale_version")
    response = game.http.post(f"{game.url}/plays", data=b"{", headers=bearer(game.tokens[0], **STALE))
    assert error_of(response) == (412, "stale_version")


def test_order_body_before_turn(http: FlaskClient) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    assert error_of(game.post("plays", 1, {"card": "x", "pile": "asc1"})) == (422, "validation_error")
    response = game.http.post(
        f"{game.url}/plays", data=b"{", content_type="application/json", headers=bearer(game.tokens[1])
    )
    assert error_of(response) == (400, "malformed_json")


def test_order_turn_before_rules(http: FlaskClient) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    assert error_of(game.play(1, 2, "asc1")) == (409, "not_your_turn")  # not in seat 1's hand either


def test_order_in_the_lobby(http: FlaskClient) -> None:
    game = GameClient(http, http.post("/v1/games", json={"players": 1}))
    game.seat("ann")
    assert error_of(game.seat("bob", **{"seat": "x"})) == (409, "game_full")
    url = f"{game.url}/start"
    assert error_of(http.post(url, json={"first_seat": "x"}, headers=bearer(game.host, **{"If-Match": '"0"'}))) == (
        412,
        "stale_version",
    )

"""Idempotency-Key: a retry returns the first response and applies nothing twice."""

from __future__ import annotations

import uuid

from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, bearer, error_of, new_game, started


def key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


def duo(http: FlaskClient) -> GameClient:
    return started(http, players=2, deck=SORTED_DECK)


def test_a_retried_play_applies_once(http: FlaskClient) -> None:
    game = duo(http)
    first = game.play(0, 2, "asc1", **key("play-1"))
    retry = game.play(0, 2, "asc1", **key("play-1"))
    assert first.status_code == retry.status_code == 200
    assert retry.get_json() == first.get_json() and retry.headers["ETag"] == first.headers["ETag"]
    assert game.view().get_json()["version"] == 4 and len(game.log().get_json()["entries"]) == 1


def test_a_retry_answers_the_first_response_after_the_game_moved_on(http: FlaskClient) -> None:
    game = duo(http)
    first = game.turn(0, [(2, "asc1"), (4, "asc1")], **key("turn-1"))
    game.turn(1, [(3, "asc2"), (5, "asc2")])
    retry = game.turn(0, [(2, "asc1"), (4, "asc1")], **key("turn-1"))
    assert retry.status_code == 200 and retry.get_json() == first.get_json()
    assert game.view().get_json()["version"] == 3 + 6


def test_same_key_other_body(http: FlaskClient) -> None:
    game = duo(http)
    game.play(0, 2, "asc1", **key("k"))
    assert error_of(game.play(0, 4, "asc1", **key("k"))) == (422, "idempotency_key_reused")
    assert error_of(game.end_turn(0, **key("k"))) == (422, "idempotency_key_reused")  # another route
    assert game.view().get_json()["version"] == 4


JSON = "application/json"


def test_same_json_with_other_spacing_is_the_same_body(http: FlaskClient) -> None:
    game = duo(http)
    headers = bearer(game.tokens[0], **key("k"))
    first = http.post(f"{game.url}/plays", data=b'{"card": 2, "pile": "asc1"}', content_type=JSON, headers=headers)
    retry = http.post(f"{game.url}/plays", data=b'{"pile":"asc1","card":2}', content_type=JSON, headers=headers)
    assert first.status_code == retry.status_code == 200 and game.view().get_json()["version"] == 4


def test_keys_are_scoped_per_caller(http: FlaskClient) -> None:
    game = duo(http)
    mine = game.post("signals", 0, {"pile": "asc2", "kind": "dont_play"}, **key("same"))
    yours = game.post("signals", 1, {"pile": "asc2", "kind": "dont_play"}, **key("same"))
    assert mine.status_code == yours.status_code == 200
    assert len(game.view().get_json()["signals"]) == 2


def test_keys_are_scoped_per_game(http: FlaskClient) -> None:
    one, two = duo(http), duo(http)
    assert one.play(0, 2, "asc1", **key("k")).status_code == 200
    assert two.play(0, 2, "asc1", **key("k")).get_json()["version"] == 4


def test_a_failed_request_is_not_remembered(http: FlaskClient) -> None:
    game = duo(http)
    assert error_of(game.end_turn(0, **key("k"))) == (422, "minimum_not_reached")
    game.play(0, 2, "asc1")
    game.play(0, 4, "asc1")
    assert game.end_turn(0, **key("k")).get_json()["current_seat"] == 1


def test_a_retried_seat_returns_the_same_token(http: FlaskClient) -> None:
    game = new_game(http, players=2)
    secret = key(str(uuid.uuid4()))  # without a token, the key must be unguessable
    first = http.post(f"{game.url}/seats", json={"name": "ann"}, headers=secret)
    retry = http.post(f"{game.url}/seats", json={"name": "ann"}, headers=secret)
    assert first.status_code == retry.status_code == 201 and first.get_json() == retry.get_json()
    token = first.get_json()["token"]
    assert http.get(game.url, headers=bearer(token)).get_json()["seat"] == 0
    assert game.view().get_json()["version"] == 1
    assert http.post(f"{game.url}/seats", json={"name": "bob"}, headers=key(uuid.uuid4().hex)).get_json()["seat"] == 1


def test_a_retried_start(http: FlaskClient) -> None:
    game = new_game(http, players=1)
    game.seat("ann")
    first = http.post(f"{game.url}/start", json={}, headers=bearer(game.host, **key("go")))
    retry = http.post(f"{game.url}/start", json={}, headers=bearer(game.host, **key("go")))
    assert first.status_code == retry.status_code == 200 and first.get_json() == retry.get_json()
    assert error_of(game.start()) == (409, "game_started")


def test_key_length_is_bounded(http: FlaskClient) -> None:
    game = duo(http)
    assert error_of(game.play(0, 2, "asc1", **key("k" * 201))) == (422, "validation_error")
    assert game.view().get_json()["version"] == 3

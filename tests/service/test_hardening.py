"""Hardening: strict JSON bodies, security headers, CORS, the access log setting, chunked bodies over the limit."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, bearer, error_of, started

JSON = "application/json"
STALE = {"If-Match": '"1"'}


# Strict JSON: the body says it is JSON, and is JSON without repeated keys or non-finite numbers.
@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded", "application/jsonx"])
def test_a_body_that_is_not_declared_json_is_refused(http: FlaskClient, content_type: str | None) -> None:
    response = http.post("/v1/games", data=b'{"players": 1}', content_type=content_type)
    assert error_of(response) == (415, "unsupported_media_type")
    assert response.get_json()["status"] == "Unsupported Media Type"


@pytest.mark.parametrize("content_type", [JSON, "application/json; charset=utf-8", "Application/JSON"])
def test_json_with_parameters_is_accepted(http: FlaskClient, content_type: str) -> None:
    assert http.post("/v1/games", data=b'{"players": 1}', content_type=content_type).status_code == 201


@pytest.mark.parametrize(
    "raw",
    [
        b'{"players": 1, "players": 2}',
        b'{"players": 1, "options": {"preset": "standard", "preset": "standard"}}',
        b'{"players": NaN}',
        b'{"players": 1, "seed": Infinity}',
        b'{"players": 1, "seed": -Infinity}',
    ],
)
def test_repeated_keys_and_non_finite_numbers_are_malformed(http: FlaskClient, raw: bytes) -> None:
    assert error_of(http.post("/v1/games", data=raw, content_type=JSON)) == (400, "malformed_json")


def test_an_empty_body_needs_no_content_type(http: FlaskClient) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    for _ in range(2):
        play = game.view(0).get_json()["legal_plays"][0]
        assert game.play(0, play["card"], play["pile"]).status_code == 200
    response = http.post(f"{game.url}/turn/end", data=b"", headers=bearer(game.tokens[0]))
    assert response.status_code == 200, response.get_json()


def test_the_media_type_answers_at_the_body_step(http: FlaskClient) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    plays, body = f"{game.url}/plays", b'{"card": 2, "pile": "asc1"}'
    assert error_of(http.post("/v1/games/nosuchgame/plays", data=body)) == (404, "unknown_game")
    assert error_of(http.post(plays, data=body, headers=bearer("forged"))) == (401, "invalid_token")
    assert error_of(http.post(plays, data=body, headers=bearer(game.tokens[0], **STALE))) == (412, "stale_version")
    assert error_of(http.post(plays, data=body, headers=bearer(game.tokens[1]))) == (415, "unsupported_media_type")
    duplicate = b'{"card": 2, "card": 2, "pile": "asc1"}'
    response = http.post(plays, data=duplicate, content_type=JSON, headers=bearer(game.tokens[1]))
    assert error_of(response) == (400, "malformed_json")  # before not_your_turn
    assert game.view().get_json()["version"] == 3

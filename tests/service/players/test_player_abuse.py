"""Keys are never leaked: not in a log, not in any answer after the one that made them, not accepted in a URL."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import pytest
from flask.testing import FlaskClient
from gameclient import error_of
from players_client import Player, from_own_address
from test_player_games import lost
from werkzeug.test import TestResponse

NDJSON = {"Accept": "application/x-ndjson"}


def test_no_log_line_and_no_later_answer_holds_a_key(http: FlaskClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    from_own_address(http)
    ann = Player(http)
    secrets = [ann.key, ann.key.split(".")[3]]
    game = lost(http, ann)
    code = ann.post("/v1/players/me/link").get_json()["code"]
    phone = Player(http, created=http.post("/v1/players/link", json={"code": code}))
    secrets += [phone.key, phone.key.split(".")[3]]
    calls: list[Callable[[], TestResponse]] = [
        lambda: http.get(f"{game.url}/events", query_string={"token": ann.key}),
        lambda: http.post("/v1/players/link", json={"code": code}),
    ]
    for player in (ann, phone):
        calls += [
            partial(player.get, "/v1/players/me"),
            partial(player.get, "/v1/players/me/keys"),
            partial(player.get, "/v1/players/me/games"),
            partial(player.get, "/v1/players/me/games", **NDJSON),
            partial(player.get, game.url),
            partial(player.get, f"{game.url}/log"),
            partial(http.get, f"/v1/players/{player.id}"),
        ]
    for call in calls:
        answer = call()
        text = answer.get_data(as_text=True)  # read at once: a streamed answer holds its request until read
        assert not any(secret in text for secret in secrets), answer.request.path
        assert answer.headers["Cache-Control"] == "no-store"
    assert ann.delete("/v1/players/me").status_code == 204
    logged = "\n".join(f"{record.getMessage()} {record.args!r}" for record in caplog.records)
    assert not any(secret in logged for secret in secrets)


def test_a_key_in_a_url_is_refused(http: FlaskClient) -> None:
    ann = Player(http)
    game = lost(http, ann)
    answer = http.get(f"{game.url}/events", query_string={"token": ann.key})
    assert error_of(answer) == (401, "invalid_token")
    revoked_shape = f"p.{ann.id}.AAAAAAAA.{'A' * 43}"  # refused by its shape, before any lookup
    assert error_of(http.get(f"{game.url}/events", query_string={"token": revoked_shape})) == (401, "invalid_token")

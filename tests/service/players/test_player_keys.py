"""A player key (issue 28, point 1): made once, shown once, stored as a hash, the profile read and renamed with it."""

from __future__ import annotations

import re
from collections.abc import Callable

import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, bearer, error_of
from players_client import Player, from_own_address

KEY = re.compile(r"p\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{43}")


def test_a_new_player_gets_an_id_and_a_key_shown_once_and_never_cached(http: FlaskClient) -> None:
    created = http.post("/v1/players", json={"name": "Ann"})
    body = created.get_json()
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    assert created.headers["Location"] == f"/v1/players/{body['player_id']}"
    assert KEY.fullmatch(body["key"]) and body["key"].split(".")[1] == body["player_id"]
    assert len(body["key"].split(".")[3]) * 6 >= 256  # the secret alone: 256 bits of token_urlsafe
    assert body["name"] == "Ann" and body["played"] == {} and body["since"].endswith("Z")
    me = http.get("/v1/players/me", headers=bearer(body["key"]))
    assert me.status_code == 200 and me.headers["Cache-Control"] == "no-store"
    assert me.get_json() == {key: body[key] for key in ("player_id", "name", "since", "played", "ratings", "the_game")}


def test_the_store_keeps_only_the_key_s_hash(http: FlaskClient, redis_client: redis.Redis) -> None:
    player = Player(http)
    secret = player.key.split(".")[3]
    stored = b"".join(
        value
        for key in redis_client.scan_iter(match=f"tg:{{p:{player.id}}}:*")
        for value in redis_client.hgetall(key).values()
    )
    assert stored and secret.encode() not in stored and player.key.encode() not in stored


def test_rename_and_the_public_profile(http: FlaskClient) -> None:
    player = Player(http, "Ann")
    renamed = http.patch("/v1/players/me", json={"name": "Annie"}, headers=player.headers())
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "Annie"
    public = http.get(f"/v1/players/{player.id}")
    assert public.status_code == 200 and public.get_json() == renamed.get_json()
    assert "key" not in public.get_json()


def test_bad_names_keys_and_ids_get_typed_errors(http: FlaskClient) -> None:
    player = Player(http)
    assert error_of(http.post("/v1/players", json={"name": ""})) == (422, "validation_error")
    assert error_of(http.post("/v1/players", json={})) == (422, "validation_error")
    assert error_of(http.patch("/v1/players/me", json={"name": "x" * 41}, headers=player.headers())) == (
        422,
        "validation_error",
    )
    assert error_of(http.get("/v1/players/me")) == (401, "invalid_token")
    made_up = player.key[:-4] + ("AAAA" if not player.key.endswith("AAAA") else "BBBB")
    assert error_of(http.get("/v1/players/me", headers=bearer(made_up))) == (401, "invalid_token")
    assert error_of(http.get("/v1/players/me", headers=bearer("p.nonsense"))) == (401, "invalid_token")
    assert error_of(http.get("/v1/players/me", headers={"Authorization": "Basic x"})) == (401, "invalid_token")
    assert error_of(http.get("/v1/players/AAAAAAAAAAAAAAAA")) == (404, "unknown_player")
    assert error_of(http.get("/v1/players/not-an-id")) == (404, "not_found")


def test_creating_players_is_rate_limited_per_address(make_app: Callable[..., Flask], clock: FakeClock) -> None:
    app = make_app(LIMITS=True, LIMITS_PREFIX=f"tg:test-players-{id(clock)}:", LIMITS_CLOCK=clock, CREATE_RATE=(2, 600))
    http = from_own_address(app.test_client())
    answers = [http.post("/v1/players", json={"name": "ann"}) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [201, 201, 429]
    assert answers[2].get_json()["error"] == "rate_limited" and int(answers[2].headers["Retry-After"]) > 0

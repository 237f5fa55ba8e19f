"""Leaving for good (issue 28, point 7): the keys stop, the profile is gone, the player's name in kept games becomes
"deleted player", and nothing else of those games changes."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime

import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, bearer, error_of, new_game
from players_client import Player, from_own_address
from test_daily import board, play_to_end
from test_player_games import lost


def test_erasing_a_player_stops_its_keys_and_renames_it_in_its_games(
    http: FlaskClient, redis_client: redis.Redis
) -> None:
    from_own_address(http)
    ann, bob = Player(http, "Ann"), Player(http, "Bob")
    second_key = Player(
        http, created=http.post("/v1/players/link", json={"code": ann.post("/v1/players/me/link").get_json()["code"]})
    )
    finished = lost(http, ann)
    live = new_game(http, players=2)
    assert bob.sit(live, seat=0).status_code == 201 and ann.sit(live, seat=1).status_code == 201
    before = {game.game_id: game.view().get_json() for game in (finished, live)}
    log_before = finished.log().get_json()
    ttl_before = redis_client.ttl(f"tg:{{{finished.game_id}}}:game")

    assert ann.delete("/v1/players/me").status_code == 204

    for key in (ann, second_key):
        assert error_of(key.get("/v1/players/me")) == (401, "invalid_token")
        assert error_of(key.get(live.url)) == (401, "invalid_token")
    assert error_of(http.get(f"/v1/players/{ann.id}")) == (404, "unknown_player")
    assert error_of(http.get(f"/v1/players/{ann.id}/games")) == (404, "unknown_player")
    assert list(redis_client.scan_iter(match=f"tg:{{p:{ann.id}}}:*")) == []
    for game in (finished, live):
        after = game.view().get_json()
        seat = 0 if game is finished else 1
        assert after["seats"][seat]["name"] == "deleted player" and after["seats"][seat]["player"] is None
        expected = before[game.game_id]
        expected["seats"][seat].update(name="deleted player", player=None)
        assert {**after, "seats": None} == {**expected, "seats": None}  # the version, the cards, the outcome
        assert [{**entry, "name": None} for entry in after["seats"]] == [
            {**entry, "name": None} for entry in expected["seats"]
        ]
    assert finished.log().get_json() == log_before
    assert abs(redis_client.ttl(f"tg:{{{finished.game_id}}}:game") - ttl_before) <= 2  # kept as long as before
    assert bob.get(live.url).get_json()["seats"][0]["player"] == bob.id  # other players keep theirs
    assert error_of(http.delete("/v1/players/me", headers=bearer(ann.key))) == (401, "invalid_token")


def test_an_erased_player_s_daily_result_keeps_its_rank_under_deleted_player(
    make_app: Callable[..., Flask], clock: FakeClock, redis_client: redis.Redis
) -> None:
    http = make_app(CLOCK=clock, DAILY_PREFIX=f"test-erase-{secrets.token_hex(4)}:").test_client()
    ann = Player(http, "Ann")
    today = datetime.fromtimestamp(clock.now, UTC).date().isoformat()
    body = {"players": 2, "daily": today, "name": "Ann", "bots": ["random"]}
    created = http.post("/v1/games", json=body, headers=ann.headers()).get_json()
    play_to_end(http, clock, created)
    before = board(http, day=today)
    assert [entry["name"] for entry in before["results"]] == ["Ann"]
    assert ann.delete("/v1/players/me").status_code == 204
    assert list(redis_client.scan_iter(match=f"tg:{{p:{ann.id}}}:*")) == []  # its deal -> game hash too
    after = board(http, day=today)
    names = [(entry["name"], entry["rank"]) for entry in after["results"]]
    assert names == [("deleted player", entry["rank"]) for entry in before["results"]]
    # all else is as it was; the bots' yardstick is a job of the queue, which may have stored it in between
    assert {**after, "results": None, "bots": None} == {**before, "results": None, "bots": None}

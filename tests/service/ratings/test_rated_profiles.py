"""Ratings where players look for them, black-box: the profile's ratings and history, the leaderboard's /me, and
erasing a player drops them all (issue 29, points 1 and 2)."""

from __future__ import annotations

import secrets

from flask import Flask
from flask.testing import FlaskClient
from gameclient import error_of
from players_client import Player
from rated_games import finished

from service.ratings.scale import NEW


def test_the_profile_carries_each_rated_game_s_rating_and_history(rated_http: FlaskClient) -> None:
    ann, bob = Player(rated_http, "Ann"), Player(rated_http, "Bob")
    assert ann.get("/v1/players/me").get_json()["ratings"] == {}
    first = finished(rated_http, ann, bob)
    second = finished(rated_http, bob, ann)
    profile = rated_http.get(f"/v1/players/{ann.id}").get_json()
    assert list(profile["ratings"]) == ["bataille-corse"]
    mine = profile["ratings"]["bataille-corse"]
    assert mine["games"] == 2 and mine["provisional"] is True
    assert [entry["game_id"] for entry in mine["history"]] == [first["game_id"], second["game_id"]]
    assert [entry["place"] for entry in mine["history"]] == [1, 2]
    assert mine["history"][0]["before"] == NEW and mine["history"][0]["after"] > NEW
    assert mine["history"][1]["before"] == mine["history"][0]["after"] > mine["history"][1]["after"]
    assert mine["rating"] == mine["history"][-1]["after"] == second["outcome"]["ratings"][1]["after"]
    assert ann.get("/v1/players/me").get_json()["ratings"] == profile["ratings"]


def test_my_rank_on_a_leaderboard(rated_app: Flask) -> None:
    http = rated_app.test_client()
    ratings, now_ms = rated_app.extensions["service"].ratings, int(rated_app.extensions["service"].now() * 1000)
    ann, bob, cid = (Player(http, name) for name in ("Ann", "Bob", "Cid"))
    for number in range(40):  # ann wins three games in four against bob: both become established
        ranking = [1, 0] if number % 4 == 3 else [0, 1]
        ratings.rate_game("ninja", secrets.token_hex(8), ranking, [ann.id, bob.id], now_ms)
    finished(http, cid, bob)  # cid's first rated game (of Bataille corse): provisional, off the board
    top = http.get("/v1/leaderboards/ninja").get_json()["players"]
    assert [(entry["player"], entry["name"]) for entry in top] == [(ann.id, "Ann"), (bob.id, "Bob")]
    mine = ann.get("/v1/leaderboards/ninja/me").get_json()
    assert mine == {
        "game": "ninja",
        "player": ann.id,
        "count": 2,
        "rank": 1,
        "rating": top[0]["rating"],
        "provisional": False,
        "games": 40,
    }
    assert bob.get("/v1/leaderboards/ninja/me").get_json()["rank"] == 2
    newcomer = cid.get("/v1/leaderboards/bataille-corse/me").get_json()
    assert newcomer["rank"] is None and newcomer["provisional"] is True and newcomer["games"] == 1
    assert newcomer["rating"] > NEW  # cid won
    assert cid.get("/v1/leaderboards/ninja/me").get_json() == {
        "game": "ninja",
        "player": cid.id,
        "count": 2,
        "rank": None,
        "rating": NEW,
        "provisional": True,
        "games": 0,
    }
    assert error_of(http.get("/v1/leaderboards/ninja/me")) == (401, "invalid_token")
    assert error_of(ann.get("/v1/leaderboards/the-game/me")) == (422, "validation_error")


def test_erasing_a_player_drops_their_ratings_history_and_board_places(rated_app: Flask) -> None:
    http = rated_app.test_client()
    ratings, now_ms = rated_app.extensions["service"].ratings, int(rated_app.extensions["service"].now() * 1000)
    ann, bob = Player(http, "Ann"), Player(http, "Bob")
    for number in range(40):
        ranking = [1, 0] if number % 4 == 3 else [0, 1]
        ratings.rate_game("ninja", secrets.token_hex(8), ranking, [ann.id, bob.id], now_ms)
    game = finished(http, ann, bob)
    assert ann.delete("/v1/players/me").status_code == 204
    assert [entry["player"] for entry in http.get("/v1/leaderboards/ninja").get_json()["players"]] == [bob.id]
    assert ratings.current(ann.id, "ninja").games == 0 and ratings.history(ann.id, "bataille-corse") == []
    outcome = http.get(f"/v1/games/{game['game_id']}").get_json()["outcome"]
    assert [entry["player"] for entry in outcome["ratings"]] == [None, bob.id]  # the change stays, the id goes
    assert bob.get("/v1/players/me").get_json()["ratings"]["bataille-corse"]["games"] == 1

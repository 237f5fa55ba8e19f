"""GET /v1/leaderboards/{game}, black-box: the best established players of a rated game, best first."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import error_of

from service.ratings.scale import NEW


@pytest.fixture
def board_app(make_app: Callable[..., Flask], redis_client: redis.Redis) -> Iterator[Flask]:
    app = make_app(RATINGS_PREFIX=f"test-{secrets.token_hex(6)}:")
    yield app
    boards = app.extensions["service"].ratings.boards
    redis_client.delete(*boards.keys("ninja"))


def test_the_leaderboard_lists_established_players_best_first(board_app: Flask) -> None:
    ratings, now_ms = board_app.extensions["service"].ratings, int(board_app.extensions["service"].now() * 1000)
    strong, weak, newcomer = (secrets.token_urlsafe(12) for _ in range(3))
    for number in range(40):  # strong wins three games in four against weak: both become established
        ranking = [1, 0] if number % 4 == 3 else [0, 1]
        ratings.rate_game("ninja", secrets.token_hex(8), ranking, [strong, weak], now_ms)
    ratings.rate_game("ninja", secrets.token_hex(8), [0, 1], [newcomer, weak], now_ms)
    http: FlaskClient = board_app.test_client()
    answer = http.get("/v1/leaderboards/ninja")
    assert answer.status_code == 200
    body = answer.get_json()
    assert [(entry["rank"], entry["player"]) for entry in body["players"]] == [(1, strong), (2, weak)]
    assert body["players"][0]["rating"] > body["players"][1]["rating"]
    assert body["players"][0]["games"] == 40 and body["players"][1]["games"] == 41
    assert body["count"] == 2 and body["window_days"] == 30 and body["scale"]["new"] == NEW
    assert http.get("/v1/leaderboards/bataille-corse").get_json()["players"] == []


@pytest.mark.parametrize("game", ["the-game", "chess"])
def test_only_rated_games_have_a_leaderboard(http: FlaskClient, game: str) -> None:
    answer = http.get(f"/v1/leaderboards/{game}")
    assert error_of(answer) == (422, "validation_error")
    assert "ninja" in answer.get_json()["errors"]["game"][0]

"""Players through HTTP, for the tests: a player made by ``POST /v1/players`` and calls with its key."""

from __future__ import annotations

import secrets
from typing import Any

from flask.testing import FlaskClient
from gameclient import GameClient, bearer, new_game
from werkzeug.test import TestResponse

#: The one turn of a one-player game of The Game on ``gameclient.stuck_deck()``: it loses the game.
LOST_TURN = {
    "plays": [
        {"card": 99, "pile": "asc1"},
        {"card": 98, "pile": "asc2"},
        {"card": 2, "pile": "desc1"},
        {"card": 3, "pile": "desc2"},
    ],
    "end_turn": True,
}


def from_own_address(http: FlaskClient) -> FlaskClient:
    """``http`` sending from an address of its own: the link codes' tries are counted per address, across every
    test that shares a Redis."""
    http.environ_base["REMOTE_ADDR"] = f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{secrets.randbelow(256)}"
    return http


class Player:
    """A player made over HTTP, and its key (one device)."""

    def __init__(self, http: FlaskClient, name: str = "ann", created: TestResponse | None = None) -> None:
        created = created or http.post("/v1/players", json={"name": name})
        assert created.status_code == 201, created.get_json()
        self.http = http
        self.answer: dict[str, Any] = created.get_json()
        self.id: str = self.answer["player_id"]
        self.key: str = self.answer["key"]

    def headers(self, **more: str) -> dict[str, str]:
        return bearer(self.key, **more)

    def get(self, path: str, **more: str) -> TestResponse:
        return self.http.get(path, headers=self.headers(**more))

    def post(self, path: str, body: Any = None) -> TestResponse:
        return self.http.post(path, json=body, headers=self.headers())

    def delete(self, path: str) -> TestResponse:
        return self.http.delete(path, headers=self.headers())

    def sit(self, game: GameClient, name: str | None = None, **body: Any) -> TestResponse:
        """Take a seat of ``game`` with the key: the seat is bound to the player."""
        return self.http.post(
            f"{game.url}/seats", json={"name": name or self.answer["name"], **body}, headers=self.headers()
        )

    def games(self, **query: Any) -> dict[str, Any]:
        response = self.http.get("/v1/players/me/games", query_string=query, headers=self.headers())
        assert response.status_code == 200, response.get_json()
        body: dict[str, Any] = response.get_json()
        return body


def seated(http: FlaskClient, player: Player, players: int = 1, **body: Any) -> GameClient:
    """A new lobby in which ``player`` holds seat 0 (by its key) and anonymous people the other seats."""
    game = new_game(http, players=players, **body)
    assert player.sit(game, seat=0).status_code == 201
    for seat in range(1, players):
        assert game.seat(f"p{seat}", seat=seat).status_code == 201
    return game

"""Play now through HTTP, for the tests: an app with a pool of its own, seekers with player keys."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse


def own_pool(make_app: Callable[..., Flask], **config: Any) -> FlaskClient:
    """A client of an app whose Play now keys are its own (a hash tag of their own in a shared Redis)."""
    return make_app(PAIRING_PREFIX=f"tg:{{pairing-{secrets.token_hex(6)}}}", **config).test_client()


class Seeker:
    """A player (made over HTTP) who presses Play now."""

    def __init__(self, http: FlaskClient, name: str = "ann") -> None:
        made = http.post("/v1/players", json={"name": name})
        assert made.status_code == 201, made.get_json()
        self.http, self.id, self.key = http, made.get_json()["player_id"], made.get_json()["key"]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    def seek(self, game: str = "ninja", players: int = 2, **more: Any) -> TestResponse:
        return self.http.post("/v1/pairing", json={"game": game, "players": players, **more}, headers=self.auth)

    def seated(self, game: str = "ninja", players: int = 2, **more: Any) -> dict[str, Any]:
        answer = self.seek(game, players, **more)
        assert answer.status_code in (200, 201), answer.get_json()
        return answer.get_json()  # type: ignore[no-any-return]

    def stop(self) -> TestResponse:
        return self.http.delete("/v1/pairing", headers=self.auth)

    def view(self, game_id: str) -> dict[str, Any]:
        answer = self.http.get(f"/v1/games/{game_id}", headers=self.auth)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()  # type: ignore[no-any-return]

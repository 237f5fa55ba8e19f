"""Helpers for the lobby list tests: an app with its own lobby index and a clock the test moves."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, new_game


class Lobbies:
    """One app whose lobby index no other test (or engineer's run on the shared Redis) writes to."""

    def __init__(self, make_app: Callable[..., Flask]) -> None:
        self.clock = FakeClock()
        self.prefix = f"tg:{{lobby-test-{secrets.token_hex(8)}}}"
        self.app = make_app(LOBBY_INDEX_KEY=self.prefix, CLOCK=self.clock, BOT_DECISIONS=100_000)  # bots finish at once
        self.http: FlaskClient = self.app.test_client()

    def create(self, public: bool = True, **body: Any) -> GameClient:
        self.clock.now += 1
        return new_game(self.http, public=public, **body)

    def page(self, **query: Any) -> dict[str, Any]:
        response = self.http.get("/v1/games", query_string=query)
        assert response.status_code == 200, response.get_json()
        return response.get_json()  # type: ignore[no-any-return]

    def listed(self, **query: Any) -> list[str]:
        """Every listed game id, following the cursors."""
        ids: list[str] = []
        cursor = None
        while True:
            page = self.page(**query, **({"cursor": cursor} if cursor else {}))
            ids += [game["game_id"] for game in page["games"]]
            cursor = page["next"]
            if cursor is None:
                return ids

    def index_sizes(self) -> dict[str, int]:
        """Entries per index key, read straight from the store."""
        client = self.app.extensions["service"].store.client
        keys = [key.decode() for key in client.scan_iter(match=self.prefix.replace("{", "[{]") + ":*")]
        return {key.removeprefix(self.prefix + ":"): client.zcard(key) for key in keys}

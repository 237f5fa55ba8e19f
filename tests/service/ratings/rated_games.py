"""Rated games through HTTP, for the tests: a lobby of Bataille corse whose winner the test chooses."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from gameclient import bearer
from players_client import Player

from thegame_core.games.bataille_corse.cards import PLAIN_DECK

#: Seat 0 flips 7H, seat 1 flips 7D: a double, which the seat that slaps first wins.
DECK = ["7H", "7D", *(name for name in PLAIN_DECK if name not in ("7H", "7D"))]
#: Flips after which the game ends, ranked by cards held: the double's winner holds more.
MAX_FLIPS = 6


class RatedGame:
    """A rated two-seat game of Bataille corse: ``players[seat]`` holds each seat by its key."""

    def __init__(self, http: FlaskClient, players: list[Player]) -> None:
        body = {"game": "bataille-corse", "players": 2, "rated": True, "deck": DECK}
        created = http.post("/v1/games", json={**body, "options": {"max_flips": MAX_FLIPS}})
        assert created.status_code == 201, created.get_json()
        self.http, self.players = http, players
        self.id, self.host = created.get_json()["game_id"], created.get_json()["host_token"]
        self.url = f"/v1/games/{self.id}"
        for seat, player in enumerate(players):
            assert player.sit(self, seat=seat).status_code == 201

    def start(self) -> dict[str, Any]:
        started = self.http.post(f"{self.url}/start", json={"first_seat": 0}, headers=bearer(self.host))
        assert started.status_code == 200, started.get_json()
        return started.get_json()

    def act(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        answer = self.players[seat].post(f"{self.url}/actions", action)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    def play(self, winner: int) -> dict[str, Any]:
        """Start and play to the end, ``winner`` taking the double: the final view of the last seat to act."""
        self.start()
        self.act(0, {"type": "flip"})
        self.act(1, {"type": "flip"})
        view = self.act(winner, {"type": "slap", "pile_version": 2})
        while view["status"] == "playing":
            view = self.act(view["current_seat"], {"type": "flip"})
        return view


def finished(http: FlaskClient, winner: Player, loser: Player, winner_seat: int = 0) -> dict[str, Any]:
    """A finished rated game that ``winner`` won: its final view (as its last actor saw it)."""
    players = [winner, loser] if winner_seat == 0 else [loser, winner]
    return RatedGame(http, players).play(winner_seat)

"""Rated games through HTTP, for the tests: a lobby of Bataille corse whose winner the test chooses."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from gameclient import bearer
from players_client import Player

#: One flip ends the game (its flip limit), ranked by cards held: the seat that did not flip holds more, whatever the
#: (secret) deal.
MAX_FLIPS = 1


class RatedGame:
    """A rated two-seat game of Bataille corse: ``players[seat]`` holds each seat by its key."""

    def __init__(self, http: FlaskClient, players: list[Player]) -> None:
        body = {"game": "bataille-corse", "players": 2, "rated": True}
        created = http.post("/v1/games", json={**body, "options": {"max_flips": MAX_FLIPS}})
        assert created.status_code == 201, created.get_json()
        self.http, self.players = http, players
        self.id, self.host = created.get_json()["game_id"], created.get_json()["host_token"]
        self.url = f"/v1/games/{self.id}"
        for seat, player in enumerate(players):
            assert player.sit(self, seat=seat).status_code == 201

    def start(self, first_seat: int = 0) -> dict[str, Any]:
        started = self.http.post(f"{self.url}/start", json={"first_seat": first_seat}, headers=bearer(self.host))
        assert started.status_code == 200, started.get_json()
        return started.get_json()

    def act(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        answer = self.players[seat].post(f"{self.url}/actions", action)
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()

    def play(self, winner: int) -> dict[str, Any]:
        """Start and play to the end, ``winner`` holding more cards: the other seat's final view."""
        self.start(first_seat=1 - winner)
        view = self.act(1 - winner, {"type": "flip"})
        assert view["status"] == "finished" and view["outcome"]["ranking"] == [winner, 1 - winner], view["outcome"]
        return view


def finished(http: FlaskClient, winner: Player, loser: Player, winner_seat: int = 0) -> dict[str, Any]:
    """A finished rated game that ``winner`` won: its final view (as its last actor saw it)."""
    players = [winner, loser] if winner_seat == 0 else [loser, winner]
    return RatedGame(http, players).play(winner_seat)

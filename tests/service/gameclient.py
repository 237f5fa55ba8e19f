"""A thin HTTP client for the tests: every call goes through the Flask test client (black box)."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

SORTED_DECK = list(range(2, 100))


def stuck_deck() -> list[int]:
    """One player: 99, 98 up and 2, 3 down close every pile to the middle cards dealt with them; the
    backwards cards (88, 89, 12, 13) come last, so the next turn starts without a legal play."""
    first = [99, 98, 2, 3, 50, 51, 52, 53]
    last = [88, 89, 12, 13]
    return first + [card for card in SORTED_DECK if card not in first + last] + last


class FakeClock:
    """The app's ``CLOCK`` for tests that move time by hand (epoch seconds)."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def bearer(token: str | None, **headers: str) -> dict[str, str]:
    return {**headers, **({"Authorization": f"Bearer {token}"} if token else {})}


class GameClient:
    """One game seen through HTTP: ids and tokens, and a method per endpoint."""

    def __init__(self, http: FlaskClient, created: TestResponse) -> None:
        assert created.status_code == 201, created.get_json()
        self.http = http
        self.game_id: str = created.get_json()["game_id"]
        self.host: str = created.get_json()["host_token"]
        self.tokens: dict[int, str] = {}

    @property
    def url(self) -> str:
        return f"/v1/games/{self.game_id}"

    def seat(self, name: str = "ann", token: str | None = None, **body: Any) -> TestResponse:
        response = self.http.post(f"{self.url}/seats", json={"name": name, **body}, headers=bearer(token))
        if response.status_code == 201 and response.get_json()["token"]:
            self.tokens[response.get_json()["seat"]] = response.get_json()["token"]
        return response

    def fill(self) -> None:
        players = self.view(Authorization=f"Bearer {self.host}").get_json()["players"]  # even without spectators
        for seat in range(len(self.tokens), players):
            assert self.seat(f"player{seat}").status_code == 201

    def start(self, **body: Any) -> TestResponse:
        return self.http.post(f"{self.url}/start", json=body, headers=bearer(self.host))

    def view(self, seat: int | None = None, **headers: str) -> TestResponse:
        return self.http.get(self.url, headers=bearer(self.tokens.get(seat) if seat is not None else None, **headers))

    def post(self, path: str, seat: int, body: Any = None, **headers: str) -> TestResponse:
        return self.http.post(f"{self.url}/{path}", json=body, headers=bearer(self.tokens[seat], **headers))

    def play(self, seat: int, card: int, pile: str, **headers: str) -> TestResponse:
        return self.post("plays", seat, {"card": card, "pile": pile}, **headers)

    def end_turn(self, seat: int, **headers: str) -> TestResponse:
        return self.post("turn/end", seat, **headers)

    def turn(self, seat: int, plays: list[tuple[int, str]], end_turn: bool = True, **headers: str) -> TestResponse:
        body = {"plays": [{"card": card, "pile": pile} for card, pile in plays], "end_turn": end_turn}
        return self.post("turns", seat, body, **headers)

    def signal(self, seat: int, pile: str, kind: str, **extra: Any) -> TestResponse:
        return self.post("signals", seat, {"pile": pile, "kind": kind, **extra})

    def log(self) -> TestResponse:
        return self.http.get(f"{self.url}/log")


def new_game(http: FlaskClient, **body: Any) -> GameClient:
    return GameClient(http, http.post("/v1/games", json={"players": 1, **body}))


def started(http: FlaskClient, **body: Any) -> GameClient:
    """A game with every seat taken by a human, started at seat 0."""
    game = new_game(http, **body)
    game.fill()
    assert game.start(first_seat=0).status_code == 200
    return game


def tagged(tag: str, version: int, quoted: bool = True) -> bool:
    """Whether ``tag`` (an ETag, or unquoted an event id) names ``version`` with a write's nonce."""
    text = rf"{version}\.[0-9a-f]{{8}}"
    return re.fullmatch(rf'"{text}"' if quoted else text, tag) is not None


def error_of(response: TestResponse) -> tuple[int, str]:
    return response.status_code, response.get_json()["error"]


#: More reads than any game of bots needs to be played out, TG_BOT_DECISIONS decisions at a time.
MAX_READS = 500


def played_out(game: GameClient) -> dict[str, Any]:
    """The public view once the bots have played the game to its end: each read applies what fell due, up to
    the bot work one request may do (bots that act at once: the clock need not move)."""
    for _ in range(MAX_READS):
        view: dict[str, Any] = game.view().get_json()
        if view["status"] != "playing":
            return view
    raise AssertionError(f"still playing after {MAX_READS} reads")


def without_results(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer to actions as a view: the same, without what only the answer says (``results``)."""
    return {key: value for key, value in answer.items() if key != "results"}

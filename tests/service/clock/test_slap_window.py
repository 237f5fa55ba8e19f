"""Bataille corse's collection window over HTTP: a slap on the current pile is answered ``pending`` and stamped
with the request's arrival; the clock judges the window when it closes (earliest received first), with nobody
sending anything; a bot's slap is received at its due time; clients cannot send the time nor the judge.

Seat 0 (Ann) flips 7H, then seat 1 flips 7D: a double. Time moves by hand (``FakeClock``) except in the last test,
where the real clock runner closes the window by itself while a stream watches."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from events_reader import EventReader
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, error_of, new_game

from thegame_core.games.bataille_corse.bots import FLIP_PAUSE_MS
from thegame_core.games.bataille_corse.cards import PLAIN_DECK

DECK = ["7H", "7D", *(name for name in PLAIN_DECK if name not in ("7H", "7D"))]
WINDOW_MS = 100


def doubled(http: FlaskClient, bot: bool = False, window_ms: int = WINDOW_MS) -> GameClient:
    """Two seats (seat 1 a ``best`` bot paced at 500 ms if ``bot``), 7H flipped, then 7D by the person (the bot
    flips at its pace and a flip's pause: the test moves the clock)."""
    game = new_game(http, game="bataille-corse", players=2, deck=DECK, options={"slap_window_ms": window_ms})
    assert game.seat("ann", seat=0).status_code == 201
    second = {"token": game.host, "bot": "best", "reaction_ms": 500, "reaction_spread_ms": 0} if bot else {}
    assert game.seat("bob", seat=1, **second).status_code == 201
    assert game.start(first_seat=0).status_code == 200
    assert game.post("actions", 0, {"type": "flip"}).status_code == 200
    if not bot:
        assert game.post("actions", 1, {"type": "flip"}).status_code == 200
    return game


def slap(game: GameClient, seat: int) -> Any:
    return game.post("actions", seat, {"type": "slap", "pile_version": 2}).get_json()


def judged(game: GameClient) -> list[dict[str, Any]]:
    """The results of the log's judge entries, oldest first."""
    return [entry["results"] for entry in game.log().get_json()["entries"] if entry["type"] == "judge"]


def test_a_slap_is_pending_until_the_clock_closes_its_window(timed: FlaskClient, clock: FakeClock) -> None:
    game = doubled(timed)
    answer = slap(game, 1)
    assert answer["results"] == [{"type": "slap", "result": "pending"}]
    assert answer["slap_window"] == {"closes_at": int(clock.now * 1000) + WINDOW_MS, "slaps": [1]}
    assert answer["current_seat"] is None and answer["legal_actions"] == []
    clock.advance(0.05)
    assert slap(game, 0)["results"] == [{"type": "slap", "result": "pending"}]
    assert judged(game) == []
    clock.advance(0.06)  # past the close: the next read judges it, as a timer firing on time would have
    view = game.view(0).get_json()
    assert view["slap_window"] is None and view["current_seat"] == 1
    assert judged(game) == [[{"seat": 1, "result": "valid"}, {"seat": 0, "result": "stale"}]]
    entries = game.log().get_json()["entries"]
    assert [(entry["type"], entry["bot"]) for entry in entries[-3:]] == [
        ("slap", False),
        ("slap", False),
        ("judge", False),
    ]
    assert entries[-3]["at"] + 50 == entries[-2]["at"]  # the server's receive times, in the log


def test_nobody_flips_while_the_window_is_open_and_a_slap_after_it_is_a_new_race(
    timed: FlaskClient, clock: FakeClock
) -> None:
    game = new_game(timed, game="bataille-corse", players=2, deck=DECK, options={"slap_window_ms": WINDOW_MS})
    game.fill()
    assert game.start(first_seat=0).status_code == 200
    assert game.post("actions", 0, {"type": "flip"}).status_code == 200  # 7H alone: a slap is false
    assert game.post("actions", 0, {"type": "slap", "pile_version": 1}).status_code == 200
    assert error_of(game.post("actions", 1, {"type": "flip"})) == (422, "slap_window_open")
    assert error_of(game.post("actions", 0, {"type": "slap", "pile_version": 1})) == (422, "already_slapped")
    clock.advance(WINDOW_MS / 1000)
    again = game.post("actions", 0, {"type": "slap", "pile_version": 1}).get_json()
    assert again["results"] == [{"type": "slap", "result": "pending"}]
    assert judged(game) == [[{"seat": 0, "result": "false"}]]


def test_a_bot_slap_is_received_at_its_due_time(timed: FlaskClient, clock: FakeClock) -> None:
    """The bot flipped 7D and slaps it 500 ms later; a person's slap 60 ms after that is gathered, and loses."""
    game = doubled(timed, bot=True)
    clock.advance(0.5 + FLIP_PAUSE_MS / 1000)
    assert game.view(0).get_json()["pile"] == ["7H", "7D"]  # the bot flipped at its pace and a flip's pause
    clock.advance(0.5 + 0.06)
    assert slap(game, 0)["results"] == [{"type": "slap", "result": "pending"}]
    clock.advance(0.05)
    assert judged(game) == [[{"seat": 1, "result": "valid"}, {"seat": 0, "result": "stale"}]]


def test_clients_send_neither_the_time_nor_the_judge(timed: FlaskClient) -> None:
    game = doubled(timed)
    forged = game.post("actions", 0, {"type": "slap", "pile_version": 2, "at": 0})
    assert error_of(forged) == (422, "validation_error")
    assert error_of(game.post("actions", 0, {"type": "judge"})) == (422, "invalid_action")


def test_the_clock_runner_closes_the_window_while_a_stream_watches(make_app: Callable[..., Any]) -> None:
    """Real time and the real clock runner: after the slap nobody sends anything, and the stream shows the judge."""
    app = make_app()
    game = doubled(app.test_client(), window_ms=200)
    views: list[dict[str, Any]] = []
    judged_at = game.view().get_json()["version"] + 2  # the slap, then the judge

    def watch() -> None:
        stream = app.test_client().get(f"{game.url}/events", buffered=False)
        try:
            for event in EventReader(stream.response).until(judged_at):
                views.append(event.view)
        finally:
            stream.close()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    assert slap(game, 0)["results"] == [{"type": "slap", "result": "pending"}]
    watcher.join(timeout=10)
    assert not watcher.is_alive()
    assert views[-1]["slap_window"] is None and views[-1]["seats"][0]["packet"] == 25 + 2
    assert judged(game) == [[{"seat": 0, "result": "valid"}]]
    assert app.extensions["service"].runner.counts.ran >= 1  # the runner wrote the judge: no request did

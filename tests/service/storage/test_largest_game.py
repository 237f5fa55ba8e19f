"""The largest game a table can play, stored by the service: 10,000 flips of Bataille corse at 8 seats, 4 people and
4 bots, every seat slapping every combination through a collection window (the core's ``largest_game``). Who made
each action (person, bot, a bot standing in, the referee) is kept per seat, so the record stays under the 64 KiB a
game may take however the people's and the bots' actions alternate, and the game plays on to its end."""

from __future__ import annotations

import json
from typing import Any

import redis
from flask.testing import FlaskClient
from gameclient import FakeClock, new_game

from service.clock.schedule import changed
from service.config import MAX_GAME_BYTES
from service.records.timing import AUTO, BOT, OWNER, TIMER
from service.storage.store import Change, game_key
from tests.games.bataille_corse.helpers import largest_game

PEOPLE = range(4)  # seats 4 to 7 are bots
SLOW_BOT_MS = 60_000  # the bots are due only when the test moves the clock on


def mark_of(seat: int | None, number: int) -> str:
    """Who made the ``number``-th action: the referee's judge, a bot seat, or a person (now and then a bot standing
    in for a person who missed a deadline)."""
    if seat is None:
        return TIMER
    if seat not in PEOPLE:
        return BOT
    return AUTO if number % 97 == 0 else OWNER


def test_the_largest_game_with_people_and_bots_fits_and_plays_on(
    timed: FlaskClient, clock: FakeClock, redis_client: redis.Redis
) -> None:
    options = {"penalty_count": 0, "slap_window_ms": 100}
    game = new_game(timed, game="bataille-corse", players=8, seed=4, options=options)
    for seat in range(8):
        body: dict[str, Any] = {"seat": seat}
        if seat not in PEOPLE:
            body |= {"token": game.host, "bot": "best", "reaction_ms": SLOW_BOT_MS, "reaction_spread_ms": 0}
        assert game.seat(f"p{seat}", **body).status_code == 201
    assert game.start(first_seat=0).status_code == 200
    store = timed.application.extensions["service"].store
    record = store.load(game.game_id).record()
    assert record.state is not None
    marks: list[tuple[int, str]] = []  # (the seat the log files it under, the mark) of every action
    for number, (seat, state) in enumerate(largest_game(record.state, until_flips=9_999)):
        mark = mark_of(seat, number)
        record = changed(record.with_state(state), record.state, seat, mark, clock())
        marks.append((state.history[-1].seat, mark))
    store.transact(game.game_id, None, lambda _: Change(None, record.fields(), 600))  # the store's size bound holds
    for _ in range(20):  # the 10,000th flip: a person's, or a bot's once its pace has passed
        view = game.view().get_json()
        if view["status"] != "playing":
            break
        if view["current_seat"] in PEOPLE:
            assert game.post("actions", view["current_seat"], {"type": "flip"}).status_code == 200
        else:
            clock.advance(SLOW_BOT_MS / 1000)
    assert view["status"] == "finished" and view["outcome"]["reason"] == "flip_limit"
    assert view["flips"] == 10_000
    stored = redis_client.hgetall(game_key(game.game_id))
    assert sum(len(name) + len(value) for name, value in stored.items()) < MAX_GAME_BYTES
    stored_marks = json.loads(stored[b"meta"])["clock"]["k"]
    assert len(json.dumps(stored_marks)) < 2_000  # the marks are a few bytes a seat, not two bytes an action
    entries = game.log().get_json()["entries"]
    assert len(entries) > 25_000
    expected = [(seat, mark in (BOT, AUTO), mark == AUTO) for seat, mark in marks]
    assert [(entry["seat"], entry["bot"], entry["auto"]) for entry in entries[: len(marks)]] == expected
    assert all(entry["bot"] == (entry["seat"] not in PEOPLE) for entry in entries[len(marks) :])

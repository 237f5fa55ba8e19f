"""One clock runner per game: streams only read; the due work of a watched game runs once, in one process at a
time (its lease in Redis), so a crowd of spectators costs its players nothing: no rejected writes, no bot decision
computed twice, every version reaching every stream in order."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from events_reader import EventReader
from flask import Flask
from gameclient import FakeClock
from servers import under_gevent

from service.clock import runner
from service.clock.runner import LEASE_MS, LONGEST_SLEEP, lease_key

STREAMS_PER_PROCESS = 8
MOVES = 12  # versions after the start that every stream must see
#: A bot's wait for its due time after deciding, and how far ahead the runner decides in that test (well over it).
WAIT, AHEAD = 2.0, 3.0


def bot_game(app: Flask, reaction_ms: int) -> tuple[str, int]:
    """A started game of The Game between two paced bots: its id and its version at the start."""
    http = app.test_client()
    created = http.post("/v1/games", json={"game": "the-game", "players": 2, "seed": 7}).get_json()
    host = {"Authorization": f"Bearer {created['host_token']}"}
    for name in ("ada", "bob"):
        body = {"name": name, "bot": "greedy", "reaction_ms": reaction_ms}
        assert http.post(f"/v1/games/{created['game_id']}/seats", json=body, headers=host).status_code == 201
    started = http.post(f"/v1/games/{created['game_id']}/start", json={}, headers=host).get_json()
    return created["game_id"], started["version"]


def follow(app: Flask, game_id: str, until: int, seen: list[list[int]]) -> Callable[[], None]:
    """A thread's work: read the game's public stream until version ``until``, noting each version received."""

    def read() -> None:
        answer = app.test_client().get(f"/v1/games/{game_id}/events", buffered=False)
        versions: list[int] = []
        try:
            for event in EventReader(answer.response).until(until):
                versions.append(event.data["version"])
        finally:
            seen.append(versions)
            answer.close()

    return read


@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="two processes' apps share a store only through Redis (fakeredis runs a script's commands one by one "
    "under threads): set REDIS_URL (CI does)",
)
def test_spectators_in_two_processes_never_race_the_clock(make_app: Callable[..., Any]) -> None:
    one, two = make_app(), make_app()  # two processes' apps sharing one Redis
    game_id, start = bot_game(one, reaction_ms=50)
    seen: list[list[int]] = []
    threads = [
        threading.Thread(target=follow(app, game_id, start + MOVES, seen), daemon=True)
        for app in (one, two)
        for _ in range(STREAMS_PER_PROCESS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(seen) == 2 * STREAMS_PER_PROCESS
    for versions in seen:  # every stream saw every version, in order, from the first one it was shown
        assert versions == list(range(versions[0], versions[0] + len(versions))) and versions[-1] >= start + MOVES
    stores = [app.extensions["service"].store for app in (one, two)]
    runners = [app.extensions["service"].runner for app in (one, two)]
    assert sum(store.rejected for store in stores) == 0  # one writer at a time: no write lost a race

    def written() -> int:
        return max(version for runner in runners for _, version, _ in runner.counts.applied)

    counted_by = time.monotonic() + 5  # a runner counts its write just after it (a stream may read it first)
    while written() < start + MOVES and time.monotonic() < counted_by:
        time.sleep(0.01)
    assert written() >= start + MOVES  # the runners wrote the moves the streams saw; the streams only read
    assert stores[0].client.pttl(lease_key(game_id)) <= LEASE_MS  # gone, or held for a while: never forever


def test_a_read_of_an_unwatched_game_applies_what_fell_due(make_app: Callable[..., Any]) -> None:
    """Nobody watches: nothing runs in the background, and a GET catches the game up as a timer would have."""
    app = make_app()
    game_id, start = bot_game(app, reaction_ms=0)
    view = app.test_client().get(f"/v1/games/{game_id}").get_json()
    assert view["version"] > start
    assert app.extensions["service"].runner.counts.ran == 0


def test_a_read_enlists_no_game_in_the_background(make_app: Callable[..., Any]) -> None:
    """A GET of a game whose bots are due later does not make its process run the game on: only streams enlist a
    game, so a game nobody watches costs no CPU until it is next read."""
    clock = FakeClock(time.time())
    app = make_app(CLOCK=clock)
    game_id, start = bot_game(app, reaction_ms=500)
    assert app.test_client().get(f"/v1/games/{game_id}").get_json()["version"] == start  # nothing due yet
    clock.advance(1)  # the bots' moves fall due; a runner that had the game would run it within LONGEST_SLEEP
    time.sleep(LONGEST_SLEEP + 0.2)
    assert app.extensions["service"].store.load(game_id).record().version == start
    assert app.extensions["service"].runner.counts.ran == 0


def test_a_decision_made_ahead_waits_for_its_time_without_holding_the_other_games(
    make_app: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two watched games whose bots are due at the same moment, decided well ahead of it: the runner decides the
    second while the first waits for its time (both runs have begun before either game is written), and both are
    then written. A runner that waited out each decision's time before the next one began the second only once the
    first was written, a whole wait late."""
    monkeypatch.setattr(runner, "DECIDE_AHEAD", AHEAD)
    clock = FakeClock(time.time())  # still: each run waits ``WAIT`` seconds of real time for its due time
    app = make_app(CLOCK=clock)
    games = [bot_game(app, reaction_ms=int(WAIT * 1000)) for _ in range(2)]
    streams = [app.test_client().get(f"/v1/games/{game_id}/events", buffered=False) for game_id, _ in games]
    try:
        for answer in streams:  # each game enlisted by its stream
            EventReader(answer.response).next_event()
        counts, store = app.extensions["service"].runner.counts, app.extensions["service"].store
        for _ in range(int(WAIT * 100)):
            if counts.ran == 2:
                break
            time.sleep(0.01)
        assert counts.ran == 2, "the second game's run did not begin while the first waited"
        assert [store.load(game_id).record().version for game_id, _ in games] == [start for _, start in games]
        deadline = time.monotonic() + 10 * WAIT
        while len(counts.applied) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sorted(game_id for game_id, *_ in counts.applied[:2]) == sorted(game_id for game_id, _ in games)
    finally:
        for answer in streams:
            answer.close()


def test_a_bot_s_decision_under_gevent_lets_the_process_s_other_greenlets_run() -> None:
    """In a gevent worker a bot's decision, pure CPU, is made in a thread: a greenlet ready as it begins (a stream's
    write, another game's due move) runs before the decision ends, not after it."""
    assert under_gevent("decision", 5) == ["other greenlet", "decision"]

"""``GET /v1/games/{id}/analysis``: readable as the log is, once the game is over; the first request answers ``202``
and puts the analysis's parts on the job queue, later ones ``202`` (how far, the queue position, the time left) until
it is stored, then ``200`` with the analysis that ``thegame_core.analysis.analyse`` gives offline on the log's
replay; it is queued once whatever the number of processes; starting one is rate-limited per address; the analysis
expires with its game. Here the jobs run in a thread of the app that sent them (``tests/service/jobs`` runs worker
processes)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, bearer, error_of, played_out
from test_bots import with_bots
from test_web import finished_game

from service.analysis.store import analysis_key
from service.analysis.work import BOT, seed_of
from service.storage.store import game_key
from thegame_core.analysis import DEFAULT_HORIZON, analyse

ROLLOUTS = 2
#: These games take a fraction of a second to analyse.
FAST = {"ANALYSIS_ROLLOUTS": ROLLOUTS}
WAIT = 60  # seconds an analysis may take on a loaded machine before a test gives up


@pytest.fixture
def analysing(make_app: Callable[..., Flask]) -> FlaskClient:
    return make_app(**FAST).test_client()


def ended(http: FlaskClient, **create: Any) -> tuple[str, str]:
    """A finished game (The Game, one seat, lost after its first turn): its id and seat token."""
    game, seat, _ = finished_game(http, **create)
    assert http.post(f"/v1/games/{game}/turn/end", headers=bearer(seat)).json["status"] == "lost"  # type: ignore[index]
    return game, seat


def analysis_of(http: FlaskClient, game: str, **headers: str) -> dict[str, Any]:
    """Poll the analysis as a client does, until it is stored."""
    ends = time.monotonic() + WAIT
    while time.monotonic() < ends:
        answer = http.get(f"/v1/games/{game}/analysis", headers=headers)
        if answer.status_code == 200:
            return answer.json  # type: ignore[no-any-return]
        assert answer.status_code == 202, answer.json
        time.sleep(0.02)
    raise AssertionError(f"no analysis of {game} within {WAIT} s")


def test_the_first_request_starts_it_then_the_stored_analysis_is_the_offline_one(analysing: FlaskClient) -> None:
    game, _ = ended(analysing)
    first = analysing.get(f"/v1/games/{game}/analysis")
    assert first.status_code == 202
    assert first.headers["Location"] == f"/v1/games/{game}/analysis" and int(first.headers["Retry-After"]) >= 1
    assert (
        first.json is not None
        and first.json["status"] == "pending"
        and set(first.json) == {"status", "done", "total", "queue_position", "eta_s"}
    )
    assert first.json["total"] == 1 and first.json["done"] in (0, 1)  # one decision: the seat's only turn
    stored = analysis_of(analysing, game)
    replay = analysing.get(f"/v1/games/{game}/log").json["replay"]  # type: ignore[index]
    assert stored == analyse(replay, BOT, ROLLOUTS, seed_of(game)).to_dict()
    assert stored["horizon"] is None  # The Game has no estimate: its playouts run to the end
    assert stored["decisions"][0]["played"] == replay["actions"][: stored["decisions"][0]["end"]]
    assert analysing.get(f"/v1/games/{game}/analysis").json == stored  # later reads: the stored answer


def test_it_is_read_as_the_log_is_and_only_once_the_game_is_over(analysing: FlaskClient) -> None:
    game, seat, _ = finished_game(analysing, spectators=False)
    assert error_of(analysing.get(f"/v1/games/{game}/analysis", headers=bearer(seat))) == (409, "game_not_over")
    analysing.post(f"/v1/games/{game}/turn/end", headers=bearer(seat))
    assert error_of(analysing.get(f"/v1/games/{game}/analysis")) == (403, "forbidden")
    assert error_of(analysing.get(f"/v1/games/{game}/analysis", headers=bearer("x" * 43))) == (401, "invalid_token")
    assert error_of(analysing.get("/v1/games/nope/analysis")) == (404, "unknown_game")
    assert analysis_of(analysing, game, **bearer(seat))["game"] == "the-game"


def test_one_process_works_a_game_out_and_both_answer_it(make_app: Callable[..., Flask]) -> None:
    apps = [make_app(**FAST), make_app(**FAST)]  # two processes on one store and one queue
    clients = [app.test_client() for app in apps]
    game, _ = ended(clients[0])
    assert [client.get(f"/v1/games/{game}/analysis").status_code for client in clients] in ([202, 202], [202, 200])
    answers = [analysis_of(client, game) for client in clients]
    assert answers[0] == answers[1]
    assert sum(app.extensions["service"].analyses.worked for app in apps) == 1


def test_a_long_game_is_split_into_parts_put_together_as_the_offline_analysis(make_app: Callable[..., Flask]) -> None:
    """Three parts over a game of several decisions: each part takes every third decision, the last one done puts
    them together, in order, once."""
    http = make_app(**FAST, ANALYSIS_PARTS=3).test_client()
    bots = with_bots(http, 0, ["greedy", "greedy"], seed=8)
    bots.start()
    played_out(bots)
    game = bots.game_id
    first = http.get(f"/v1/games/{game}/analysis").json
    stored = analysis_of(http, game)
    replay = http.get(f"/v1/games/{game}/log").json["replay"]  # type: ignore[index]
    assert stored == analyse(replay, BOT, ROLLOUTS, seed_of(game)).to_dict()
    assert first is not None and first["total"] == len(stored["decisions"]) > 3


def test_the_pending_answer_says_the_queue_position_and_the_time_left(make_app: Callable[..., Flask]) -> None:
    """With no worker running yet, a second analysis waits behind the first (position 1); the seconds left are
    unknown until a worker has measured that game's pace, then known."""
    app = make_app(**FAST, QUEUE_THREAD=False)
    http = app.test_client()
    first, second = ended(http)[0], ended(http)[0]
    assert http.get(f"/v1/games/{first}/analysis").json["queue_position"] == 0  # type: ignore[index]
    waiting = http.get(f"/v1/games/{second}/analysis").json
    assert waiting is not None and waiting["queue_position"] == 1 and waiting["eta_s"] is None
    jobs = app.extensions["service"].jobs
    worker = jobs.worker()
    worker.start()
    try:
        analysis_of(http, first), analysis_of(http, second)
        queue = app.extensions["service"].analyses.queue
        for _ in range(WAIT * 50):  # stored, then off the queue
            if not (queue.waiting(first) or queue.waiting(second)):
                break
            time.sleep(0.02)
        third = ended(http)[0]
        pending = http.get(f"/v1/games/{third}/analysis").json
        assert pending is not None and pending["queue_position"] == 0 and pending["eta_s"] is not None
        analysis_of(http, third)
    finally:
        worker.stop()


def test_the_analysis_expires_with_its_game(analysing: FlaskClient, redis_client: redis.Redis) -> None:
    game, _ = ended(analysing)
    analysis_of(analysing, game)
    game_ttl, analysis_ttl = redis_client.pttl(game_key(game)), redis_client.pttl(analysis_key(game))
    assert game_ttl - 1000 < analysis_ttl <= game_ttl + 2  # both end at one instant (to Redis's rounding of ms)


def test_starting_analyses_is_limited_per_address(make_app: Callable[..., Flask], redis_client: redis.Redis) -> None:
    prefix = f"test-analysis-{secrets.token_hex(8)}:"
    http = make_app(
        **FAST, LIMITS=True, LIMITS_PREFIX=prefix, LIMITS_CLOCK=FakeClock(), ANALYSIS_RATE=(1, 600), MAX_GAMES=0
    ).test_client()
    http.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    first, second = ended(http)[0], ended(http)[0]
    assert http.get(f"/v1/games/{first}/analysis").status_code == 202
    analysis_of(http, first)  # polls of an analysis under way or stored cost nothing
    refused = http.get(f"/v1/games/{second}/analysis")
    assert error_of(refused) == (429, "rate_limited") and int(refused.headers["Retry-After"]) == 600
    http.environ_base["REMOTE_ADDR"] = "192.0.2.8"  # another address has its own budget
    assert http.get(f"/v1/games/{second}/analysis").status_code == 202
    redis_client.delete(f"{prefix}rate:{{analysis:a:192.0.2.7}}", f"{prefix}rate:{{analysis:a:192.0.2.8}}")


def test_a_game_that_estimates_says_its_horizon(analysing: FlaskClient) -> None:
    """Bataille corse's playouts stop 100 actions after the choice (its estimate counts then), and its analysis
    says so."""
    host = analysing.post("/v1/games", json={"game": "bataille-corse", "players": 2, "options": {"max_flips": 2}}).json
    game = host["game_id"]  # type: ignore[index]
    seats = [analysing.post(f"/v1/games/{game}/seats", json={"name": f"P{n}", "seat": n}).json["token"] for n in (0, 1)]  # type: ignore[index]
    analysing.post(f"/v1/games/{game}/start", json={}, headers=bearer(host["host_token"]))
    while (state := analysing.get(f"/v1/games/{game}").json)["status"] != "finished":  # type: ignore[index]
        analysing.post(f"/v1/games/{game}/actions", json={"type": "flip"}, headers=bearer(seats[state["current_seat"]]))
    stored = analysis_of(analysing, game)
    replay = analysing.get(f"/v1/games/{game}/log").json["replay"]  # type: ignore[index]
    assert stored["horizon"] == DEFAULT_HORIZON == 100
    assert stored == analyse(replay, BOT, ROLLOUTS, seed_of(game)).to_dict()


def test_a_game_judged_by_the_time_of_its_slaps_is_not_analysable(timed: FlaskClient, clock: FakeClock) -> None:
    """Bataille corse with a collection window: a slap waits for the window's judgement at the server's clock."""
    options = {"max_flips": 2, "slap_window_ms": 50}
    host = timed.post("/v1/games", json={"game": "bataille-corse", "players": 2, "seed": 2, "options": options}).json
    game = host["game_id"]  # type: ignore[index]
    seats = [timed.post(f"/v1/games/{game}/seats", json={"name": f"P{n}", "seat": n}).json["token"] for n in (0, 1)]  # type: ignore[index]
    first = timed.post(f"/v1/games/{game}/start", json={}, headers=bearer(host["host_token"])).json["current_seat"]  # type: ignore[index]
    timed.post(f"/v1/games/{game}/actions", json={"type": "flip"}, headers=bearer(seats[first]))
    slap = {"type": "slap", "pile_version": timed.get(f"/v1/games/{game}").json["pile_version"]}  # type: ignore[index]
    assert timed.post(f"/v1/games/{game}/actions", json=slap, headers=bearer(seats[1 - first])).status_code == 200
    clock.advance(1)  # the window closes: its judgement falls due
    turn = timed.get(f"/v1/games/{game}").json["current_seat"]  # type: ignore[index]
    timed.post(f"/v1/games/{game}/actions", json={"type": "flip"}, headers=bearer(seats[turn]))
    assert timed.get(f"/v1/games/{game}").json["status"] == "finished"  # type: ignore[index]
    assert error_of(timed.get(f"/v1/games/{game}/analysis")) == (409, "not_analysable")

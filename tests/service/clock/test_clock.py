"""The clock without a clock process: paced bots, deadlines, takeover, the bot work cap and catch-up order.

Time moves by hand (``FakeClock``): nothing here sleeps. Every read or change applies what fell due first.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, bearer, error_of, new_game, played_out
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import thegame_core as tg
from service.clock.schedule import next_due
from service.records.game_record import GameRecord
from tests.games.ninja.helpers import deck_for

# Ann leads two 5s (a pair on top: the completion window opens); Cid holds the other two 5s; Bob is next.
RACE_DECK = deck_for(3, hands={0: [5, 5, 2], 1: [7, 10, 11], 2: [5, 5, 3]})


def record_of(http: FlaskClient, game: GameClient) -> GameRecord:
    app: Flask = http.application
    record = app.extensions["service"].store.load(game.game_id).record()
    assert record is not None
    return record


def seats(game: GameClient, people: int, bots: dict[int, dict[str, Any]] | None = None) -> None:
    """Seats 0.. in order: a bot where ``bots`` names one (its seat body), else a person."""
    for seat in range(people):
        body = (bots or {}).get(seat)
        if body is None:
            assert game.seat(f"p{seat}", seat=seat).status_code == 201
        else:
            assert game.seat(f"bot{seat}", token=game.host, seat=seat, **body).status_code == 201


def act(game: GameClient, seat: int, action: dict[str, Any]) -> Any:
    return game.post("actions", seat, action)


def own_turn(game: GameClient, seat: int) -> None:
    """``seat`` plays The Game's turn itself: its first legal plays until it may end the turn, then ends it."""
    while True:
        legal = game.view(seat).get_json()["legal_actions"]
        if {"type": "end_turn"} in legal:
            assert act(game, seat, {"type": "end_turn"}).status_code == 200
            return
        assert act(game, seat, legal[0]).status_code == 200


def entries(game: GameClient) -> list[dict[str, Any]]:
    return game.log().get_json()["entries"]  # type: ignore[no-any-return]


# Paced bots and the race -------------------------------------------------------------------
def race_table(http: FlaskClient, clock: FakeClock) -> GameClient:
    """Ann and Cid are people, Bob a greedy bot at Ninja's default pace; once all are ready, Ann leads 5 5."""
    game = new_game(http, game="ninja", players=3, deck=RACE_DECK)
    seats(game, 3, {1: {"bot": "greedy"}})
    game.start(first_seat=0)
    act(game, 0, {"type": "ready"})
    act(game, 2, {"type": "ready"})
    assert game.view().get_json()["waiting_for"] == [1]  # the bot is ready 1.5 s after the last change
    clock.advance(1.5)
    assert game.view().get_json()["phase"] == "play"
    clock.advance(5)
    led = act(game, 0, {"type": "play", "value": 5, "count": 2}).get_json()
    assert led["completion"] == {"value": 5, "placed_by": 0} and led["current_seat"] == 1
    return game


def test_a_person_who_completes_before_the_bot_s_due_time_wins_the_race(timed: FlaskClient, clock: FakeClock) -> None:
    game = race_table(timed, clock)
    clock.advance(1.499)
    completed = act(game, 2, {"type": "complete", "value": 5})
    assert completed.status_code == 200
    view = completed.get_json()
    assert view["pile"] == [] and view["burned"] == 4 and view["current_seat"] == 2  # four 5s burn; Cid leads
    assert [entry["seat"] for entry in entries(game)][-2:] == [0, 2]


def test_a_person_who_completes_after_the_bot_s_due_time_loses_the_race(timed: FlaskClient, clock: FakeClock) -> None:
    game = race_table(timed, clock)
    clock.advance(1.5)
    assert error_of(act(game, 2, {"type": "complete", "value": 5})) == (422, "window_closed")
    last = entries(game)[-1]
    assert last["seat"] == 1 and last["bot"] is True and last["auto"] is False  # Bob's move came first


def test_a_paced_bot_waits_however_often_the_game_is_read(timed: FlaskClient, clock: FakeClock) -> None:
    game = new_game(timed, players=2, seed=3)
    seats(game, 2, {1: {"bot": "greedy", "reaction_ms": 1000}})
    game.start(first_seat=1)
    for _ in range(7):
        clock.advance(0.125)
        assert game.view().get_json()["current_seat"] == 1
    clock.advance(0.125)
    assert game.view().get_json()["current_seat"] == 0


# Deadlines -----------------------------------------------------------------------------------
def two_people(http: FlaskClient, **options: int) -> GameClient:
    game = new_game(http, players=2, seed=11, options=options)
    seats(game, 2)
    assert game.start(first_seat=0).status_code == 200
    return game


def test_a_missed_deadline_lets_a_bot_play_the_turn(timed: FlaskClient, clock: FakeClock) -> None:
    start = clock.now
    game = two_people(timed, turn_seconds=30)
    seat = game.view(0).get_json()["seats"][0]
    assert seat["deadline"] == round((start + 30) * 1000) and seat["seconds_left"] == 30
    clock.advance(29.5)
    view = game.view(0).get_json()
    assert view["current_seat"] == 0 and view["seats"][0]["seconds_left"] == 0.5
    clock.advance(0.5)
    view = game.view(1).get_json()
    assert view["current_seat"] == 1 and view["seats"][0]["missed_turns"] == 1
    assert view["seats"][1]["deadline"] == round((start + 60) * 1000)
    played = entries(game)
    assert played and all(entry["seat"] == 0 and entry["auto"] and entry["bot"] for entry in played)
    assert played[-1]["type"] == "end_turn"


def test_catching_up_late_times_each_deadline_from_the_one_before(timed: FlaskClient, clock: FakeClock) -> None:
    """Nobody reads for 130 s: deadlines fell at 30, 60, 90 and 120 s, each counted from the one before."""
    start = clock.now
    game = two_people(timed, turn_seconds=30, idle_turns=10)
    clock.advance(130)
    view = game.view().get_json()
    ends = [entry["seat"] for entry in entries(game) if entry["type"] == "end_turn"]
    assert ends == [0, 1, 0, 1]
    assert view["current_seat"] == 0 and view["seats"][0]["deadline"] == round((start + 150) * 1000)
    assert [seat["missed_turns"] for seat in view["seats"]] == [2, 2]


def test_an_own_action_restarts_the_deadline(timed: FlaskClient, clock: FakeClock) -> None:
    start = clock.now
    game = two_people(timed, turn_seconds=30)
    clock.advance(20)
    act(game, 0, game.view(0).get_json()["legal_actions"][0])
    assert game.view(0).get_json()["seats"][0]["deadline"] == round((start + 50) * 1000)
    clock.advance(29)
    assert game.view(0).get_json()["current_seat"] == 0 and not any(entry["auto"] for entry in entries(game))


def test_without_turn_seconds_nothing_is_ever_due(timed: FlaskClient, clock: FakeClock, http: FlaskClient) -> None:
    game = two_people(timed)
    before = game.view(0).get_json()
    assert before["seats"][0]["deadline"] is None and before["clock"]["turn_seconds"] == 0
    clock.advance(10**6)
    assert game.view(0).get_json() == before and next_due(record_of(timed, game)) is None


def test_the_swap_phase_runs_a_deadline_for_each_seat(timed: FlaskClient, clock: FakeClock) -> None:
    game = new_game(timed, game="ninja", players=3, seed=2, options={"turn_seconds": 20})
    seats(game, 3)
    game.start(first_seat=0)
    clock.advance(5)
    act(game, 0, {"type": "ready"})
    assert [seat["deadline"] is None for seat in game.view().get_json()["seats"]] == [True, False, False]
    clock.advance(15)
    view = game.view().get_json()
    assert view["phase"] == "play" and [seat["missed_turns"] for seat in view["seats"]] == [0, 1, 1]
    readies = [(entry["seat"], entry["auto"]) for entry in entries(game) if entry["type"] == "ready"]
    assert readies == [(0, False), (1, True), (2, True)]


# Takeover --------------------------------------------------------------------------------------
def test_a_bot_takes_an_idle_seat_over_until_its_owner_acts(timed: FlaskClient, clock: FakeClock) -> None:
    game = two_people(timed, turn_seconds=10, idle_turns=2)
    clock.advance(10)  # seat 0 misses its first turn
    own_turn(game, 1)
    clock.advance(10)  # and its second: taken over
    seat = game.view().get_json()["seats"][0]
    assert seat["autoplay"] is True and seat["missed_turns"] == 2
    own_turn(game, 1)
    view = game.view().get_json()
    assert view["current_seat"] == 0 and view["seats"][0]["deadline"] is None  # the bot plays it, 1 s on
    clock.advance(1)
    last = entries(game)[-1]
    assert game.view().get_json()["current_seat"] == 1 and last["seat"] == 0 and last["auto"] is True
    own_turn(game, 1)
    clock.advance(0.5)  # before the bot's second: the owner is back
    act(game, 0, game.view(0).get_json()["legal_actions"][0])
    seat = game.view().get_json()["seats"][0]
    assert (
        seat["autoplay"] is False and seat["missed_turns"] == 0 and seat["deadline"] == round((clock.now + 10) * 1000)
    )
    assert entries(game)[-1]["auto"] is False


# The bot work cap ------------------------------------------------------------------------------
@pytest.fixture
def capped(make_app: Any, clock: FakeClock) -> FlaskClient:
    return make_app(CLOCK=clock, BOT_DECISIONS=3).test_client()  # type: ignore[no-any-return]


def test_start_does_not_play_a_solo_best_game_to_its_end(capped: FlaskClient, clock: FakeClock) -> None:
    game = new_game(capped, players=1, seed=5)
    seats(game, 1, {0: {"bot": "best"}})
    view = game.start().get_json()
    assert view["status"] == "playing"
    assert [entry["type"] for entry in entries(game)].count("end_turn") == 6  # 3 at the start, 3 in the log read
    assert next_due(record_of(capped, game)) == clock.now  # the rest stays due when it fell due


def test_a_change_that_finds_more_due_than_it_may_do_answers_catching_up(capped: FlaskClient, clock: FakeClock) -> None:
    """An hour away with deadlines of 10 s and a bot partner: more than 3 decisions are due. The person's
    action is refused (it would come out of order), what was applied is kept, and reads bring the game up to date."""
    game = new_game(capped, players=2, seed=4, options={"turn_seconds": 10})
    seats(game, 2, {1: {"bot": "greedy"}})
    game.start(first_seat=0)
    clock.advance(3600)
    before = record_of(capped, game).version
    refused = game.post("turn/end", 0)
    assert error_of(refused) == (503, "catching_up") and refused.headers["Retry-After"] == "1"
    assert record_of(capped, game).version > before
    for _ in range(200):
        if game.view().get_json()["status"] != "playing":
            break
    assert game.view().get_json()["status"] in ("won", "lost")


# Catch-up order --------------------------------------------------------------------------------
def live_table(http: FlaskClient) -> GameClient:
    """Ninja: a person who never acts (deadlines of 5 s, taken over after 2) and two bots at their own paces."""
    game = new_game(http, game="ninja", players=3, seed=9, options={"turn_seconds": 5, "idle_turns": 2})
    seats(game, 3, {1: {"bot": "greedy", "reaction_ms": 700}, 2: {"bot": "random", "reaction_ms": 1300}})
    game.start(first_seat=0)
    return game


def test_catching_up_after_a_long_gap_equals_stepping_event_by_event(timed: FlaskClient, clock: FakeClock) -> None:
    start = clock.now
    late, stepped = live_table(timed), live_table(timed)
    clock.now = start + 90
    versions = [game_version(late)]
    while versions[-1] != (version := game_version(late)):  # each read does what one request may do
        versions.append(version)
    while (due := next_due(record_of(timed, stepped))) is not None and due <= start + 90:
        clock.now = due
        stepped.view()
    clock.now = start + 90
    assert len(entries(late)) > 30  # deadlines, a takeover and both bots' paces all took part
    assert {entry["auto"] for entry in entries(late)} == {True, False}
    assert entries(late) == entries(stepped)
    assert without_id(late.view().get_json()) == without_id(stepped.view().get_json())
    assert record_of(timed, late).timing == record_of(timed, stepped).timing


def game_version(game: GameClient) -> int:
    """A read (which catches up, up to the cap) and the version it answered."""
    return game.view().get_json()["version"]  # type: ignore[no-any-return]


def without_id(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "game_id"}


# Options and bad values -------------------------------------------------------------------
def test_the_catalog_offers_the_clock_options_in_every_game(http: FlaskClient) -> None:
    for game in http.get("/v1/games/catalog").get_json()["games"]:
        options = {option["name"]: option for option in game["options"]}
        assert options["turn_seconds"] | {"description": ""} == {
            "name": "turn_seconds",
            "type": "int",
            "default": 0,
            "min": 0,
            "max": 7 * 24 * 3600,
            "description": "",
        }
        assert (options["idle_turns"]["default"], options["idle_turns"]["min"]) == (3, 1)


@pytest.mark.parametrize(
    "options",
    [
        {"turn_seconds": -1},
        {"turn_seconds": "30"},
        {"turn_seconds": 30.5},
        {"turn_seconds": True},
        {"turn_seconds": 10**9},
        {"idle_turns": 0},
        {"idle_turns": 101},
        {"idle_turns": None},
    ],
)
def test_bad_clock_options_are_refused(http: FlaskClient, options: dict[str, Any]) -> None:
    answer = http.post("/v1/games", json={"game": "ninja", "players": 2, "options": options})
    assert error_of(answer) == (422, "validation_error")
    assert set(answer.get_json()["errors"]["options"]) == set(options)


def test_clock_options_show_in_views_and_stay_out_of_the_replay(http: FlaskClient) -> None:
    options = {"turn_seconds": 45, "idle_turns": 5, "preset": "expert"}
    game = new_game(http, players=1, seed=1, options=options)
    seats(game, 1, {0: {"bot": "greedy"}})
    assert game.view().get_json()["clock"] == {"turn_seconds": 45, "idle_turns": 5}  # the lobby's view too
    game.start()
    view = played_out(game)
    assert view["clock"] == {"turn_seconds": 45, "idle_turns": 5} and view["options"]["min_per_turn"] == 3
    assert "turn_seconds" not in view["options"]  # options are the core's: what its replay takes
    replay = game.log().get_json()["replay"]
    assert tg.replay(replay).status == view["status"]


@pytest.mark.parametrize(
    "body",
    [
        {"bot": "greedy", "reaction_ms": -1},
        {"bot": "greedy", "reaction_ms": 60_001},
        {"bot": "greedy", "reaction_ms": "5"},
        {"reaction_ms": 500},  # a person has no pace
    ],
)
def test_bad_paces_are_refused(http: FlaskClient, body: dict[str, Any]) -> None:
    game = new_game(http, players=2)
    answer = http.post(f"{game.url}/seats", json={"name": "robo", **body}, headers=bearer(game.host))
    assert error_of(answer) == (422, "validation_error") and "reaction_ms" in answer.get_json()["errors"]


def test_a_bot_seat_keeps_the_pace_it_was_given(http: FlaskClient) -> None:
    game = new_game(http, game="ninja", players=2)
    seated = http.post(
        f"{game.url}/seats", json={"name": "r", "bot": "best", "reaction_ms": 600}, headers=bearer(game.host)
    )
    assert seated.get_json()["reaction_ms"] == 600 and game.view().get_json()["seats"][0]["reaction_ms"] == 600


def test_a_client_s_bot_reads_a_timed_game_over_http(timed: FlaskClient, clock: FakeClock) -> None:
    """The clock's fields stay out of what the core reads back: a view and the log (without the service's
    version, bot and auto) still give a client's bot the seat's observation."""
    game = two_people(timed, turn_seconds=30)
    clock.advance(30)
    view = game.view(1).get_json()
    actions = [
        {key: value for key, value in entry.items() if key not in ("version", "bot", "auto")} for entry in entries(game)
    ]
    observation = tg.get_game("the-game").observation_from_view(view, actions)
    assert observation == tg.replay(game_replay(timed, game)).observe(1)


def game_replay(http: FlaskClient, game: GameClient) -> dict[str, Any]:
    state = record_of(http, game).state
    assert state is not None
    return state.replay_record()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reads=st.lists(st.integers(0, 40_000), max_size=12))
def test_reads_at_any_moments_leave_the_game_as_a_timer_would(
    timed: FlaskClient, clock: FakeClock, reads: list[int]
) -> None:
    """However many reads come, whenever (ms after the start), and however little each may do (the cap), the
    game at 40 s is the one a single late catch-up gives."""
    start = clock.now
    touched, alone = live_table(timed), live_table(timed)
    for offset in sorted(reads):
        clock.now = start + offset / 1000
        touched.view()
    clock.now = start + 40
    versions = [game_version(touched), game_version(alone)]
    while versions != (versions := [game_version(touched), game_version(alone)]):
        pass
    assert entries(touched) == entries(alone)
    assert record_of(timed, touched).timing == record_of(timed, alone).timing

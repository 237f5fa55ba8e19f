"""Daily deals over HTTP: one deal a day for everyone, never one before its day, bots in the other seats, results
read from the finished games (no client posts one), and the deal kept hidden until its day is over."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest
from conftest import TEST_TTL
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, bearer, error_of
from players_client import Player, from_own_address

import thegame_core as tg
from service.storage.store import game_key
from thegame_core.bots import create_bot
from thegame_core.client.seat import history
from thegame_core.daily import bots_result, result_of

SECRET = "a test secret of the daily deals"
#: FakeClock's default instant, 2027-01-15 08:00 UTC.
TODAY, YESTERDAY, TOMORROW = "2027-01-15", "2027-01-14", "2027-01-16"
DAY = 24 * 3600
#: More requests than a person's whole daily game needs (the bots answer on reads).
MAX_REQUESTS = 3000


@pytest.fixture
def daily_app(make_app: Callable[..., Flask], clock: FakeClock) -> Flask:
    """Boards of this test's own (``DAILY_PREFIX``) over the suite's Redis, at a clock moved by hand."""
    return make_app(CLOCK=clock, DAILY_PREFIX=f"test-{secrets.token_hex(6)}:", DAILY_SECRET=SECRET)


@pytest.fixture
def daily_http(daily_app: Flask) -> FlaskClient:
    return daily_app.test_client()


def create(
    http: FlaskClient,
    game: str = "the-game",
    players: int = 2,
    day: str = TODAY,
    headers: dict[str, str] | None = None,
    **body: Any,
) -> dict[str, Any]:
    daily = {"game": game, "players": players, "daily": day, "name": "ann", **body}
    response = http.post("/v1/games", json=daily, headers=headers)
    assert response.status_code == 201, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def play_to_end(http: FlaskClient, clock: FakeClock, created: dict[str, Any]) -> dict[str, Any]:
    """The person's seat played by a greedy bot from what the seat sees (its view and the log), as the bot client
    plays; reads let the server's bots play (the clock moves for paced ones). Answers the seat's last view."""
    url, headers, seat = f"/v1/games/{created['game_id']}", bearer(created["token"]), created["seat"]
    game = tg.get_game(created["game"])
    bot = create_bot("greedy", game=created["game"], seed=1)
    for _ in range(MAX_REQUESTS):
        view: dict[str, Any] = http.get(url, headers=headers).get_json()
        if view.get("status") != "playing":
            return view
        if view.get("legal_actions"):
            log = http.get(f"{url}/log", headers=headers).get_json()
            actions = bot.act(game.observation_from_view(view, history(log["entries"], game.info, view["version"])))
            body = [{key: value for key, value in action.to_dict().items() if key != "seat"} for action in actions]
            if body:
                http.post(f"{url}/actions", json={"actions": body}, headers=headers)
        clock.advance(0.5)
    raise AssertionError(f"the daily game did not end (seat {seat})")


def board(http: FlaskClient, game: str = "the-game", players: int = 2, day: str = TODAY, **query: Any) -> Any:
    response = http.get(f"/v1/daily/{game}/{players}/{day}", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_everyone_gets_the_same_deal_at_the_day_s_seat(daily_http: FlaskClient) -> None:
    first, second = create(daily_http), create(daily_http)
    deal = tg.daily_deal("the-game", 2, TODAY, secret=SECRET.encode())
    assert first["seat"] == second["seat"] == deal.seat
    assert first["hand"] == second["hand"] == deal.state.view(deal.seat)["hand"]
    assert first["status"] == "playing" and first["token"] != second["token"]
    assert [seat["bot_name"] for seat in first["seats"] if seat["seat"] != deal.seat] == ["best"]
    assert not first["spectators"] and not first["public"]


def test_the_game_plays_with_the_team_of_the_player_s_choice(daily_http: FlaskClient) -> None:
    created = create(daily_http, players=3, bots=["greedy", "random"])
    others = [seat["bot_name"] for seat in created["seats"] if seat["seat"] != created["seat"]]
    assert others == ["greedy", "random"]


def test_a_competitive_deal_seats_best_bots_and_turns_the_seat_with_the_date(
    daily_http: FlaskClient, clock: FakeClock
) -> None:
    today = create(daily_http, "ninja", 3)
    clock.advance(DAY)
    tomorrow = create(daily_http, "ninja", 3, TOMORROW)
    assert tomorrow["seat"] == (today["seat"] + 1) % 3
    assert {seat["bot_name"] for seat in today["seats"]} == {None, "best"}


@pytest.mark.parametrize(
    ("day", "status", "code"),
    [
        (TOMORROW, 422, "daily_in_future"),
        ("2030-01-01", 422, "daily_in_future"),
        ("15-01-2027", 422, "validation_error"),
    ],
)
def test_no_deal_before_its_day(daily_http: FlaskClient, day: str, status: int, code: str) -> None:
    body = {"game": "the-game", "players": 2, "daily": day, "name": "ann"}
    assert error_of(daily_http.post("/v1/games", json=body)) == (status, code)
    assert error_of(daily_http.get(f"/v1/daily/the-game/2/{day}")) == (status, code)


def test_the_day_turns_at_midnight_utc(daily_http: FlaskClient, clock: FakeClock) -> None:
    clock.now = 1_800_057_599.0  # 2027-01-15 23:59:59 UTC
    assert error_of(daily_http.post("/v1/games", json={"players": 2, "daily": TOMORROW, "name": "ann"}))[1] == (
        "daily_in_future"
    )
    clock.advance(1)
    assert create(daily_http, day=TOMORROW)["status"] == "playing"
    assert create(daily_http, day=YESTERDAY)["status"] == "playing"  # an earlier day's deal: practice


@pytest.mark.parametrize(
    "body",
    [
        {"players": 2, "daily": TODAY},  # no name
        {"players": 2, "daily": TODAY, "name": "ann", "seed": 5},
        {"players": 2, "daily": TODAY, "name": "ann", "options": {"preset": "standard"}},
        {"players": 2, "daily": TODAY, "name": "ann", "spectators": True},
        {"players": 2, "name": "ann"},  # a name without daily
        {"players": 3, "daily": TODAY, "name": "ann", "bots": ["best"]},  # one bot for two seats
        {"players": 2, "daily": TODAY, "name": "ann", "bots": ["nobody"]},
        {"game": "ninja", "players": 3, "daily": TODAY, "name": "ann", "bots": ["best", "greedy"]},
        {"players": 9, "daily": TODAY, "name": "ann"},
    ],
)
def test_a_daily_game_refuses_what_would_change_its_deal_or_seats(
    daily_http: FlaskClient, body: dict[str, Any]
) -> None:
    assert error_of(daily_http.post("/v1/games", json=body)) == (422, "validation_error")


def test_a_finished_game_posts_its_result_once_read_from_the_game(daily_http: FlaskClient, clock: FakeClock) -> None:
    created = create(daily_http)
    play_to_end(daily_http, clock, created)
    headers = bearer(created["token"])
    page = board(daily_http)
    assert page["count"] == 1 and page["over"] is False
    [entry] = page["results"]
    assert entry["rank"] == 1 and entry["name"] == "ann" and entry["team"] == ["best"] and entry["game_id"] is None
    me = daily_http.get(f"/v1/daily/the-game/2/{TODAY}/me", headers=headers).get_json()
    assert me["rank"] == 1 and me["count"] == 1 and me["game_id"] == created["game_id"]
    assert me["percentile"] == 0  # alone on its deal: better than none of the tables
    daily_http.get(
        f"/v1/games/{created['game_id']}", headers=headers
    )  # more reads of the finished game: no second result
    assert board(daily_http)["count"] == 1
    clock.advance(DAY)  # the day is over: the replay is open, and the result is the replayed game's
    replay = daily_http.get(f"/v1/games/{created['game_id']}/log").get_json()["replay"]
    expected = result_of(tg.replay(replay), created["seat"])
    assert {key: entry[key] for key in ("cards_left", "turns", "place")} == expected.to_dict()


def test_the_deal_stays_hidden_until_its_day_is_over(daily_http: FlaskClient, clock: FakeClock) -> None:
    created = create(daily_http)
    play_to_end(daily_http, clock, created)
    url, headers = f"/v1/games/{created['game_id']}", bearer(created["token"])
    during = board(daily_http)
    assert during["seed"] is None and during["results"][0]["game_id"] is None
    assert daily_http.get(f"{url}/log", headers=headers).get_json()["replay"] is None  # not even to its own seat
    assert error_of(daily_http.get(f"/web/replays/{created['game_id']}", headers=headers)) == (409, "daily_not_over")
    assert error_of(daily_http.get(f"{url}/analysis", headers=headers)) == (409, "daily_not_over")  # its lines too
    assert error_of(daily_http.get(url)) == (403, "forbidden")  # nobody watches a daily game
    clock.now = 1_800_057_600.0  # 2027-01-16 00:00 UTC
    after = board(daily_http)
    assert after["over"] is True and after["results"][0]["game_id"] == created["game_id"]
    assert hashlib.sha256(str(after["seed"]).encode()).hexdigest() == during["seed_sha256"]
    replay = daily_http.get(f"{url}/log").get_json()["replay"]  # anyone, now
    dealt = tg.daily_deal("the-game", 2, TODAY, after["seed"]).state.replay_record()  # the library, from the seed
    assert {**replay, "actions": []} == {**dealt, "actions": []}
    assert daily_http.get(f"/web/replays/{created['game_id']}").status_code == 200


def test_a_finished_daily_game_is_kept_past_its_day_for_the_board_s_link(
    make_app: Callable[..., Flask], clock: FakeClock
) -> None:
    """Its day ends 16 hours after FakeClock's 08:00: the game outlives a shorter TG_FINISHED_TTL, up to the end of
    the next day, but never the board (TG_DAILY_TTL: both short here, to keep the test's keys short-lived)."""
    app = make_app(CLOCK=clock, DAILY_SECRET=SECRET, DAILY_PREFIX=f"test-{secrets.token_hex(6)}:", FINISHED_TTL=60)
    created = create(app.test_client())
    play_to_end(app.test_client(), clock, created)
    assert 60 < app.extensions["service"].store.client.ttl(game_key(created["game_id"])) <= TEST_TTL


def test_a_game_on_an_earlier_day_s_deal_is_practice(daily_http: FlaskClient, clock: FakeClock) -> None:
    created = create(daily_http, day=YESTERDAY)
    play_to_end(daily_http, clock, created)
    assert board(daily_http, day=YESTERDAY)["count"] == 0
    assert error_of(daily_http.get(f"/v1/daily/the-game/2/{YESTERDAY}/me", headers=bearer(created["token"]))) == (
        404,
        "not_on_board",
    )


def test_a_competitive_result_has_a_place(daily_http: FlaskClient, clock: FakeClock) -> None:
    created = create(daily_http, "ninja", 3)
    play_to_end(daily_http, clock, created)
    [entry] = board(daily_http, "ninja", 3)["results"]
    assert 1 <= entry["place"] <= 3 and entry["team"] == ["best", "best"]


def test_no_client_posts_a_score(daily_http: FlaskClient) -> None:
    result = {"name": "eve", "cards_left": 0, "turns": 1}
    for method in (daily_http.post, daily_http.put, daily_http.patch):
        assert error_of(method(f"/v1/daily/the-game/2/{TODAY}", json=result)) == (405, "method_not_allowed")
        assert error_of(method(f"/v1/daily/the-game/2/{TODAY}/me", json=result)) == (405, "method_not_allowed")
    assert board(daily_http)["count"] == 0


def yardstick(http: FlaskClient, game: str, players: int, day: str = TODAY) -> Any:
    """The board's ``bots`` once worked out in the background (reads answer null meanwhile)."""
    for _ in range(MAX_REQUESTS):
        bots = board(http, game, players, day)["bots"]
        if bots is not None:
            return bots
        time.sleep(0.01)
    raise AssertionError("no yardstick")


def test_the_bots_yardstick_is_best_at_every_seat_worked_out_once(daily_http: FlaskClient) -> None:
    assert board(daily_http, "ninja", 3)["bots"] is None  # the first read starts it
    first = yardstick(daily_http, "ninja", 3)
    deal = tg.daily_deal("ninja", 3, TODAY, secret=SECRET.encode())
    assert first == bots_result(deal).to_dict()
    assert board(daily_http, "ninja", 3)["bots"] == first


def test_no_yardstick_for_a_deal_whose_board_is_gone(daily_http: FlaskClient) -> None:
    """Older than TG_DAILY_TTL (here TEST_TTL): no client can make the server work out yardsticks without end."""
    assert board(daily_http, day="2026-01-01")["bots"] is None
    time.sleep(0.2)
    assert board(daily_http, day="2026-01-01")["bots"] is None


def test_rank_needs_a_token_with_a_result(daily_http: FlaskClient) -> None:
    url = f"/v1/daily/the-game/2/{TODAY}/me"
    assert error_of(daily_http.get(url)) == (401, "invalid_token")
    assert error_of(daily_http.get(url, headers={"Authorization": "Basic x"})) == (401, "invalid_token")
    assert error_of(daily_http.get(url, headers=bearer(create(daily_http)["token"]))) == (404, "not_on_board")
    assert error_of(daily_http.get("/v1/daily/chess/9/0/me")) == (401, "invalid_token")  # the token first


@pytest.mark.parametrize(
    ("path", "field"),
    [("chess/2", "game"), ("the-game/9", "players"), ("ninja/1", "players")],
)
def test_a_board_of_no_deal_is_a_validation_error(daily_http: FlaskClient, path: str, field: str) -> None:
    response = daily_http.get(f"/v1/daily/{path}/{TODAY}")
    assert error_of(response) == (422, "validation_error") and field in response.get_json()["errors"]


@pytest.mark.parametrize("query", [{"limit": 0}, {"limit": 101}, {"offset": -1}, {"limit": "x"}])
def test_page_bounds(daily_http: FlaskClient, query: dict[str, Any]) -> None:
    assert error_of(daily_http.get(f"/v1/daily/the-game/2/{TODAY}", query_string=query)) == (422, "validation_error")


def test_board_reads_are_rate_limited(make_app: Callable[..., Flask], clock: FakeClock) -> None:
    app = make_app(
        CLOCK=clock,
        DAILY_SECRET=SECRET,
        DAILY_PREFIX=f"test-{secrets.token_hex(6)}:",
        LIMITS=True,
        LIST_RATE=(2, 60),
        LIMITS_PREFIX=f"test-{secrets.token_hex(6)}:",
    )
    http = app.test_client()
    url = f"/v1/daily/the-game/2/{TODAY}"
    assert [http.get(url).status_code for _ in range(3)] == [200, 200, 429]


def test_processes_without_a_configured_secret_agree_on_one_drawn_once(
    make_app: Callable[..., Flask], clock: FakeClock
) -> None:
    prefix = f"test-{secrets.token_hex(6)}:"
    first, second = (make_app(CLOCK=clock, DAILY_PREFIX=prefix).test_client() for _ in range(2))
    try:
        assert create(first)["hand"] == create(second)["hand"]
        assert board(first)["seed_sha256"] == board(second)["seed_sha256"]
    finally:
        first.application.extensions["service"].store.client.delete(f"{prefix}{{daily}}:secret")


ME = f"/v1/daily/the-game/2/{TODAY}/me"


def test_a_player_key_reads_the_rank_of_its_game_on_the_deal(daily_http: FlaskClient, clock: FakeClock) -> None:
    ann = Player(from_own_address(daily_http), "Ann")
    created = create(daily_http, headers=ann.headers())
    assert error_of(ann.get(ME)) == (404, "not_on_board")  # its game is not over yet
    play_to_end(daily_http, clock, created)
    by_token = daily_http.get(ME, headers=bearer(created["token"])).get_json()
    assert by_token["game_id"] == created["game_id"] and by_token["rank"] == 1
    code = ann.post("/v1/players/me/link").get_json()["code"]
    other_device = Player(daily_http, created=daily_http.post("/v1/players/link", json={"code": code}))
    assert ann.get(ME).get_json() == by_token == other_device.get(ME).get_json()
    assert error_of(ann.get(f"/v1/daily/the-game/3/{TODAY}/me")) == (404, "not_on_board")  # another deal
    assert error_of(ann.get(f"/v1/daily/the-game/2/{YESTERDAY}/me")) == (404, "not_on_board")


def test_the_key_answers_for_the_player_s_latest_game_on_the_deal(daily_http: FlaskClient, clock: FakeClock) -> None:
    ann = Player(daily_http, "Ann")
    play_to_end(daily_http, clock, create(daily_http, headers=ann.headers()))
    assert ann.get(ME).status_code == 200
    create(daily_http, headers=ann.headers())
    assert error_of(ann.get(ME)) == (404, "not_on_board")  # the latest game is not over


def test_a_key_without_a_game_on_the_deal_or_unknown_is_refused(daily_http: FlaskClient, clock: FakeClock) -> None:
    play_to_end(daily_http, clock, create(daily_http))  # a result on the deal, taken without a key
    bob = Player(daily_http, "Bob")
    assert error_of(bob.get(ME)) == (404, "not_on_board")
    assert bob.delete(f"/v1/players/me/keys/{bob.answer['key_id']}").status_code == 204
    assert error_of(bob.get(ME)) == (401, "invalid_token")
    assert error_of(daily_http.get(ME, headers=bearer(f"p.{bob.id}.{'A' * 8}.{'A' * 43}"))) == (401, "invalid_token")

"""Play now over HTTP (docs/api.md, "Play now"): seated in the oldest open lobby that fits or in a new one, the same
seat when asked again, started when full, bots after a wait, stopping, and typed errors."""

from __future__ import annotations

import secrets
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import fakeredis
import pytest
import redis
from events_reader import EventReader
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock
from pairing_client import Seeker, own_pool

from service.ratings.scale import Rating
from service.ratings.store import rating_key


@pytest.fixture
def pairing_http(make_app: Callable[..., Flask]) -> FlaskClient:
    """A client of an app whose Play now pool is the test's own."""
    return own_pool(make_app)


def test_two_seekers_share_a_table_that_starts_by_itself(pairing_http: FlaskClient) -> None:
    http = pairing_http
    ann, bob = Seeker(http, "Ann"), Seeker(http, "Bob")
    first = ann.seek()
    assert first.status_code == 201
    waiting = first.get_json()
    assert (waiting["seat"], waiting["status"], waiting["free_seats"], waiting["rated"]) == (0, "lobby", [1], False)
    assert waiting["token"] and waiting["bots_at"] is None

    again = ann.seek()
    assert again.status_code == 200
    assert {**again.get_json(), "token": "same"} == {**waiting, "token": "same"} and again.get_json()["token"] is None

    joined = bob.seek()
    assert joined.status_code == 201
    assert (joined.get_json()["game_id"], joined.get_json()["seat"]) == (waiting["game_id"], 1)
    assert joined.get_json()["status"] == "playing"

    view = ann.view(waiting["game_id"])  # the key is the seat: its hand, its legal actions
    assert view["status"] == "playing" and view["seat"] == 0 and "hand" in view
    assert [(seat["name"], seat["player"]) for seat in view["seats"]] == [("Ann", ann.id), ("Bob", bob.id)]
    assert view["spectators"] is True
    token_view = http.get(f"/v1/games/{waiting['game_id']}", headers={"Authorization": f"Bearer {waiting['token']}"})
    assert token_view.get_json()["seat"] == 0  # the seat token works as well
    mine = http.get("/v1/players/me/games", headers=bob.auth).get_json()
    assert waiting["game_id"] in [game["game_id"] for game in mine["games"]]


def test_seekers_of_other_pools_do_not_meet(pairing_http: FlaskClient) -> None:
    http = pairing_http
    ann, bob, cid = Seeker(http), Seeker(http), Seeker(http)
    ninja_two = ann.seated("ninja", 2)["game_id"]
    assert bob.seated("ninja", 3)["game_id"] != ninja_two
    assert cid.seated("bataille-corse", 2)["game_id"] != ninja_two
    assert ann.seek("ninja", 3).get_json()["error"] == "already_pairing"  # one wait at a time


def test_a_seat_in_a_three_seat_lobby_left_is_taken_by_the_next_and_an_empty_lobby_closes(
    pairing_http: FlaskClient,
) -> None:
    http = pairing_http
    ann, bob, cid = Seeker(http), Seeker(http), Seeker(http)
    game_id = ann.seated(players=3)["game_id"]
    assert bob.seated(players=3)["seat"] == 1
    assert ann.stop().status_code == 204
    assert [seat["name"] is None for seat in bob.view(game_id)["seats"]] == [True, False, True]
    assert ann.stop().status_code == 204  # not waiting: nothing to do
    assert (cid.seated(players=3)["game_id"], cid.seated(players=3)["seat"]) == (game_id, 0)
    assert bob.stop().status_code == 204 and cid.stop().status_code == 204
    assert http.get(f"/v1/games/{game_id}").get_json()["error"] == "unknown_game"  # closed when empty
    assert ann.seated(players=3)["game_id"] != game_id  # a new lobby


def test_a_seat_left_from_the_table_is_given_back_to_play_now(pairing_http: FlaskClient) -> None:
    http = pairing_http
    ann, bob, cid = Seeker(http), Seeker(http), Seeker(http)
    left = ann.seated()["game_id"]
    assert http.delete(f"/v1/games/{left}/seats/0", headers=ann.auth).status_code == 204
    assert bob.seated()["game_id"] != left  # the lobby Ann left holds no seat for her any more
    assert cid.seated()["status"] == "playing"
    assert ann.seated()["game_id"] not in (left, bob.seated()["game_id"])


def test_stopping_after_the_start_is_refused_and_a_new_ask_after_the_grace_finds_a_new_game(
    make_app: Callable[..., Flask],
) -> None:
    clock = FakeClock()
    http = own_pool(make_app, CLOCK=clock)
    ann, bob = Seeker(http), Seeker(http)
    game_id = ann.seated()["game_id"]
    bob.seated()
    assert ann.stop().get_json()["error"] == "game_started"
    assert ann.seated()["game_id"] == game_id  # a lost answer, asked again: the same seat
    clock.advance(61)
    assert ann.seated()["game_id"] != game_id


def test_bots_take_the_empty_seats_after_the_wait_and_the_game_starts(make_app: Callable[..., Flask]) -> None:
    clock = FakeClock()
    http = own_pool(make_app, CLOCK=clock)
    ann = Seeker(http)
    waiting = ann.seated(players=3, bots_after_s=10)
    assert waiting["bots_at"] == int(clock.now * 1000) + 10_000
    clock.advance(9)
    assert ann.view(waiting["game_id"])["status"] == "lobby"
    clock.advance(1)
    view = ann.view(waiting["game_id"])  # whoever touches the game applies what fell due: no process needed
    assert view["status"] == "playing"
    assert [(seat["bot"], seat["bot_name"]) for seat in view["seats"]] == [
        (False, None),
        (True, "best"),
        (True, "best"),
    ]
    assert Seeker(http).seated(players=3)["game_id"] != waiting["game_id"]


def test_a_seeker_who_comes_before_the_bots_takes_a_seat_and_keeps_the_earliest_wait(
    make_app: Callable[..., Flask],
) -> None:
    clock = FakeClock()
    http = own_pool(make_app, CLOCK=clock)
    ann, bob = Seeker(http), Seeker(http)
    game_id = ann.seated(players=3, bots_after_s=30)["game_id"]
    clock.advance(5)
    joined = bob.seated(players=3, bots_after_s=10)
    assert joined["game_id"] == game_id and joined["bots_at"] == int(clock.now * 1000) + 10_000
    clock.advance(9)
    assert Seeker(http).seated(players=3)["game_id"] != game_id  # its bots come within 2 s: it takes nobody more
    clock.advance(1)
    view = bob.view(game_id)
    assert view["status"] == "playing" and [seat["bot"] for seat in view["seats"]] == [False, False, True]


def test_a_play_now_lobby_is_watched_but_not_listed_and_seated_only_by_play_now(pairing_http: FlaskClient) -> None:
    http = pairing_http
    game_id = Seeker(http).seated("bataille-corse", 4)["game_id"]
    listed = http.get("/v1/games?game=bataille-corse").get_json()["games"]
    assert game_id not in [lobby["game_id"] for lobby in listed]  # found by pressing Play now, not in the list
    watched = http.get(f"/v1/games/{game_id}")
    assert watched.status_code == 200 and watched.get_json()["public"] is False
    taken = http.post(f"/v1/games/{game_id}/seats", json={"name": "Eve"})
    assert (taken.status_code, taken.get_json()["error"]) == (409, "pairing_lobby")


def ratings_of(http: FlaskClient, player: str, game: str, mu: float) -> float:
    """Give ``player`` a rating of ``game`` (``mu``, an established ``sigma``) in the store: its points."""
    rating = Rating(mu, 2.0)
    http.application.extensions["service"].store.client.hset(
        rating_key(player, game), mapping={"mu": rating.mu, "sigma": rating.sigma, "games": 30, "ended": 0}
    )
    return rating.points


def test_rated_seekers_meet_within_a_window_that_widens_while_the_lobby_waits(make_app: Callable[..., Flask]) -> None:
    clock = FakeClock()
    http = own_pool(make_app, CLOCK=clock)
    ann, bob, cid = Seeker(http), Seeker(http), Seeker(http)
    points = [ratings_of(http, seeker.id, "ninja", mu) for seeker, mu in ((ann, 30.0), (bob, 35.0), (cid, 34.6))]
    assert 140 < points[1] - points[0] < 160 and 100 < points[2] - points[0] < 140
    first = ann.seated(rated=True)["game_id"]
    clock.advance(1)
    assert bob.seated(rated=True)["game_id"] != first  # 150 apart: beyond the first window (100)
    clock.advance(9)  # Ann's lobby has waited 11 s: its window is 200, the oldest that fits comes first
    assert cid.seated(rated=True)["game_id"] == first
    assert Seeker(http).seated()["game_id"] != first  # an unrated seeker never joins a rated lobby


def test_rated_seekers_play_a_rated_game_and_unrated_ones_do_not(pairing_http: FlaskClient) -> None:
    ann, bob = Seeker(pairing_http, "Ann"), Seeker(pairing_http, "Bob")
    game_id = ann.seated(game="bataille-corse", rated=True)["game_id"]
    assert ann.view(game_id)["rated"] is True  # rated from the lobby on: its seats are player keys
    assert bob.seated(game="bataille-corse", rated=True)["game_id"] == game_id
    started = bob.view(game_id)
    assert (started["status"], started["rated"]) == ("playing", True)
    cid, dan = Seeker(pairing_http, "Cid"), Seeker(pairing_http, "Dan")
    casual = cid.seated(game="bataille-corse")["game_id"]
    assert dan.seated(game="bataille-corse")["game_id"] == casual and dan.view(casual)["rated"] is False


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "chess", "players": 2}, "game"),
        ({"game": "ninja", "players": 9}, "players"),
        ({"game": "ninja"}, "players"),
        ({"game": "the-game", "players": 2, "rated": True}, "rated"),
        ({"game": "ninja", "players": 2, "rated": True, "bots_after_s": 5}, "bots_after_s"),
        ({"game": "ninja", "players": 2, "bots_after_s": -1}, "bots_after_s"),
        ({"game": "ninja", "players": 2, "bots_after_s": 601}, "bots_after_s"),
        ({"game": "ninja", "players": "2"}, "players"),
        ({"game": "ninja", "players": 2, "rated": "yes"}, "rated"),
        ({"game": "ninja", "players": 2, "colour": "red"}, "colour"),
    ],
)
def test_bad_requests_answer_typed_errors(pairing_http: FlaskClient, body: dict[str, object], field: str) -> None:
    http = pairing_http
    answer = http.post("/v1/pairing", json=body, headers=Seeker(http).auth)
    assert answer.status_code == 422
    assert answer.get_json()["error"] == "validation_error" and field in answer.get_json()["errors"]


def test_without_a_player_key_it_is_401(pairing_http: FlaskClient) -> None:
    http = pairing_http
    body = {"game": "ninja", "players": 2}
    for headers in (
        {},
        {"Authorization": "Bearer p.AAAAAAAAAAAAAAAA.BBBBBBBB." + "C" * 43},
        {"Authorization": "Bearer x"},
    ):
        assert http.post("/v1/pairing", json=body, headers=headers).get_json()["error"] == "invalid_token"
        assert http.delete("/v1/pairing", headers=headers).get_json()["error"] == "invalid_token"
    assert (
        http.post("/v1/pairing", data="{", content_type="application/json", headers=Seeker(http).auth).status_code
        == 400
    )


def test_twenty_seekers_racing_through_two_apps_fill_five_tables(
    make_app: Callable[..., Flask], connect: Callable[[], redis.Redis]
) -> None:
    """Two apps (two processes' worth of connections) on one real Redis or Redis Cluster; fakeredis runs a script's
    commands one by one under threads, so the race needs the real thing."""
    prefix = f"tg:{{pairing-{secrets.token_hex(6)}}}"
    apps = [make_app(REDIS_CLIENT=connect(), PAIRING_PREFIX=prefix).test_client() for _ in range(2)]
    if isinstance(apps[0].application.extensions["service"].store.client, fakeredis.FakeRedis):
        pytest.skip("a race of scripts needs a real Redis (REDIS_URL, or the cluster)")
    seekers = [Seeker(apps[number % 2]) for number in range(20)]
    barrier = threading.Barrier(len(seekers))

    def seek(seeker: Seeker) -> dict[str, Any]:
        barrier.wait()
        return seeker.seated(players=4)

    with ThreadPoolExecutor(len(seekers)) as pool:
        seated = list(pool.map(seek, seekers))
    tables = Counter(answer["game_id"] for answer in seated)
    assert sorted(tables.values()) == [4] * 5
    assert len({(answer["game_id"], answer["seat"]) for answer in seated}) == 20
    for game_id in tables:
        view = seekers[0].http.get(f"/v1/games/{game_id}").get_json()
        assert view["status"] == "playing" and len({seat["player"] for seat in view["seats"]}) == 4


def test_the_lobby_s_event_stream_shows_who_joins_then_the_start(pairing_http: FlaskClient) -> None:
    http = pairing_http
    ann, bob, cid = Seeker(http, "Ann"), Seeker(http, "Bob"), Seeker(http, "Cid")
    game_id = ann.seated(players=3)["game_id"]
    stream = http.get(f"/v1/games/{game_id}/events", headers=ann.auth, buffered=False)
    assert stream.status_code == 200
    events = EventReader(stream.response)
    first = events.next_event().view
    assert [seat["name"] for seat in first["seats"]] == ["Ann", None, None] and first["seat"] == 0
    bob.seated(players=3)
    joined = events.next_event().view
    assert [seat["name"] for seat in joined["seats"]] == ["Ann", "Bob", None] and joined["status"] == "lobby"
    cid.seated(players=3)
    started = events.next_event().view
    assert started["status"] == "playing" and [seat["name"] for seat in started["seats"]] == ["Ann", "Bob", "Cid"]
    stream.close()

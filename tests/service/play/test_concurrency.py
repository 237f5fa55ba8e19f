"""Races through two app instances sharing one store: every change applies exactly once."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, bearer, started

import thegame_core as tg
from service.storage.store import game_key

THREADS = 12


def two_apps(make_app: Callable[..., Flask], connect: Callable[[], redis.Redis]) -> list[FlaskClient]:
    """Two apps, each with its own connection to the same store, like two server processes."""
    return [make_app(REDIS_CLIENT=connect()).test_client() for _ in range(2)]


def race(apps: list[FlaskClient], requests: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Send every request at once (after a barrier), alternating between the apps."""
    barrier = threading.Barrier(len(requests))

    def send(index: int) -> tuple[int, dict[str, Any]]:
        client = apps[index % len(apps)]
        barrier.wait()
        response = client.post(**requests[index])
        return response.status_code, response.get_json()

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(send, range(len(requests))))


def assert_consistent(game: GameClient, redis_client: redis.Redis) -> None:
    """The 98 cards are all accounted for, the stored state loads, and the log replays to the view."""
    view = game.view(0).get_json()
    placed = [entry["card"] for entry in game.log().get_json()["entries"] if entry["type"] == "play"]
    assert len(placed) == len(set(placed))
    assert not set(placed) & set(view["hand"])
    assert len(view["hand"]) + view["draw_pile"] + len(placed) == 98
    state = tg.loads(redis_client.hget(game_key(game.game_id), "state"))  # checks card conservation too
    assert view["version"] == 2 + state.version and state.public_log() == [
        {key: value for key, value in entry.items() if key not in ("version", "bot", "auto")}
        for entry in game.log().get_json()["entries"]
    ]


def test_the_same_play_from_many_threads_applies_once(
    make_app: Callable[..., Flask], connect: Callable[[], redis.Redis], redis_client: redis.Redis
) -> None:
    apps = two_apps(make_app, connect)
    game = started(apps[0], players=1, deck=SORTED_DECK)
    play = {"path": f"{game.url}/plays", "json": {"card": 2, "pile": "asc1"}, "headers": bearer(game.tokens[0])}
    results = race(apps, [play] * THREADS)
    assert Counter(status for status, _ in results) == {200: 1, 422: THREADS - 1}
    assert {body["error"] for status, body in results if status == 422} == {"card_not_in_hand"}
    assert game.view().get_json()["version"] == 3
    assert_consistent(game, redis_client)


def test_different_plays_from_many_threads(
    make_app: Callable[..., Flask], connect: Callable[[], redis.Redis], redis_client: redis.Redis
) -> None:
    apps = two_apps(make_app, connect)
    game = started(apps[0], players=1, deck=SORTED_DECK)
    hand = game.view(0).get_json()["hand"]
    plays = [
        {"path": f"{game.url}/plays", "json": {"card": card, "pile": pile}, "headers": bearer(game.tokens[0])}
        for card in hand
        for pile in ("desc1", "asc2")
    ]
    results = race(apps, plays)
    successes = [body for status, body in results if status == 200]
    assert {body["error"] for status, body in results if status != 200} <= {"illegal_play", "card_not_in_hand"}
    assert sorted(body["version"] for body in successes) == list(range(3, 3 + len(successes)))
    view = game.view(0).get_json()
    assert view["placed_this_turn"] == len(successes) == len(game.log().get_json()["entries"])
    assert_consistent(game, redis_client)


def test_a_whole_game_played_by_racing_threads_with_if_match(
    make_app: Callable[..., Flask], connect: Callable[[], redis.Redis], redis_client: redis.Redis
) -> None:
    apps = two_apps(make_app, connect)
    game = started(apps[0], players=1, seed=21)
    token = game.tokens[0]
    outcomes: list[tuple[int, int | str]] = []
    lock = threading.Lock()

    def player(client: FlaskClient) -> None:
        while (view := client.get(game.url, headers=bearer(token)).get_json())["status"] == "playing":
            headers = bearer(token, **{"If-Match": f'"{view["version"]}"'})
            if view["can_end_turn"] or not view["legal_plays"]:
                response = client.post(f"{game.url}/turn/end", headers=headers)
            else:
                response = client.post(f"{game.url}/plays", json=view["legal_plays"][0], headers=headers)
            body = response.get_json()
            with lock:
                outcomes.append((response.status_code, body.get("version", body.get("error"))))

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(player, [apps[index % 2] for index in range(THREADS)]))
    applied = sorted(version for status, version in outcomes if status == 200)
    final = game.view(0).get_json()
    assert final["status"] in ("won", "lost")
    assert applied == list(range(3, final["version"] + 1))  # every change once, none lost
    assert {version for status, version in outcomes if status != 200} <= {"stale_version", "game_over"}
    assert_consistent(game, redis_client)

"""Storage: key names, format versions, expiry, size, and an unreachable Redis (503, nothing lost)."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, error_of, new_game, started
from test_complete_games import win_sorted_game

import thegame_core as tg
from service.config import MAX_GAME_BYTES
from service.errors import ApiError
from service.storage.store import FIRST_REV, Change, GameStore, Snapshot, game_key

CLOSED_PORT_URL = "redis://127.0.0.1:1/0"


def test_one_hash_tagged_key_with_format_versions(http: FlaskClient, redis_client: redis.Redis) -> None:
    game = started(http, players=2, seed=1)
    key = game_key(game.game_id)
    assert key == f"tg:{{{game.game_id}}}:game" and redis_client.exists(key)
    meta = json.loads(redis_client.hget(key, "meta"))
    assert meta["fv"] == 1 and [seat[0] for seat in meta["seats"]] == ["player0", "player1"]
    assert isinstance(json.loads(redis_client.hget(key, "state"))["format"], int)  # the core's own version
    assert tg.loads(redis_client.hget(key, "state")).version == 0


def test_tokens_are_stored_only_as_hashes(http: FlaskClient, redis_client: redis.Redis) -> None:
    game = started(http, players=2, seed=1)
    stored = b"".join(redis_client.hgetall(game_key(game.game_id)).values())
    for token in (game.host, *game.tokens.values()):
        assert token.encode() not in stored


def test_ttl_follows_the_games_stage(make_app: Callable[..., Flask], redis_client: redis.Redis) -> None:
    http = make_app(LOBBY_TTL=1000, GAME_TTL=5000, FINISHED_TTL=9000).test_client()
    game = new_game(http, players=1, deck=SORTED_DECK)
    key = game_key(game.game_id)
    assert 990 <= redis_client.ttl(key) <= 1000
    game.seat("ann")
    game.start()
    assert 4990 <= redis_client.ttl(key) <= 5000
    win_sorted_game(game)
    assert 8990 <= redis_client.ttl(key) <= 9000


def test_an_expired_game_is_unknown(make_app: Callable[..., Flask]) -> None:
    http = make_app(LOBBY_TTL=1).test_client()
    game = new_game(http, players=1)
    assert game.view().status_code == 200
    time.sleep(1.6)
    assert error_of(game.view()) == (404, "unknown_game")


def stored_bytes(redis_client: redis.Redis, game_id: str) -> int:
    return sum(len(name) + len(value) for name, value in redis_client.hgetall(game_key(game_id)).items())


def test_games_stay_small(http: FlaskClient, redis_client: redis.Redis) -> None:
    five = started(http, players=5, seed=2)  # five names and token hashes
    won = started(http, players=1, deck=SORTED_DECK)
    win_sorted_game(won)  # the longest history: 98 plays and 12 turn ends
    assert stored_bytes(redis_client, five.game_id) <= 4096
    assert stored_bytes(redis_client, won.game_id) <= 4096


def test_unreachable_redis_answers_503_and_loses_nothing(make_app: Callable[..., Flask], http: FlaskClient) -> None:
    game = started(http, players=1, deck=SORTED_DECK)
    game.play(0, 2, "asc1")
    before = game.view(0).get_json()
    down = make_app(REDIS_URL=CLOSED_PORT_URL, REDIS_CLIENT=None).test_client()
    token = {"Authorization": f"Bearer {game.tokens[0]}"}
    attempts = [
        down.get("/v1/health"),
        down.post("/v1/games", json={"players": 1}),
        down.get(game.url),
        down.post(f"{game.url}/plays", json={"card": 3, "pile": "asc1"}, headers=token),
        down.post(f"{game.url}/turn/end", headers=token),
    ]
    for response in attempts:
        assert error_of(response) == (503, "store_unavailable") and response.headers["Retry-After"]
    assert game.view(0).get_json() == before
    assert game.play(0, 3, "asc1").status_code == 200


def test_health(http: FlaskClient) -> None:
    for route in ("/v1/health", "/v1/health/ready", "/v1/health/live"):
        response = http.get(route)
        assert response.status_code == 200 and response.get_json()["status"] == "ok"


def test_an_unreachable_store_makes_the_process_unready_but_not_dead(make_app: Callable[..., Flask]) -> None:
    """An orchestrator restarts a process whose liveness fails: a Redis outage must not fail it."""
    down = make_app(REDIS_URL=CLOSED_PORT_URL, REDIS_CLIENT=None).test_client()
    assert down.get("/v1/health/live").get_json() == {"status": "ok"}
    for route in ("/v1/health/ready", "/v1/health"):
        assert error_of(down.get(route)) == (503, "store_unavailable")


def conflicting_writer(
    redis_client: redis.Redis, game_id: str, conflicts: int
) -> tuple[list[str | None], Callable[[Snapshot], Change[str]]]:
    """A compute function that, ``conflicts`` times, lets another writer of the store (which moves the game's
    revision, as every write does) change the game between the read and the write."""
    seen: list[str | None] = []

    def compute(snapshot: Snapshot) -> Change[str]:
        seen.append(snapshot.meta)
        if len(seen) <= conflicts:
            redis_client.hset(game_key(game_id), "meta", f"other-{len(seen)}")
            redis_client.hincrby(game_key(game_id), "rev", 1)
        return Change(f"based on {snapshot.meta}", {"meta": f"mine after {snapshot.meta}"}, 60)

    return seen, compute


def test_a_conflicting_change_is_recomputed_from_fresh_data(redis_client: redis.Redis) -> None:
    store, game_id = GameStore(redis_client, retries=3, max_bytes=MAX_GAME_BYTES), secrets.token_urlsafe(12)
    assert store.create(game_id, {"meta": "first"}, 60)
    seen, compute = conflicting_writer(redis_client, game_id, conflicts=2)
    assert store.transact(game_id, None, compute) == "based on other-2"
    assert seen == ["first", "other-1", "other-2"]
    assert redis_client.hget(game_key(game_id), "meta") == b"mine after other-2"


def test_endless_conflicts_give_up_with_store_busy_and_write_nothing(redis_client: redis.Redis) -> None:
    store, game_id = GameStore(redis_client, retries=3, max_bytes=MAX_GAME_BYTES), secrets.token_urlsafe(12)
    assert store.create(game_id, {"meta": "first"}, 60)
    seen, compute = conflicting_writer(redis_client, game_id, conflicts=3)
    with pytest.raises(ApiError) as refused:
        store.transact(game_id, None, compute)
    assert refused.value.error == "store_busy" and refused.value.status == 503 and len(seen) == 3
    assert redis_client.hget(game_key(game_id), "meta") == b"other-3"


def test_create_never_overwrites(redis_client: redis.Redis) -> None:
    store, game_id = GameStore(redis_client, retries=3, max_bytes=MAX_GAME_BYTES), secrets.token_urlsafe(12)
    assert store.create(game_id, {"meta": "first"}, 60)
    assert not store.create(game_id, {"meta": "second"}, 60)
    assert redis_client.hget(game_key(game_id), "meta") == b"first"


def test_a_record_stored_before_live_play_loads_and_plays_on(http: FlaskClient, redis_client: redis.Redis) -> None:
    """Live play added fields to the record (clock, lobby list, spectators, leave, rematch) with defaults, so format 1
    stays readable: a game stored by the earlier service keeps its seats, its tokens and its log, and plays on."""
    stored = json.loads((Path(__file__).parents[1] / "data" / "record_before_live_play.json").read_text())
    game_id = secrets.token_urlsafe(12)  # a fresh id: the test suite shares the Redis
    redis_client.hset(game_key(game_id), mapping=stored["fields"])
    redis_client.expire(game_key(game_id), 60)
    ann = {"Authorization": f"Bearer {stored['tokens'][0]}"}
    view = http.get(f"/v1/games/{game_id}", headers=ann).get_json()
    assert [seat["name"] for seat in view["seats"]] == ["ann", "bob"] and view["current_seat"] == 0
    assert view["placed_this_turn"] == 1 and view["spectators"] is True
    play = view["legal_plays"][0]
    assert http.post(f"/v1/games/{game_id}/plays", json=play, headers=ann).status_code == 200
    entries = http.get(f"/v1/games/{game_id}/log").get_json()["entries"]
    assert [(entry["version"], entry["bot"], entry["auto"]) for entry in entries] == [
        (4, False, False),
        (5, False, False),
    ]


def ann_plays_a_turn(game: GameClient) -> None:
    """Seat 0 plays two cards, the first it may each time, and ends its turn."""
    for _ in range(2):
        play = game.view(0).get_json()["legal_plays"][0]
        assert game.play(0, play["card"], play["pile"]).status_code == 200
    assert game.end_turn(0).status_code == 200


def test_a_record_whose_marks_are_one_sequence_loads_and_plays_on(http: FlaskClient, redis_client: redis.Redis) -> None:
    """Until the marks were split by seat and action type, they were one sequence for the whole log ("h3b4h1"): such
    a record still says who made each action, and its next write stores them split."""
    game = new_game(http, game="the-game", players=2, seed=3)
    assert game.seat("ann", seat=0).status_code == 201
    assert game.seat("bot", token=game.host, seat=1, bot="greedy", reaction_ms=0).status_code == 201
    assert game.start(first_seat=1).status_code == 200  # the bot plays its turn at once, then ann's comes
    ann_plays_a_turn(game)
    before = [(entry["bot"], entry["auto"]) for entry in game.log().get_json()["entries"]]
    assert {bot for bot, _ in before} == {True, False}
    one_sequence = "".join(f"{'b' if bot else 'h'}1" for bot, _ in before)  # runs of one: as valid as any
    meta = json.loads(redis_client.hget(game_key(game.game_id), "meta") or "")
    assert isinstance(meta["clock"]["k"], dict)
    meta["clock"]["k"] = one_sequence
    redis_client.hset(game_key(game.game_id), "meta", json.dumps(meta))
    assert [(entry["bot"], entry["auto"]) for entry in game.log().get_json()["entries"]] == before
    ann_plays_a_turn(game)  # and the bot its next turn, in the same change
    entries = game.log().get_json()["entries"]
    assert [(entry["bot"], entry["auto"]) for entry in entries[: len(before)]] == before
    assert [entry["bot"] for entry in entries[len(before) :]] == [False] * 3 + [True] * (len(entries) - len(before) - 3)
    assert isinstance(json.loads(redis_client.hget(game_key(game.game_id), "meta") or "")["clock"]["k"], dict)


def test_a_write_sent_twice_is_known_again_not_taken_for_a_conflict(redis_client: redis.Redis) -> None:
    """A client library that sends the compare-and-set again after a reply lost to a failover (redis-py's cluster
    client does) must not make the service compute and apply the change a second time: the script answers the
    repeated write as done, by its token, and a different write at the same revision as refused."""
    store = GameStore(redis_client, 8, MAX_GAME_BYTES)
    game_id = secrets.token_hex(8)
    assert store.create(game_id, {"meta": "m0"}, 300)
    arguments: list[str | int] = [FIRST_REV, 300, MAX_GAME_BYTES, "w", "token-1", "meta", "m1"]
    assert store.compare_and_set(keys=[game_key(game_id)], args=arguments) == 1
    assert store.compare_and_set(keys=[game_key(game_id)], args=arguments) == 1  # the same write, sent again
    other = [FIRST_REV, 300, MAX_GAME_BYTES, "w", "token-2", "meta", "m2"]
    assert store.compare_and_set(keys=[game_key(game_id)], args=other) == 0
    assert redis_client.hmget(game_key(game_id), ["rev", "meta"]) == [b"2", b"m1"]

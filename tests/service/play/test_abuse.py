"""Abuse: seat tokens never leak through a guessed or replayed Idempotency-Key, and no game grows without bound."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, bearer, error_of, new_game, played_out, started

MAX_ANSWERS = 32  # the contract's bound on remembered answers per caller per game


def key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


def stored_bytes(client: redis.Redis, game: GameClient) -> dict[str, int]:
    """The game's hash: field name -> bytes of name and value."""
    fields = client.hgetall(f"tg:{{{game.game_id}}}:game")
    return {name.decode(): len(name) + len(value) for name, value in fields.items()}


def toggle(game: GameClient, seat: int, number: int, **headers: str) -> Any:
    """The ``number``-th signal of a set/clear series on asc1: each changes the table."""
    return game.post("signals", seat, {"pile": "asc1", "kind": "dont_play", "clear": number % 2 == 1}, **headers)


# 1. Seat tokens -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "guessable",
    [
        "join",
        "Ann",
        "a" * 15,
        "a" * 16,
        "a" * 40,
        "ab" * 20,
        "ann-joins-game-1 ",
        "ann-joins-game-1",
        "ann-joins-the-game-one",
        "ann.joins.game.one",
        "ann joins game one",
        "änn-joins-the-game",
    ],
)
def test_a_seat_without_a_token_refuses_a_guessable_key(http: FlaskClient, guessable: str) -> None:
    game = new_game(http, players=2)
    response = http.post(f"{game.url}/seats", json={"name": "ann"}, headers=key(guessable))
    assert error_of(response) == (422, "validation_error")
    assert "Idempotency-Key" in response.get_json()["errors"]
    assert game.view().get_json()["version"] == 0  # nothing taken


@pytest.mark.parametrize(
    "secret",
    [
        "0f8fad5b-d9cb-469f-a165-70867728950e",
        "0f8fad5bd9cb469fa16570867728950e",
        "kIpnjoTuFLF2TW7_au4tCw",
        "A1_-b2C3d4E5f6G7h8I9j0",
    ],
)
def test_a_seat_without_a_token_takes_an_unguessable_key(http: FlaskClient, secret: str) -> None:
    game = new_game(http, players=2)
    first = http.post(f"{game.url}/seats", json={"name": "ann"}, headers=key(secret))
    assert first.status_code == 201 and first.get_json()["token"]
    assert http.post(f"{game.url}/seats", json={"name": "ann"}, headers=key(secret)).get_json() == first.get_json()


def test_two_clients_sending_the_same_key_never_share_a_seat_token(http: FlaskClient) -> None:
    """A key is bound to the address that first sent it: from another address it is another request."""
    game = new_game(http, players=3)
    secret = key(str(uuid.uuid4()))
    first = http.post(
        f"{game.url}/seats", json={"name": "ann"}, headers=secret, environ_base={"REMOTE_ADDR": "192.0.2.1"}
    )
    other = http.post(
        f"{game.url}/seats", json={"name": "ann"}, headers=secret, environ_base={"REMOTE_ADDR": "192.0.2.2"}
    )
    assert first.status_code == 201 and other.status_code in (201, 409)
    assert first.get_json()["token"] not in other.get_data(as_text=True)
    retry = http.post(
        f"{game.url}/seats", json={"name": "ann"}, headers=secret, environ_base={"REMOTE_ADDR": "192.0.2.1"}
    )
    assert retry.get_json() == first.get_json()  # its first sender still gets its answer again


def test_the_incident_join_with_a_name_hands_out_no_token(http: FlaskClient) -> None:
    game = new_game(http, players=2)
    game.fill()
    game.start(first_seat=0)
    response = http.post(f"{game.url}/seats", json={"name": "player0"}, headers=key("join"))
    assert response.status_code == 422 and "token" not in response.get_json()


def test_a_seat_token_is_replayed_only_while_the_lobby_is_open(http: FlaskClient) -> None:
    game = new_game(http, players=2)
    secret = key(str(uuid.uuid4()))
    first = http.post(f"{game.url}/seats", json={"name": "ann"}, headers=secret)
    assert first.status_code == 201
    game.seat("bob")
    in_lobby = http.post(f"{game.url}/seats", json={"name": "ann"}, headers=secret)
    assert in_lobby.status_code == 201 and in_lobby.get_json() == first.get_json()  # lobby still open
    assert game.start(first_seat=0).status_code == 200
    after = http.post(f"{game.url}/seats", json={"name": "ann"}, headers=secret)
    assert error_of(after) == (409, "game_started") and first.get_json()["token"] not in after.get_data(as_text=True)
    other = http.post(f"{game.url}/seats", json={"name": "eve"}, headers=secret)  # another body still says so
    assert error_of(other) == (422, "idempotency_key_reused")


def test_a_seat_token_holder_keeps_its_own_keys(http: FlaskClient) -> None:
    """A caller with a token is scoped by it: short keys stay fine for it (the host seating a bot, a seat acting)."""
    game = new_game(http, players=2)
    game.seat("ann")
    robo, headers = {"name": "robo", "bot": "greedy"}, bearer(game.host, **key("b"))
    bot = http.post(f"{game.url}/seats", json=robo, headers=headers)
    assert bot.status_code == 201
    again = http.post(f"{game.url}/seats", json=robo, headers=headers)
    assert again.get_json() == bot.get_json()


# 2. Bounded games ----------------------------------------------------------------------------
def test_a_caller_s_newest_answers_are_remembered_and_the_oldest_forgotten(http: FlaskClient) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    sent = MAX_ANSWERS + 8
    answers = [toggle(game, 0, number, **key(f"signal-{number}")) for number in range(sent)]
    assert all(answer.status_code == 200 for answer in answers)
    version = game.view().get_json()["version"]
    for number in range(sent - MAX_ANSWERS, sent):  # remembered: the first answer, nothing applied
        retry = toggle(game, 0, number, **key(f"signal-{number}"))
        assert retry.status_code == 200 and retry.get_json() == answers[number].get_json()
    assert game.view().get_json()["version"] == version
    # The newest forgotten one is a new request again: a clear of a clear table is refused as unchanged.
    forgotten = sent - MAX_ANSWERS - 1
    assert forgotten % 2 == 1
    assert error_of(toggle(game, 0, forgotten, **key(f"signal-{forgotten}"))) == (422, "signal_unchanged")
    # Another caller's answers are bounded on their own: seat 1's first key is still remembered.
    first = toggle(game, 1, 0, **key("signal-0"))
    assert toggle(game, 1, 0, **key("signal-0")).get_json() == first.get_json()


def test_fresh_keys_do_not_grow_the_remembered_answers(http: FlaskClient, redis_client: redis.Redis) -> None:
    game = started(http, players=2, deck=SORTED_DECK)
    for number in range(3 * MAX_ANSWERS):
        assert toggle(game, 0, number, **key(str(uuid.uuid4()))).status_code == 200
    sizes = stored_bytes(redis_client, game)
    remembered = sum(size for name, size in sizes.items() if name not in ("meta", "state", "rev"))
    assert 0 < remembered <= MAX_ANSWERS * 100


@pytest.fixture
def small(make_app: Callable[..., Flask]) -> FlaskClient:
    """An app whose games may take at most 3,000 bytes (the default is 64 KB)."""
    return make_app(MAX_GAME_BYTES=3000).test_client()


def test_a_change_that_would_make_the_game_too_large_is_refused_and_writes_nothing(
    small: FlaskClient, redis_client: redis.Redis
) -> None:
    game = started(small, players=2, deck=SORTED_DECK)
    number = 0
    while (answer := toggle(game, 0, number, **key(f"s-{number}"))).status_code == 200:
        number += 1
        assert number < 500, "the bound never answered"
    assert error_of(answer) == (409, "game_too_large")
    before = redis_client.hgetall(f"tg:{{{game.game_id}}}:game")
    assert sum(len(name) + len(value) for name, value in before.items() if name != b"rev") <= 3000
    assert error_of(toggle(game, 0, number, **key(f"s-{number}"))) == (409, "game_too_large")  # a retry too
    assert redis_client.hgetall(f"tg:{{{game.game_id}}}:game") == before  # nothing written, rev included
    assert game.view().get_json()["version"] == 3 + number  # reads still answer
    replay = toggle(game, 0, number - 1, **key(f"s-{number - 1}"))  # a remembered answer still replays
    assert replay.status_code == 200 and replay.get_json()["version"] == 3 + number


def test_finished_games_stay_far_below_the_bound(http: FlaskClient, redis_client: redis.Redis) -> None:
    """A whole game of bots, then every seat's answers at their bound, fits in 64 KB with room to spare."""
    created = http.post("/v1/games", json={"game": "ninja", "players": 6, "seed": 7})
    game = GameClient(http, created)
    for seat in range(6):
        body = {"name": f"robo{seat}", "bot": "greedy", "reaction_ms": 0}
        assert http.post(f"{game.url}/seats", json=body, headers=bearer(game.host)).status_code == 201
    game.start()
    assert played_out(game)["status"] == "finished"
    assert sum(stored_bytes(redis_client, game).values()) < 16 * 1024


def test_the_per_key_records_of_earlier_versions_are_dropped_by_the_next_write(
    small: FlaskClient, redis_client: redis.Redis
) -> None:
    """A game bloated by earlier versions' one-field-per-key records (``i:...``) can be played on, and shrinks."""
    game = started(small, players=2, deck=SORTED_DECK)
    name = f"tg:{{{game.game_id}}}:game"
    redis_client.hset(name, mapping={f"i:{number:020d}": "x" * 90 for number in range(100)})  # 11 KB > 3,000
    assert game.play(0, 2, "asc1").status_code == 200
    assert not [field for field in redis_client.hkeys(name) if field.startswith(b"i:")]
    assert game.view().get_json()["version"] == 4

"""DELETE /v1/games/{id}/seats/{seat}: free again in the lobby; during play a bot holds it until someone takes it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gameclient import GameClient, bearer, error_of, new_game, started
from lobbies import Lobbies

import thegame_core as tg


@pytest.fixture
def http(make_app: Callable[..., Flask]) -> FlaskClient:
    """Bots left alone may play a game to its end inside one request here (the per-request cap of bot work
    is test_clock's subject)."""
    return make_app(BOT_DECISIONS=100_000).test_client()


def leave(game: GameClient, seat: int, token: str | None, **headers: str) -> int:
    response = game.http.delete(f"{game.url}/seats/{seat}", headers=bearer(token, **headers))
    assert response.status_code in (204, 401, 403, 404, 409, 412, 422), response.status_code
    return response.status_code


def seat_entry(game: GameClient, seat: int) -> dict[str, object]:
    """Who holds ``seat``, as the host sees it."""
    entry = game.view(Authorization=f"Bearer {game.host}").get_json()["seats"][seat]
    return {key: entry[key] for key in ("seat", "name", "bot", "bot_name")}


def play_a_turn(game: GameClient, seat: int) -> None:
    """Two legal plays (the first each view lists), then the end of the turn."""
    for _ in range(2):
        play = game.view(seat).get_json()["legal_plays"][0]
        assert game.play(seat, play["card"], play["pile"]).status_code == 200
    assert game.end_turn(seat).status_code == 200


def test_in_the_lobby_a_seat_left_is_free_again(http: FlaskClient) -> None:
    game = new_game(http, players=2)
    game.seat("ann")
    game.seat("bob")
    version = game.view(0).get_json()["version"]
    assert leave(game, 1, game.tokens[1]) == 204
    assert seat_entry(game, 1) == {"seat": 1, "name": None, "bot": False, "bot_name": None}
    assert game.view(0).get_json()["version"] == version + 1
    assert error_of(game.view(1)) == (401, "invalid_token")
    assert game.seat("cat").get_json()["seat"] == 1


def test_the_host_removes_a_bot_from_the_lobby(http: FlaskClient) -> None:
    game = new_game(http, players=2)
    assert game.seat("robo", token=game.host, bot="greedy").status_code == 201
    assert leave(game, 0, game.host) == 204
    assert seat_entry(game, 0)["name"] is None


def test_a_full_public_lobby_is_listed_again_once_a_seat_is_left(lobbies: Lobbies) -> None:
    game = lobbies.create(players=2)
    game.fill()
    assert lobbies.listed() == []
    assert leave(game, 0, game.tokens[0]) == 204
    assert [lobby["free_seats"] for lobby in lobbies.page()["games"]] == [[0]]


def test_who_may_leave_and_when(http: FlaskClient) -> None:
    game = new_game(http, players=2)
    game.seat("ann")
    game.seat("bob")
    url = f"{game.url}/seats/1"
    assert error_of(http.delete(url)) == (401, "invalid_token")
    assert error_of(http.delete(url, headers=bearer(game.tokens[0]))) == (403, "forbidden")
    assert error_of(http.delete(url, headers=bearer(game.host, **{"If-Match": '"0"'}))) == (412, "stale_version")
    assert error_of(http.delete(f"{game.url}/seats/2", headers=bearer(game.host))) == (422, "validation_error")
    assert error_of(http.delete("/v1/games/nosuchgame/seats/0", headers=bearer(game.host))) == (404, "unknown_game")
    assert leave(game, 1, game.host) == 204
    assert error_of(http.delete(url, headers=bearer(game.host))) == (409, "seat_free")


def test_leaving_without_a_token_is_refused_before_its_idempotency_key_is_read(http: FlaskClient) -> None:
    """A guessable Idempotency-Key is refused only from a caller who might succeed without a token: leaving a
    seat needs one, so its absence answers first (401), after an unknown game's 404."""
    game = new_game(http, players=2)
    assert game.seat("ann").status_code == 201
    guessable = {"Idempotency-Key": "1"}
    assert error_of(http.delete(f"{game.url}/seats/0", headers=guessable)) == (401, "invalid_token")
    assert error_of(http.delete("/v1/games/no-such-game/seats/0", headers=guessable)) == (404, "unknown_game")
    assert game.view().get_json()["seats"][0]["name"] == "ann"


def test_a_finished_game_keeps_its_seats(http: FlaskClient) -> None:
    game = started(http, players=2, seed=3)
    assert leave(game, 0, game.tokens[0]) == 204
    assert leave(game, 1, game.tokens[1]) == 204  # two bots now play it to the end
    view = game.view(Authorization=f"Bearer {game.host}").get_json()
    assert view["status"] in ("won", "lost")
    assert error_of(http.delete(f"{game.url}/seats/0", headers=bearer(game.host))) == (409, "game_over")
    assert error_of(game.seat("late")) == (409, "game_over")
    replay = game.log().get_json()["replay"]
    assert tg.replay(replay).public_view()["piles"] == view["piles"]


def test_during_play_a_bot_holds_the_seat_until_someone_takes_it(http: FlaskClient) -> None:
    game = started(http, players=2, seed=11)  # seat 0 first
    old_token = game.tokens[1]
    before = game.view(0).get_json()["version"]
    assert leave(game, 1, old_token) == 204
    assert seat_entry(game, 1) == {"seat": 1, "name": None, "bot": True, "bot_name": "best"}
    assert game.view(0).get_json()["version"] == before + 1
    assert error_of(game.view(1)) == (401, "invalid_token")
    play_a_turn(game, 0)
    after_bot = game.view(0).get_json()
    assert after_bot["current_seat"] == 0 and after_bot["version"] == before + 1 + 3 + len(_bot_entries(game))
    taken = game.seat("cat")
    assert taken.status_code == 201 and taken.get_json()["seat"] == 1
    assert taken.get_json()["version"] == after_bot["version"] + 1
    assert seat_entry(game, 1) == {"seat": 1, "name": "cat", "bot": False, "bot_name": None}
    assert game.view(1).get_json()["seat"] == 1 and old_token != game.tokens[1]
    assert error_of(game.seat("dan")) == (409, "game_started")


def test_the_host_may_seat_a_bot_in_a_seat_left(http: FlaskClient) -> None:
    game = started(http, game="ninja", players=2, seed=4)
    assert leave(game, 0, game.tokens[0]) == 204
    assert error_of(game.seat("robo", bot="greedy")) == (401, "invalid_token")
    assert game.seat("robo", token=game.host, bot="greedy", seat=0).status_code == 201
    assert seat_entry(game, 0) == {"seat": 0, "name": "robo", "bot": True, "bot_name": "greedy"}


def test_log_versions_count_the_changes_in_play(http: FlaskClient) -> None:
    game = started(http, players=2, seed=11)
    at_start = game.view(0).get_json()["version"]
    assert leave(game, 1, game.tokens[1]) == 204
    play_a_turn(game, 0)
    game.seat("cat")
    play_a_turn(game, 0)
    play_a_turn(game, 1)
    versions = [entry["version"] for entry in game.log().get_json()["entries"]]
    current = game.view(0).get_json()["version"]
    assert versions == sorted(set(versions)) and versions[-1] <= current
    skipped = set(range(at_start + 1, current + 1)) - set(versions)
    assert len(skipped) == 2  # the leave and the take: versions no action has


@pytest.mark.parametrize("change", ["leave", "take"])
def test_a_retried_action_after_a_seat_change_answers_the_first_view(http: FlaskClient, change: str) -> None:
    game = started(http, players=3, seed=2)
    if change == "take":
        assert leave(game, 2, game.tokens[2]) == 204
    play = game.view(0).get_json()["legal_plays"][0]
    key = {"Idempotency-Key": "retry-after-a-seat-change"}
    first = game.play(0, play["card"], play["pile"], **key)
    assert first.status_code == 200
    if change == "leave":
        assert leave(game, 2, game.tokens[2]) == 204
    else:
        assert game.seat("cat").status_code == 201
    again = game.play(0, play["card"], play["pile"], **key)
    assert again.headers["ETag"] == first.headers["ETag"]
    # the state the first answer showed; the seats show who holds them now
    assert {**again.get_json(), "seats": None} == {**first.get_json(), "seats": None}


def test_a_retried_take_during_play_hands_back_the_same_token(http: FlaskClient) -> None:
    game = started(http, players=2, seed=5)
    assert leave(game, 1, game.tokens[1]) == 204
    key = {"Idempotency-Key": "0f8fad5b-d9cb-469f-a165-70867728950e"}
    first = http.post(f"{game.url}/seats", json={"name": "cat"}, headers=key)
    again = http.post(f"{game.url}/seats", json={"name": "cat"}, headers=key)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()


def _bot_entries(game: GameClient) -> list[dict[str, object]]:
    return [entry for entry in game.log().get_json()["entries"] if entry["seat"] == 1]


def test_a_retried_take_of_a_seat_left_answers_seat_left(http: FlaskClient) -> None:
    """The retry's token is dead once its seat is left: never a 500, never the dead token, never another's seat."""
    game = new_game(http, players=2)
    key = {"Idempotency-Key": "0f8fad5b-d9cb-469f-a165-70867728950e"}
    first = http.post(f"{game.url}/seats", json={"name": "ann", "seat": 0}, headers=key)
    assert first.status_code == 201
    assert leave(game, 0, first.get_json()["token"]) == 204
    assert error_of(http.post(f"{game.url}/seats", json={"name": "ann", "seat": 0}, headers=key)) == (409, "seat_left")
    assert game.seat("bob").get_json()["seat"] == 0  # someone else takes it meanwhile
    again = http.post(f"{game.url}/seats", json={"name": "ann", "seat": 0}, headers=key)
    assert error_of(again) == (409, "seat_left") and first.get_json()["token"] not in again.get_data(as_text=True)


def test_a_retried_bot_seat_the_host_removed_answers_seat_left(http: FlaskClient) -> None:
    game = new_game(http, players=2)
    key = {"Idempotency-Key": "robo"}
    body = {"name": "robo", "seat": 0, "bot": "greedy"}
    assert http.post(f"{game.url}/seats", json=body, headers=bearer(game.host, **key)).status_code == 201
    assert leave(game, 0, game.host) == 204
    assert error_of(http.post(f"{game.url}/seats", json=body, headers=bearer(game.host, **key))) == (409, "seat_left")


def test_a_retried_take_during_play_of_a_seat_left_again_answers_seat_left(http: FlaskClient) -> None:
    game = started(http, players=2, seed=5)
    assert leave(game, 1, game.tokens[1]) == 204
    key = {"Idempotency-Key": "0f8fad5b-d9cb-469f-a165-70867728950e"}
    first = http.post(f"{game.url}/seats", json={"name": "cat"}, headers=key)
    assert leave(game, 1, first.get_json()["token"]) == 204
    assert error_of(http.post(f"{game.url}/seats", json={"name": "cat"}, headers=key)) == (409, "seat_left")

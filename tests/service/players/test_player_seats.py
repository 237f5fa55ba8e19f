"""Seats follow their player (issue 28, point 2): a seat taken with a player key is bound to the player, and the key
then does what that seat's token does, on any device; never for a seat it is not bound to."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from events_reader import EventReader
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, bearer, error_of, new_game, stuck_deck
from players_client import LOST_TURN, Player, seated


def test_a_seat_taken_with_a_key_is_bound_and_the_key_acts_for_it(http: FlaskClient) -> None:
    ann, bob = Player(http, "Ann"), Player(http, "Bob")
    game = new_game(http, players=2, seed=7)
    taken = ann.sit(game, seat=1)
    assert taken.status_code == 201 and taken.get_json()["token"]  # the seat's own token, as for anyone
    assert bob.sit(game, seat=0).status_code == 201
    assert game.start(first_seat=0).status_code == 200
    view = ann.get(game.url).get_json()
    assert view["seat"] == 1 and len(view["hand"]) == 7  # the key reads the seat's hand
    assert [entry["player"] for entry in view["seats"]] == [bob.id, ann.id]
    hand = bob.get(game.url).get_json()["hand"]
    played = bob.post(
        f"{game.url}/turns",
        {"plays": [{"card": hand[0], "pile": "asc1"}, {"card": hand[1], "pile": "asc1"}], "end_turn": True},
    )
    assert played.status_code == 200 and played.get_json()["seat"] == 0
    assert error_of(bob.post(f"{game.url}/turn/end")) == (409, "not_your_turn")  # its own seat, not ann's
    assert ann.get(f"{game.url}/log").status_code == 200


def test_the_seat_token_keeps_working_beside_the_key(http: FlaskClient) -> None:
    ann = Player(http)
    game = new_game(http, players=1, deck=stuck_deck())
    token = ann.sit(game).get_json()["token"]
    assert game.start(first_seat=0).status_code == 200
    assert http.get(game.url, headers=bearer(token)).get_json()["seat"] == 0
    assert http.post(f"{game.url}/turns", json=LOST_TURN, headers=bearer(token)).get_json()["status"] == "lost"


def test_a_key_never_acts_for_a_seat_it_is_not_bound_to(http: FlaskClient) -> None:
    ann, eve = Player(http, "Ann"), Player(http, "Eve")
    game = seated(http, ann, players=2)
    assert game.start(first_seat=0).status_code == 200
    view = eve.get(game.url).get_json()
    assert "hand" not in view and "seat" not in view  # the public view: eve holds no seat here
    assert error_of(eve.post(f"{game.url}/turn/end")) == (401, "invalid_token")
    assert error_of(eve.delete(f"{game.url}/seats/0")) == (401, "invalid_token")
    assert error_of(eve.post(f"{game.url}/start")) == (401, "invalid_token")  # nor the host
    private = new_game(http, players=1, spectators=False)
    assert error_of(eve.get(private.url)) == (403, "forbidden")


def test_a_player_holds_one_seat_of_a_game(http: FlaskClient) -> None:
    ann = Player(http)
    game = new_game(http, players=2)
    assert ann.sit(game, seat=0).status_code == 201
    assert error_of(ann.sit(game, seat=1)) == (409, "already_seated")
    assert game.seat("bob", seat=1).status_code == 201  # anonymously, anyone may take it


def test_an_unknown_or_revoked_key_is_401_on_game_routes(http: FlaskClient) -> None:
    ann = Player(http)
    game = seated(http, ann)
    key_id = ann.answer["key_id"]
    assert ann.delete(f"/v1/players/me/keys/{key_id}").status_code == 204
    for answer in (ann.get(game.url), ann.post(f"{game.url}/start"), ann.sit(new_game(http, players=1))):
        assert error_of(answer) == (401, "invalid_token")


def test_the_key_leaves_its_seat_and_then_acts_for_nothing(http: FlaskClient) -> None:
    ann = Player(http)
    game = seated(http, ann, players=2)
    assert ann.delete(f"{game.url}/seats/0").status_code == 204
    assert game.view().get_json()["seats"][0]["name"] is None
    assert "seat" not in ann.get(game.url).get_json()
    assert ann.sit(game, seat=0).status_code == 201  # and may take it again


def test_a_daily_deal_taken_with_a_key_is_bound(make_app: Callable[..., Flask], clock: FakeClock) -> None:
    daily_http = make_app(CLOCK=clock, DAILY_PREFIX=f"test-{secrets.token_hex(6)}:").test_client()
    ann = Player(daily_http)
    created = daily_http.post(
        "/v1/games",
        json={"game": "the-game", "players": 2, "daily": "2026-05-01", "name": "Ann"},
        headers=ann.headers(),
    )
    assert created.status_code == 201
    game_id, seat = created.get_json()["game_id"], created.get_json()["seat"]
    view = ann.get(f"/v1/games/{game_id}").get_json()
    assert view["seat"] == seat and view["seats"][seat]["player"] == ann.id
    listed = ann.games()["games"]
    assert [entry["game_id"] for entry in listed] == [game_id] and listed[0]["daily"] == "2026-05-01"


def test_a_rematch_keeps_each_seat_bound_to_its_player(http: FlaskClient) -> None:
    ann = Player(http)
    game = new_game(http, players=1, deck=stuck_deck())
    assert ann.sit(game).status_code == 201
    assert game.start(first_seat=0).status_code == 200
    assert ann.post(f"{game.url}/turns", LOST_TURN).get_json()["status"] == "lost"
    rematch = http.post(f"{game.url}/rematch", headers=bearer(game.host))
    assert rematch.status_code == 201
    new_id = rematch.get_json()["game_id"]
    assert ann.get(game.url).get_json()["rematch"] == {"game_id": new_id}  # no sealed token for a key: none needed
    view = ann.get(f"/v1/games/{new_id}").get_json()
    assert view["seat"] == 0 and view["status"] == "playing" and view["seats"][0]["player"] == ann.id
    assert [entry["game_id"] for entry in ann.games()["games"]] == [new_id, game.game_id]


def test_the_key_follows_its_seat_s_event_stream_from_the_header_only(http: FlaskClient) -> None:
    ann = Player(http)
    game = seated(http, ann)
    stream = http.get(f"{game.url}/events", headers=ann.headers())
    assert stream.status_code == 200
    first = EventReader(stream.response).next_event()
    assert first.view["seat"] == 0
    stream.close()
    in_url = http.get(f"{game.url}/events", query_string={"token": ann.key})
    assert error_of(in_url) == (401, "invalid_token") and "header" in in_url.get_json()["message"]


def test_a_key_s_changes_count_against_its_seat_s_budget(make_app: Callable[..., Flask], clock: FakeClock) -> None:
    app = make_app(LIMITS=True, LIMITS_PREFIX=f"tg:test-keys-{id(clock)}:", LIMITS_CLOCK=clock, CHANGE_RATE=(2, 600))
    http = app.test_client()
    ann = Player(http)
    game = seated(http, ann, players=2)
    answers = [ann.post(f"{game.url}/turn/end") for _ in range(3)]  # refused (the lobby), yet counted
    assert [answer.status_code for answer in answers] == [409, 409, 429]
    token = game.tokens[1]
    assert http.post(f"{game.url}/turn/end", headers=bearer(token)).status_code == 409  # another seat's budget

"""Rated games at creation and at the seat, black-box: Ninja and Bataille corse may be rated, The Game never; every
seat of a rated game is a distinct player's key, refused at the seat otherwise (issue 29, point 1)."""

from __future__ import annotations

from flask.testing import FlaskClient
from gameclient import bearer, error_of
from players_client import Player
from rated_games import RatedGame


def test_the_catalog_says_which_games_may_be_rated(http: FlaskClient) -> None:
    games = {game["name"]: game["rated"] for game in http.get("/v1/games/catalog").get_json()["games"]}
    assert games == {"the-game": False, "ninja": True, "bataille-corse": True}


def test_the_game_is_never_rated(http: FlaskClient) -> None:
    answer = http.post("/v1/games", json={"game": "the-game", "players": 2, "rated": True})
    assert error_of(answer) == (422, "game_not_rated")
    daily = {"game": "ninja", "daily": "2026-01-01", "name": "ann", "rated": True}
    assert error_of(http.post("/v1/games", json=daily)) == (422, "validation_error")  # a daily deal seats bots


def test_a_rated_lobby_says_so_in_its_view_and_the_lobby_list(http: FlaskClient) -> None:
    created = http.post("/v1/games", json={"game": "ninja", "players": 2, "rated": True, "public": True})
    assert created.status_code == 201 and created.get_json()["rated"] is True
    listed = http.get("/v1/games", query_string={"game": "ninja"}).get_json()["games"]
    assert {"game_id": created.get_json()["game_id"], "rated": True}.items() <= next(
        lobby for lobby in listed if lobby["game_id"] == created.get_json()["game_id"]
    ).items()
    assert http.post("/v1/games", json={"game": "ninja", "players": 2}).get_json()["rated"] is False


def test_a_rated_seat_needs_a_player_key(http: FlaskClient) -> None:
    game = RatedGame(http, [Player(http, "Ann")])
    anonymous = http.post(f"{game.url}/seats", json={"name": "anon"})
    assert error_of(anonymous) == (403, "rated_needs_player")
    with_host_token = http.post(f"{game.url}/seats", json={"name": "anon"}, headers=bearer(game.host))
    assert error_of(with_host_token) == (403, "rated_needs_player")
    bot = http.post(f"{game.url}/seats", json={"name": "bot", "bot": "best"}, headers=bearer(game.host))
    assert error_of(bot) == (409, "rated_no_bots")
    assert http.get(game.url).get_json()["seats"][1]["name"] is None  # nothing was seated


def test_a_player_holds_one_seat_of_a_rated_game_whatever_its_key(http: FlaskClient) -> None:
    ann = Player(http, "Ann")
    game = RatedGame(http, [ann])
    assert error_of(ann.sit(game, seat=1)) == (409, "already_seated")
    code = ann.post("/v1/players/me/link").get_json()["code"]
    phone = Player(http, created=http.post("/v1/players/link", json={"code": code}))
    assert phone.id == ann.id and phone.key != ann.key
    assert error_of(phone.sit(game, seat=1)) == (409, "already_seated")  # the same player, another key


def test_a_rated_game_s_seats_close_at_its_start(http: FlaskClient) -> None:
    ann, bob, cid = Player(http, "Ann"), Player(http, "Bob"), Player(http, "Cid")
    game = RatedGame(http, [ann, bob])
    game.start()
    assert bob.delete(f"{game.url}/seats/1").status_code == 204  # a stand-in bot plays bob's seat to the end
    assert error_of(cid.sit(game, seat=1)) == (409, "game_started")
    assert error_of(bob.sit(game, seat=1)) == (409, "game_started")


def test_a_rated_game_s_deal_is_secret_from_everyone(http: FlaskClient) -> None:
    for name, chosen in (("seed", 7), ("deck", [2, 3])):  # whoever chose the deal would know it
        answer = http.post("/v1/games", json={"game": "ninja", "players": 2, "rated": True, name: chosen})
        assert error_of(answer) == (422, "validation_error")
        assert "rated" in answer.get_json()["errors"][name][0]

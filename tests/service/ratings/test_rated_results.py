"""A finished rated game rates its players once, black-box: its final view and event carry each seat's rating
before and after, the winner's rises and the loser's falls, and nothing moves twice (issue 29, points 1 and 2)."""

from __future__ import annotations

from events_reader import EventReader
from flask.testing import FlaskClient
from gameclient import bearer
from players_client import Player
from rated_games import RatedGame, finished

from service.ratings.scale import NEW


def test_the_final_view_carries_both_ratings_before_and_after(rated_http: FlaskClient) -> None:
    ann, bob = Player(rated_http, "Ann"), Player(rated_http, "Bob")
    view = finished(rated_http, ann, bob, winner_seat=1)
    assert view["rated"] is True and view["outcome"]["ranking"] == [1, 0]
    ratings = view["outcome"]["ratings"]
    assert [(entry["seat"], entry["player"]) for entry in ratings] == [(0, bob.id), (1, ann.id)]
    assert all(entry["before"] == NEW and entry["provisional"] for entry in ratings)
    assert ratings[1]["after"] > NEW > ratings[0]["after"]  # the winner rises, the loser falls
    for player in (ann, bob):  # every reader sees the same change, however often it reads
        again = rated_http.get(f"/v1/games/{view['game_id']}", headers=bearer(player.key)).get_json()
        assert again["outcome"]["ratings"] == ratings
    assert rated_http.get(f"/v1/games/{view['game_id']}").get_json()["outcome"]["ratings"] == ratings


def test_the_next_game_starts_from_the_ratings_the_last_one_left(rated_http: FlaskClient) -> None:
    ann, bob = Player(rated_http, "Ann"), Player(rated_http, "Bob")
    first = finished(rated_http, ann, bob)["outcome"]["ratings"]
    second = finished(rated_http, ann, bob)["outcome"]["ratings"]
    assert [entry["before"] for entry in second] == [entry["after"] for entry in first]
    assert second[0]["after"] > second[0]["before"] and second[1]["after"] < second[1]["before"]


def test_an_unrated_game_s_outcome_has_no_ratings(rated_http: FlaskClient) -> None:
    ann, bob = Player(rated_http, "Ann"), Player(rated_http, "Bob")
    game = RatedGame(rated_http, [ann, bob])
    game.play(0)
    unrated = rated_http.post("/v1/games", json={"game": "bataille-corse", "players": 2, "seed": 1}).get_json()
    assert "ratings" not in (rated_http.get(f"/v1/games/{unrated['game_id']}").get_json()["outcome"] or {})


def test_the_event_of_the_end_carries_the_ratings(rated_http: FlaskClient) -> None:
    ann, bob = Player(rated_http, "Ann"), Player(rated_http, "Bob")
    view = finished(rated_http, ann, bob)
    stream = rated_http.get(f"/v1/games/{view['game_id']}/events", headers=bearer(ann.key))
    event = EventReader(stream.response).next_event()  # the current view: the end
    stream.close()
    assert event.view["version"] == view["version"]
    assert event.view["outcome"]["ratings"] == view["outcome"]["ratings"]
    assert event.view["outcome"]["ratings"][0]["player"] == ann.id


def test_a_rated_game_s_rematch_is_rated_too(rated_http: FlaskClient) -> None:
    ann, bob = Player(rated_http, "Ann"), Player(rated_http, "Bob")
    game = RatedGame(rated_http, [ann, bob])
    first = game.play(0)["outcome"]["ratings"]
    rematch = rated_http.post(f"{game.url}/rematch", headers=bearer(game.host)).get_json()["game_id"]
    view = ann.get(f"/v1/games/{rematch}").get_json()
    assert view["rated"] is True and view["status"] == "playing"  # every seat held by its player: it starts at once
    flipper = view["current_seat"]
    [ann, bob][flipper].post(f"/v1/games/{rematch}/actions", {"type": "flip"})
    again = rated_http.get(f"/v1/games/{rematch}").get_json()["outcome"]["ratings"]
    assert [entry["before"] for entry in again] == [entry["after"] for entry in first]
    assert (
        again[flipper]["after"] < again[flipper]["before"]
        and again[1 - flipper]["after"] > again[1 - flipper]["before"]
    )

"""Plays, turn ends, whole turns and signals, with the contract's errors and views."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, bearer, error_of, new_game, started, tagged

PLAY_PATHS = ("plays", "turn/end", "turns", "signals")


@pytest.fixture
def duo(http: FlaskClient) -> GameClient:
    """Two players, sorted deck: seat 0 holds 2, 4, ..., 14 and seat 1 holds 3, 5, ..., 15; seat 0 starts."""
    return started(http, players=2, deck=SORTED_DECK)


def test_play_answers_the_new_seat_view(duo: GameClient) -> None:
    response = duo.play(0, 2, "asc1")
    view = response.get_json()
    assert response.status_code == 200 and tagged(response.headers["ETag"], 4)
    assert view["version"] == 4 and view["seat"] == 0 and view["hand"] == [4, 6, 8, 10, 12, 14]
    assert view["piles"][0] == {"id": "asc1", "direction": "up", "top": 2}
    assert view["placed_this_turn"] == 1 and view["required_this_turn"] == 2 and view["can_end_turn"] is False
    assert {"card": 4, "pile": "asc1"} in view["legal_plays"]


def test_end_turn_draws_and_passes_on(duo: GameClient) -> None:
    duo.play(0, 2, "asc1")
    duo.play(0, 4, "asc1")
    view = duo.end_turn(0).get_json()
    assert view["hand"] == [6, 8, 10, 12, 14, 16, 17] and view["current_seat"] == 1 and view["can_end_turn"] is False
    assert view["legal_plays"] == [] and view["draw_pile"] == 98 - 14 - 2
    assert duo.view(1).get_json()["can_end_turn"] is False and duo.view().get_json()["version"] == 6


def test_whole_turn_in_one_request(duo: GameClient) -> None:
    response = duo.turn(0, [(2, "asc1"), (4, "asc1"), (14, "desc1")])
    assert response.status_code == 200
    assert response.get_json()["current_seat"] == 1 and response.get_json()["version"] == 3 + 4


def test_whole_turn_is_all_or_nothing(duo: GameClient) -> None:
    response = duo.turn(0, [(2, "asc1"), (4, "asc1"), (3, "asc2")])
    assert error_of(response) == (422, "card_not_in_hand")
    view = duo.view(0).get_json()
    assert view["version"] == 3 and view["hand"] == [2, 4, 6, 8, 10, 12, 14] and view["placed_this_turn"] == 0
    assert error_of(duo.turn(0, [(2, "asc1")])) == (422, "minimum_not_reached")
    assert duo.view(0).get_json()["hand"][0] == 2


def test_turn_without_ending(duo: GameClient) -> None:
    view = duo.turn(0, [(2, "asc1")], end_turn=False).get_json()
    assert view["current_seat"] == 0 and view["placed_this_turn"] == 1


@pytest.mark.parametrize(
    "body",
    [
        {"plays": [], "end_turn": False},
        {"plays": [{"card": 2}]},
        {"plays": "2 on asc1"},
        {"plays": [{"card": 2, "pile": "asc1"}] * 9},
        {"end_turn": "yes please"},
    ],
)
def test_turn_body_validation(duo: GameClient, body: dict) -> None:
    assert error_of(duo.post("turns", 0, body)) == (422, "validation_error")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"card": 2},
        {"pile": "asc1"},
        {"card": "2", "pile": "asc1"},
        {"card": 2.5, "pile": "asc1"},
        {"card": 100, "pile": "asc1"},
        {"card": 1, "pile": "asc1"},
        {"card": 2, "pile": "asc3"},
        {"card": True, "pile": "asc1"},
        {"card": 2, "pile": "asc1", "seat": 1},
        [2, "asc1"],
    ],
)
def test_play_body_validation(duo: GameClient, body: object) -> None:
    response = duo.post("plays", 0, body)
    assert error_of(response) == (422, "validation_error")
    assert response.get_json()["errors"]


def test_rule_errors(duo: GameClient) -> None:
    assert error_of(duo.play(0, 3, "asc1")) == (422, "card_not_in_hand")
    duo.play(0, 10, "asc1")
    assert error_of(duo.play(0, 4, "asc1")) == (422, "illegal_play")
    assert error_of(duo.end_turn(0)) == (422, "minimum_not_reached")
    assert duo.play(0, 12, "desc1").status_code == 200


def test_ten_back_is_legal(duo: GameClient) -> None:
    duo.turn(0, [(14, "asc1"), (4, "asc2")])
    assert duo.play(1, 3, "asc1").status_code == 422  # 3 is not exactly ten below 14
    duo.play(1, 15, "asc1")
    assert duo.play(1, 5, "asc1").get_json()["piles"][0]["top"] == 5  # exactly ten below 15


def test_not_your_turn(duo: GameClient) -> None:
    assert error_of(duo.play(1, 3, "asc1")) == (409, "not_your_turn")
    assert error_of(duo.end_turn(1)) == (409, "not_your_turn")
    assert error_of(duo.turn(1, [(3, "asc1")])) == (409, "not_your_turn")


@pytest.mark.parametrize("path", PLAY_PATHS)
def test_playing_needs_a_seat_token(duo: GameClient, path: str) -> None:
    url = f"{duo.url}/{path}"
    assert error_of(duo.http.post(url, json={})) == (401, "invalid_token")
    assert error_of(duo.http.post(url, json={}, headers=bearer("forged"))) == (401, "invalid_token")
    assert error_of(duo.http.post(url, json={}, headers={"Authorization": "Basic abc"})) == (401, "invalid_token")
    assert error_of(duo.http.post(url, json={}, headers=bearer(duo.host))) == (403, "forbidden")


@pytest.mark.parametrize("path", PLAY_PATHS)
def test_game_not_started(http: FlaskClient, path: str) -> None:
    game = new_game(http, players=1)
    game.seat("ann")
    assert error_of(game.post(path, 0, {})) == (409, "game_not_started")


def test_tokens_of_another_game_are_unknown(http: FlaskClient, duo: GameClient) -> None:
    other = started(http, players=1)
    assert error_of(http.post(f"{other.url}/plays", json={}, headers=bearer(duo.tokens[0]))) == (401, "invalid_token")


def test_signals_from_any_seat_are_public(duo: GameClient) -> None:
    response = duo.signal(1, "desc1", "dont_play")
    assert response.status_code == 200 and response.get_json()["seat"] == 1
    assert duo.view().get_json()["signals"] == [{"seat": 1, "pile": "desc1", "kind": "dont_play"}]
    assert duo.view(0).get_json()["current_seat"] == 0  # a signal does not pass the turn
    duo.signal(1, "desc1", "dont_play", clear=True)
    assert duo.view().get_json()["signals"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"pile": "desc1"},
        {"pile": "desc1", "kind": "play_37"},
        {"pile": "middle", "kind": "dont_play"},
        {"pile": "desc1", "kind": "dont_play", "clear": "maybe"},
    ],
)
def test_signal_body_validation(duo: GameClient, body: dict) -> None:
    assert error_of(duo.post("signals", 1, body)) == (422, "validation_error")


def test_views_hide_other_hands_and_the_deck(duo: GameClient) -> None:
    public = duo.view().get_json()
    seat1 = duo.view(1).get_json()
    host = duo.http.get(duo.url, headers=bearer(duo.host)).get_json()
    assert host == public and "hand" not in public and "legal_plays" not in public
    assert seat1["hand"] == [3, 5, 7, 9, 11, 13, 15] and seat1["legal_plays"] == []
    text = str(seat1) + str(public)
    assert "deck" not in text and "16, 17" not in text and str([2, 4, 6, 8, 10, 12, 14]) not in text
    assert isinstance(public["draw_pile"], int)


def test_view_fields(duo: GameClient) -> None:
    view = duo.view(0).get_json()
    for key in (
        "game_id",
        "game",
        "status",
        "version",
        "options",
        "seats",
        "piles",
        "draw_pile",
        "current_seat",
        "placed_this_turn",
        "required_this_turn",
        "signals",
        "score",
        "seat",
        "hand",
        "legal_plays",
        "can_end_turn",
    ):
        assert key in view
    assert view["game_id"] == duo.game_id and view["score"] == 98
    assert view["seats"][0] == {
        "seat": 0,
        "name": "player0",
        "hand_size": 7,
        "bot": False,
        "bot_name": None,
        "reaction_ms": None,
        "reaction_spread_ms": None,
        "deadline": None,
        "seconds_left": None,
        "missed_turns": 0,
        "autoplay": False,
        "player": None,
    }


def test_etag_and_if_none_match(duo: GameClient) -> None:
    first = duo.view(0)
    tag = first.headers["ETag"]
    assert tagged(tag, 3) and duo.log().headers["ETag"] == tag
    assert duo.view(0, **{"If-None-Match": tag}).status_code == 304
    assert duo.view(0, **{"If-None-Match": '"3"'}).status_code == 200  # the version alone may be a lost one's
    duo.play(0, 2, "asc1")
    again = duo.view(0, **{"If-None-Match": tag})
    assert again.status_code == 200 and tagged(again.headers["ETag"], 4)


def test_if_match(duo: GameClient) -> None:
    assert error_of(duo.play(0, 2, "asc1", **{"If-Match": '"2"'})) == (412, "stale_version")
    assert duo.view().get_json()["version"] == 3
    assert duo.play(0, 2, "asc1", **{"If-Match": '"3"'}).status_code == 200
    assert error_of(duo.play(0, 4, "asc1", **{"If-Match": '"3"'})) == (412, "stale_version")
    assert duo.play(0, 4, "asc1", **{"If-Match": "*"}).status_code == 200
    tag = duo.view().headers["ETag"]
    assert error_of(duo.play(0, 6, "asc1", **{"If-Match": tag.replace(".", ".f")})) == (412, "stale_version")
    assert duo.play(0, 6, "asc1", **{"If-Match": tag}).status_code == 200


def test_unknown_game(http: FlaskClient) -> None:
    for path in ("", "/log", "/seats", "/start", "/plays"):
        method = http.get if path in ("", "/log") else http.post
        assert error_of(method(f"/v1/games/nosuchgame{path}")) == (404, "unknown_game")
    assert error_of(http.get("/v1/games/bad%7Bid%7D")) == (404, "unknown_game")

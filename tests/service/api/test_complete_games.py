"""Whole games through HTTP only: won, lost, the log redacted while playing and the replay after."""

from __future__ import annotations

from flask.testing import FlaskClient
from gameclient import SORTED_DECK, GameClient, error_of, started, stuck_deck

import thegame_core as tg


def win_sorted_game(game: GameClient) -> list[int]:
    """Play everything on asc1 in ascending order, one whole turn per request; the versions seen."""
    versions = []
    while (view := game.view(0).get_json())["status"] == "playing":
        hand = view["hand"]
        last_turn = view["draw_pile"] == 0
        response = game.turn(0, [(card, "asc1") for card in hand], end_turn=not last_turn)
        assert response.status_code == 200, response.get_json()
        versions.append(response.get_json()["version"])
    return versions


def test_a_won_game(http: FlaskClient) -> None:
    game = started(http, players=1, deck=SORTED_DECK)
    versions = win_sorted_game(game)
    view = game.view(0).get_json()
    assert view["status"] == "won" and view["score"] == 0 and view["outcome"]["reason"] == "all_cards_placed"
    assert view["piles"][0]["top"] == 99 and view["hand"] == [] and view["draw_pile"] == 0
    assert versions == sorted(set(versions)) and view["version"] == 2 + 98 + 12
    assert error_of(game.play(0, 2, "asc2")) == (409, "game_over")
    assert error_of(game.end_turn(0)) == (409, "game_over")
    assert error_of(game.signal(0, "asc1", "dont_play")) == (409, "game_over")


def test_a_lost_game(http: FlaskClient) -> None:
    game = started(http, players=1, deck=stuck_deck())
    response = game.turn(0, [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")])
    view = response.get_json()
    assert response.status_code == 200 and view["status"] == "lost"
    assert view["outcome"] == {
        "status": "lost",
        "reason": "minimum_unreachable",
        "seat": 0,
        "winner": None,
        "ranking": [],
    }
    assert view["score"] == 98 - 4 and view["legal_plays"] == [] and view["can_end_turn"] is False
    assert error_of(game.turn(0, [(50, "asc1")])) == (409, "game_over")


def test_log_is_redacted_while_playing(http: FlaskClient) -> None:
    game = started(http, players=2, seed=5)
    hand = game.view(0).get_json()["hand"]
    game.turn(0, [(hand[0], "asc1"), (hand[1], "asc1")])
    game.signal(1, "desc2", "no_big_jump")
    response = game.log()
    log = response.get_json()
    assert response.status_code == 200 and response.headers["ETag"].startswith('"7.')
    assert log["replay"] is None
    people = {"bot": False, "auto": False}  # seats played by their owners
    assert log["entries"] == [
        {"type": "play", "seat": 0, "card": hand[0], "pile": "asc1", "version": 4, **people},
        {"type": "play", "seat": 0, "card": hand[1], "pile": "asc1", "version": 5, **people},
        {"type": "end_turn", "seat": 0, "version": 6, **people},
        {"type": "signal", "seat": 1, "pile": "desc2", "kind": "no_big_jump", "clear": False, "version": 7, **people},
    ]
    assert "deck" not in str(log) and "hand" not in str(log)


def test_lobby_log_is_empty(http: FlaskClient) -> None:
    game = GameClient(http, http.post("/v1/games", json={"players": 2}))
    assert game.log().get_json() == {"entries": [], "replay": None}


def test_replay_after_the_game_reproduces_it(http: FlaskClient) -> None:
    game = started(http, players=1, deck=stuck_deck(), options={"preset": "expert"})
    game.turn(0, [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")])
    replay = game.log().get_json()["replay"]
    assert replay["deck"] == stuck_deck() and replay["first_seat"] == 0 and replay["options"]["min_per_turn"] == 3
    state = tg.replay(replay)
    final = game.view().get_json()
    assert state.status == "lost" and state.public_view()["piles"] == final["piles"]
    assert state.score == final["score"] and len(replay["actions"]) == 5


def test_replay_of_a_seeded_game_matches_the_seed(http: FlaskClient) -> None:
    game = started(http, players=1, seed=11)
    while (view := game.view(0).get_json())["status"] == "playing":
        if view["can_end_turn"]:
            game.end_turn(0)
        else:
            play = view["legal_plays"][0]
            assert game.play(0, play["card"], play["pile"]).status_code == 200
    replay = game.log().get_json()["replay"]
    assert replay["deck"] == list(tg.new_game("the-game", 1, seed=11).replay_record()["deck"])
    rebuilt = tg.replay(replay).public_view()
    final = game.view().get_json()
    for key in ("status", "outcome", "piles", "draw_pile", "score", "current_seat"):
        assert rebuilt[key] == final[key]
    assert [entry["type"] for entry in game.log().get_json()["entries"]] == [a["type"] for a in replay["actions"]]

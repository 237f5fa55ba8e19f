"""A player's record in The Game over HTTP, black-box: each finished game taken with a key counts once, per player
count, in the profile; a daily deal's result has its percentile at the daily board's /me with the key (issue 29,
point 3)."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, datetime

from flask import Flask
from flask.testing import FlaskClient
from gameclient import SORTED_DECK, FakeClock
from players_client import Player, seated
from test_daily import play_to_end
from test_player_games import lost


def won(http: FlaskClient, player: Player) -> None:
    """A one-player game that ``player`` wins, every card on asc1 in order."""
    game = seated(http, player, deck=SORTED_DECK)
    assert game.start(first_seat=0).status_code == 200
    while (view := player.get(game.url).get_json())["status"] == "playing":
        plays = [{"card": card, "pile": "asc1"} for card in view["hand"]]
        assert player.post(f"{game.url}/turns", {"plays": plays, "end_turn": view["draw_pile"] > 0}).status_code == 200
    assert view["status"] == "won"


def test_the_record_counts_games_wins_scores_and_streaks_per_player_count(http: FlaskClient) -> None:
    ann = Player(http, "Ann")
    lost(http, ann)
    won(http, ann)
    won(http, ann)
    two = seated(http, ann, players=2, deck=SORTED_DECK)  # a two-player game, never finished: not counted
    assert two.start(first_seat=0).status_code == 200
    profile = http.get(f"/v1/players/{ann.id}").get_json()
    assert profile["the_game"] == {
        "1": {"games": 3, "wins": 2, "win_rate": 2 / 3, "best_score": 0, "streak": 2, "best_streak": 2}
    }
    ann.get("/v1/players/me/games")  # reads change nothing
    lost(http, ann)
    record = ann.get("/v1/players/me").get_json()["the_game"]["1"]
    assert (record["games"], record["streak"], record["best_streak"], record["best_score"]) == (4, 0, 2, 0)
    assert Player(http, "Bob").get("/v1/players/me").get_json()["the_game"] == {}


def test_a_daily_deal_counts_and_its_percentile_answers_to_the_key(
    make_app: Callable[..., Flask], clock: FakeClock
) -> None:
    http = make_app(CLOCK=clock, DAILY_PREFIX=f"test-record-{secrets.token_hex(4)}:").test_client()
    ann, bob = Player(http, "Ann"), Player(http, "Bob")
    today = datetime.fromtimestamp(clock.now, UTC).date().isoformat()
    for player, team in ((ann, "best"), (bob, "random")):
        body = {"players": 2, "daily": today, "name": player.answer["name"], "bots": [team]}
        play_to_end(http, clock, http.post("/v1/games", json=body, headers=player.headers()).get_json())
    mine = {player.id: player.get(f"/v1/daily/the-game/2/{today}/me").get_json() for player in (ann, bob)}
    by_rank = sorted((answer["rank"], answer["percentile"]) for answer in mine.values())
    assert by_rank in ([(1, 50), (2, 0)], [(1, 0), (1, 0)])  # better than the other table, or tied with it
    assert http.get(f"/v1/players/{ann.id}").get_json()["the_game"]["2"]["games"] == 1

"""Server-side bots: seated by the host, they play when the clock says: The Game's at once, in the change that
passes them the turn (up to the bot work of one request), Ninja's at a human-like pace."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, new_game, played_out

import thegame_core as tg


def with_bots(http: FlaskClient, humans: int, bots: list[str], pace: int | None = None, **body: object) -> GameClient:
    game = new_game(http, players=humans + len(bots), **body)
    for _ in range(humans):
        game.seat("human")
    for name in bots:
        extra = {} if pace is None else {"reaction_ms": pace}
        assert game.seat(name, token=game.host, bot=name, **extra).status_code == 201
    return game


def test_a_bot_plays_right_after_the_human_passes(http: FlaskClient) -> None:
    game = with_bots(http, 1, ["greedy"], seed=4)
    game.start(first_seat=0)
    hand = game.view(0).get_json()["hand"]
    plays = [(hand[0], "asc1"), (hand[-1], "desc1")]
    view = game.turn(0, plays).get_json()
    assert view["current_seat"] == 0  # the bot's whole turn is already done
    entries = game.log().get_json()["entries"]
    bot_entries = [entry for entry in entries if entry["seat"] == 1]
    assert len(bot_entries) >= 3 and bot_entries[-1]["type"] == "end_turn"
    assert all(entry["bot"] and not entry["auto"] for entry in bot_entries)
    assert not any(entry["bot"] for entry in entries if entry["seat"] == 0)
    assert view["version"] == 3 + len(entries) and entries[-1]["version"] == view["version"]


def test_a_bot_first_seat_plays_at_start(http: FlaskClient) -> None:
    game = with_bots(http, 1, ["greedy"], seed=4)
    view = game.start(first_seat=1).get_json()
    assert view["current_seat"] == 0 and view["version"] > 3 and view["seats"][1]["hand_size"] == 7


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_an_all_bot_game_plays_to_its_end(http: FlaskClient, bot: str) -> None:
    game = with_bots(http, 0, [bot, bot, bot], seed=8)
    game.start()
    view = played_out(game)
    assert view["status"] in ("won", "lost")
    replay = game.log().get_json()["replay"]
    assert tg.replay(replay).score == view["score"]


@pytest.mark.parametrize("bots", [["greedy", "random"], ["best", "greedy", "random"]])
def test_ninja_bots_play_a_whole_game(http: FlaskClient, bots: list[str]) -> None:
    """Ninja's bots (here at pace 0) take part in the swap phase, their turns, gives and completions."""
    game = with_bots(http, 0, bots, pace=0, game="ninja", seed=5)
    game.start()
    view = played_out(game)
    assert view["status"] == "finished" and view["waiting_for"] == []
    assert sorted(view["outcome"]["ranking"]) == list(range(len(bots)))
    log = game.log().get_json()
    assert {entry["type"] for entry in log["entries"]} >= {"ready", "play"}
    assert all(entry["bot"] for entry in log["entries"])
    assert tg.replay(log["replay"]).outcome.to_dict() == view["outcome"]


def test_a_ninja_bot_answers_a_human_at_its_pace(timed: FlaskClient, clock: FakeClock) -> None:
    """Ninja's bots act 1.5 s (the default pace) after the last change: the human's ready restarts the bot's
    wait; then the bot is ready, then it leads, each 1.5 s after the change before."""
    game = with_bots(timed, 1, ["greedy"], game="ninja", seed=6)
    started = game.start(first_seat=1).get_json()
    assert started["waiting_for"] == [0, 1] and started["seats"][1]["reaction_ms"] == 1500
    clock.advance(1.0)
    view = game.post("actions", 0, {"type": "ready"}).get_json()
    assert view["waiting_for"] == [1] and view["seats"][1]["ready"] is False
    clock.advance(1.4)
    assert game.view(0).get_json()["waiting_for"] == [1]
    clock.advance(0.1)
    view = game.view(0).get_json()
    assert view["phase"] == "play" and view["current_seat"] == 1 and view["pile"] == []
    clock.advance(1.5)
    view = game.view(0).get_json()
    assert view["current_seat"] == 0 and len(view["pile"]) >= 1

"""A bot reacts to what it reacts to: its wait restarts only when something it could act on changed (the game's
``reaction_key``; by default the actions the seat may send), with a seeded spread; a game of bots alone is paced.

Time moves by hand (``FakeClock``): nothing here sleeps."""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import replace
from typing import Any

from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, new_game

from examples import snap_game
from service.clock.schedule import bot_player, next_due
from service.config import BOTS_ALONE_MS
from thegame_core.reaction import LEVELS
from thegame_core.registry import register, unregister


def bot_entries(game: GameClient) -> list[dict[str, Any]]:
    return [entry for entry in game.log().get_json()["entries"] if entry["bot"]]


def person_against_a_paced_bot(timed: FlaskClient, **pace: int) -> GameClient:
    """The Game, seat 0 a person, seat 1 a ``greedy`` bot with ``pace``, the bot to play first."""
    game = new_game(timed, game="the-game", players=2, seed=3)
    assert game.seat("ann", seat=0).status_code == 201
    assert game.seat("bot", token=game.host, seat=1, bot="greedy", **pace).status_code == 201
    assert game.start(first_seat=1).status_code == 200
    return game


def test_signals_every_300_ms_do_not_hold_back_a_500_ms_bot(timed: FlaskClient, clock: FakeClock) -> None:
    """Before, every change restarted every bot's wait: a person signalling every 300 ms froze a 500 ms bot. A
    signal gives the bot nothing new to play, so its wait runs on from the start of its turn."""
    game = person_against_a_paced_bot(timed, reaction_ms=500)
    clock.advance(0.3)
    assert game.signal(0, "asc1", "dont_play").status_code == 200  # a change the bot has nothing to do with
    assert bot_entries(game) == []
    clock.advance(0.3)  # 600 ms into the bot's turn: past its 500 ms
    assert game.signal(0, "asc1", "dont_play", clear=True).status_code == 200
    assert bot_entries(game), "the bot played 500 ms into its turn, signals or not"


def test_the_wait_is_seeded_and_the_same_in_every_process(make_app: Any) -> None:
    """Two processes agree on when a bot with a spread is due (its wait is drawn from the seed)."""
    clock = FakeClock()
    one, two = make_app(CLOCK=clock).test_client(), make_app(CLOCK=clock).test_client()
    game = person_against_a_paced_bot(one, reaction_ms=500, reaction_spread_ms=400)
    records = [http.application.extensions["service"].store.load(game.game_id).record() for http in (one, two)]
    dues = {next_due(record) for record in records}
    assert len(dues) == 1 and None not in dues


def test_the_waits_follow_the_reaction_model(timed: FlaskClient) -> None:
    """A bot's waits, one per thing it reacts to, are drawn as the core's reaction model draws a person's: mean
    ``reaction_ms``, standard deviation ``reaction_spread_ms``, log-normal (never below 0, a longer tail above the
    mean than below it); the same model at the same level gives the simulator's delays."""
    game = person_against_a_paced_bot(timed, reaction_ms=450, reaction_spread_ms=100)
    record = timed.application.extensions["service"].store.load(game.game_id).record()
    waits = []
    for number in range(2000):
        timing = replace(record.timing, at=0.0, since={1: 0.0}, seen={1: f"reaction {number}"})
        player = bot_player(replace(record, timing=timing), 1)
        assert player is not None
        waits.append(player.due * 1000)
    mean, spread = statistics.fmean(waits), statistics.stdev(waits)
    assert abs(mean - 450) < 3 * 100 / math.sqrt(len(waits)) + 1 and 90 < spread < 110, (mean, spread)
    assert min(waits) > 0 and max(waits) - 450 > 450 - min(waits)  # skewed: slow reactions run further
    simulated = [LEVELS["normal"].draw(random.Random(seed)) for seed in range(2000)]
    assert (
        abs(statistics.fmean(simulated) - mean) < 10
        and abs(statistics.quantiles(simulated, n=10)[8] - statistics.quantiles(waits, n=10)[8]) < 15
    )


def test_bots_alone_wait_at_least_their_floor(make_app: Any, clock: FakeClock) -> None:
    """No person in the game: a bot set to 0 ms still waits ``TG_BOTS_ALONE_MS`` (the default here; the other
    tests turn it off to play whole bot games quickly), so bot-only games are watched at a pace, and a crowd of
    them leaves the servers to people's requests."""
    game = new_game(
        make_app(CLOCK=clock, BOTS_ALONE_MS=BOTS_ALONE_MS).test_client(), game="the-game", players=2, seed=3
    )
    for seat in (0, 1):
        assert game.seat(f"bot{seat}", token=game.host, seat=seat, bot="greedy", reaction_ms=0).status_code == 201
    start = game.start().get_json()["version"]
    clock.advance(BOTS_ALONE_MS / 1000 * 0.9)
    assert game.view().get_json()["version"] == start
    clock.advance(BOTS_ALONE_MS / 1000 * 0.2)
    assert game.view().get_json()["version"] > start


def test_a_decline_is_not_written_and_costs_no_decision(make_app: Any) -> None:
    """The toy game's ``greedy`` bot, off its turn with nothing to snap, declines: the game is not written (its
    streams are not woken), the bot is not asked again until the next change, and a read stays a read."""
    register(snap_game.GAME)
    try:
        app = make_app()
        http, store = app.test_client(), app.extensions["service"].store
        game = new_game(http, game=snap_game.NAME, players=2, deck=[1, 3, 5, 7, 2, 4, 6, 8])
        assert game.seat("ann", seat=0).status_code == 201
        assert game.seat("bot", token=game.host, seat=1, bot="greedy", reaction_ms=0).status_code == 201
        version = game.start(first_seat=0).get_json()["version"]
        writes = store.writes
        for _ in range(3):
            assert game.view().get_json()["version"] == version
        assert store.writes == writes  # the bot declined three times over: nothing written
        assert next_due(store.load(game.game_id).record()) is None  # and it is not due again before a change
    finally:
        unregister(snap_game.NAME)

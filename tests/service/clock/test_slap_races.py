"""Bataille corse's bots race people through the clock: a bot slaps its pace after the card it reacts to (and flips
a pause later, as the simulator's bots do), a stale slap does not hold it back, and a person quicker than its pace
wins (the first slap applied wins).

Seat 0 is a person, seat 1 a ``best`` bot paced at 500 ms with no spread; seat 0 flips 7H, the bot flips 7D (a
double: slappable). Time moves by hand (``FakeClock``): nothing here sleeps."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, new_game

import thegame_core as tg
from thegame_core.games.bataille_corse.bots import FLIP_PAUSE_MS
from thegame_core.games.bataille_corse.cards import PLAIN_DECK
from thegame_core.reaction import LEVELS

DECK = ["7H", "7D", *(name for name in PLAIN_DECK if name not in ("7H", "7D"))]
PACE = 0.5


def against_a_bot(timed: FlaskClient, clock: FakeClock) -> GameClient:
    """The person has flipped 7H; ``PACE`` and the flip's pause later the bot flipped 7D: the clock stands at that
    flip."""
    game = new_game(timed, game="bataille-corse", players=2, deck=DECK)
    assert game.seat("ann", seat=0).status_code == 201
    assert game.seat("bot", token=game.host, seat=1, bot="best", reaction_ms=500, reaction_spread_ms=0).status_code
    assert game.start(first_seat=0).status_code == 200
    assert game.post("actions", 0, {"type": "flip"}).status_code == 200
    clock.advance(PACE + FLIP_PAUSE_MS / 1000 - 0.01)
    assert game.view(0).get_json()["pile"] == ["7H"]  # not yet: a flip waits a moment longer than a slap
    clock.advance(0.01)
    assert game.view(0).get_json()["pile"] == ["7H", "7D"]  # the bot flipped at its pace and the pause
    return game


def slaps(game: GameClient) -> list[tuple[bool, str]]:
    """Each slap in the log: (a bot's, its result)."""
    return [(entry["bot"], entry["result"]) for entry in game.log().get_json()["entries"] if entry["type"] == "slap"]


def slap(game: GameClient, pile_version: int) -> Any:
    return game.post("actions", 0, {"type": "slap", "pile_version": pile_version}).get_json()["results"]


def test_a_bot_slaps_its_pace_after_the_flip(timed: FlaskClient, clock: FakeClock) -> None:
    game = against_a_bot(timed, clock)
    clock.advance(PACE - 0.01)
    assert slaps(game) == []
    clock.advance(0.02)
    assert slaps(game) == [(True, "valid")]


def test_a_stale_slap_does_not_hold_the_bot_back(timed: FlaskClient, clock: FakeClock) -> None:
    """A late slap on the first card changes the game's version, not the pile: the bot's wait runs on."""
    game = against_a_bot(timed, clock)
    clock.advance(0.3)
    assert slap(game, 1) == [{"type": "slap", "result": "stale"}]
    clock.advance(PACE - 0.3 + 0.01)  # the bot's pace after the flip, not after the stale slap
    assert slaps(game) == [(False, "stale"), (True, "valid")]


def test_a_person_quicker_than_the_bot_wins_the_race(timed: FlaskClient, clock: FakeClock) -> None:
    game = against_a_bot(timed, clock)
    clock.advance(PACE - 0.1)
    assert slap(game, 2) == [{"type": "slap", "result": "valid"}]
    clock.advance(5 * PACE)  # the bot's due time is long past: the pile it would have slapped is gone
    assert slaps(game) == [(False, "valid")]
    assert game.view(0).get_json()["seats"][0]["packet"] == 27


def test_a_person_slower_than_the_bot_is_stale(timed: FlaskClient, clock: FakeClock) -> None:
    """A slap that arrives after the bot's due time finds the bot's slap applied first, by that very request."""
    game = against_a_bot(timed, clock)
    clock.advance(PACE + 0.1)
    assert slap(game, 2) == [{"type": "slap", "result": "stale"}]
    assert slaps(game) == [(True, "valid"), (False, "stale")]


def test_bots_are_paced_at_the_normal_level_by_default(timed: FlaskClient) -> None:
    """A bot seat of Bataille corse with no pace gets the core's "normal" reaction level: its mean and spread."""
    game = new_game(timed, game="bataille-corse", players=2)
    seated = game.seat("bot", token=game.host, seat=1, bot="best").get_json()
    normal = LEVELS["normal"]
    pace = tg.get_game("bataille-corse").bot_pace
    assert (seated["reaction_ms"], seated["reaction_spread_ms"]) == (pace.reaction_ms, pace.spread_ms)
    assert (seated["reaction_ms"], seated["reaction_spread_ms"]) == (normal.mean_ms, normal.spread_ms)


def test_the_reaction_key_ignores_a_stale_slap_and_follows_the_pile() -> None:
    parse = tg.get_game("bataille-corse").parse_action
    state = tg.new_game("bataille-corse", 2, deck=DECK).apply(parse({"type": "flip", "seat": 0}))
    stale = state.apply(parse({"type": "slap", "seat": 0, "pile_version": 0}))
    flipped = state.apply(parse({"type": "flip", "seat": 1}))
    for seat in (0, 1):
        assert stale.reaction_key(seat) == state.reaction_key(seat)
        assert flipped.reaction_key(seat) != state.reaction_key(seat)


def test_the_documented_levels_are_the_clocks() -> None:
    docs = (Path(__file__).resolve().parents[3] / "docs" / "api.md").read_text()
    for level, reaction in LEVELS.items():
        reaction_ms, spread_ms = round(reaction.mean_ms), round(reaction.spread_ms)
        assert re.search(rf"^\| {level}\b.*\| {reaction_ms} \| {spread_ms} \|$", docs, re.MULTILINE), level

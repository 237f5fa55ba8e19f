"""Every deal can be checked (issue 28, point 6): `seed_sha256` in every view from the start, `seed` once the game is
over, and `thegame_core.deal_matches` checks the finished game's deck against them."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, GameClient, bearer, new_game, played_out, stuck_deck
from test_daily import play_to_end

import thegame_core as tg


@pytest.mark.parametrize("game", tg.game_names())
def test_every_game_shows_its_seed_s_hash_from_its_lobby_on(http: FlaskClient, game: str) -> None:
    table = new_game(http, game=game, players=2)  # two people: the game waits for them (bots could end it at once)
    lobby = table.view().get_json()
    assert lobby["seed"] is None and len(lobby["seed_sha256"]) == 64
    table.fill()
    assert table.start(first_seat=0).status_code == 200
    playing = table.view().get_json()
    assert playing["status"] == "playing"
    assert playing["seed"] is None and playing["seed_sha256"] == lobby["seed_sha256"]


@pytest.mark.parametrize("game", ["the-game", "ninja"])  # Bataille corse's bots play thousands of flips
def test_a_finished_game_shows_its_seed_and_the_library_checks_the_deal(http: FlaskClient, game: str) -> None:
    table = with_bots(http, game)
    commitment = table.view().get_json()["seed_sha256"]
    table.start(first_seat=0)
    seed = played_out(table)["seed"]
    assert isinstance(seed, int) and hashlib.sha256(str(seed).encode()).hexdigest() == commitment
    replay = table.log().get_json()["replay"]
    assert tg.deal_matches(replay, seed, commitment)
    assert not tg.deal_matches(replay, seed + 1, commitment)  # another seed: not the one committed to
    other = hashlib.sha256(str(seed + 1).encode()).hexdigest()
    assert not tg.deal_matches(replay, seed + 1, other)  # committed to, but it deals another deck
    assert not tg.deal_matches({**replay, "deck": replay["deck"][::-1]}, seed, commitment)


def with_bots(http: FlaskClient, game: str) -> GameClient:
    """A two-seat lobby of ``game`` whose seats the host gave to random bots playing at once."""
    table = new_game(http, game=game, players=2)
    for seat in range(2):
        body = {"name": f"b{seat}", "bot": "random", "reaction_ms": 0}
        assert table.http.post(f"{table.url}/seats", json=body, headers=bearer(table.host)).status_code == 201
    return table


def test_a_deck_the_host_gave_shows_no_seed(http: FlaskClient) -> None:
    table = new_game(http, players=1, deck=stuck_deck())
    table.fill()
    table.start(first_seat=0)
    view = table.turn(0, [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")]).get_json()
    assert view["status"] == "lost" and view["seed"] is None and view["seed_sha256"] is None


def test_a_daily_deal_shows_its_seed_once_its_day_is_over(make_app: Callable[..., Flask], clock: FakeClock) -> None:
    http = make_app(CLOCK=clock, DAILY_PREFIX=f"test-seeds-{id(clock)}:").test_client()
    today = "2027-01-15"  # the fake clock's day
    body = {"players": 2, "daily": today, "name": "ann", "bots": ["random"]}
    created = http.post("/v1/games", json=body).get_json()
    assert created["seed"] is None and len(created["seed_sha256"]) == 64
    over = play_to_end(http, clock, created)
    assert over["status"] in ("won", "lost") and over["seed"] is None  # over, but its day is not: still secret
    clock.advance(24 * 3600)
    url = f"/v1/games/{created['game_id']}"
    seed = http.get(url, headers=bearer(created["token"])).get_json()["seed"]
    assert (
        seed
        == tg.daily_deal("the-game", 2, today, secret=http.application.extensions["service"].daily.secret.get()).seed
    )
    assert tg.deal_matches(http.get(f"{url}/log").get_json()["replay"], seed, created["seed_sha256"])

"""Every game over HTTP: the catalog, the one actions route, and a game that only the tests register.

The toy game of ``tests/snap_game.py`` is registered for these tests only and played through the service with no
change to it: that is what "a game is one package plus its registration" means. Its ``snap`` is an action any seat
may send at any time, carrying the version it saw (a Bataille corse slap): races are ordered by the store, and a
snap that arrives after a change is stale and costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from gameclient import bearer, error_of

import thegame_core as tg
from examples import snap_game
from thegame_core.registry import register, unregister

TOY = snap_game.NAME
DECK = [2, 1, 3, 5, 7, 4, 6, 8]  # flips: 2 (snap), 1, 3, 5, 7, 4 (snap), 6 (snap), 8 (snap)


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(snap_game.GAME)
    yield
    unregister(TOY)


class Table:
    """A started game of any game over HTTP, seats taken by people (or bots: ``bots={seat: name}``)."""

    def __init__(self, http: FlaskClient, game: str, players: int, bots: dict[int, str] | None = None, **body: Any):
        created = http.post("/v1/games", json={"game": game, "players": players, **body})
        assert created.status_code == 201, created.get_json()
        self.http, self.id, self.host = http, created.get_json()["game_id"], created.get_json()["host_token"]
        self.tokens: dict[int, str] = {}
        for seat in range(players):
            bot = (bots or {}).get(seat)
            answer = http.post(
                f"/v1/games/{self.id}/seats",
                json={"name": f"p{seat}", "seat": seat, **({"bot": bot} if bot else {})},
                headers=bearer(self.host if bot else None),
            )
            assert answer.status_code == 201, answer.get_json()
            if not bot:
                self.tokens[seat] = answer.get_json()["token"]
        started = http.post(f"/v1/games/{self.id}/start", json={"first_seat": 0}, headers=bearer(self.host))
        assert started.status_code == 200, started.get_json()

    def view(self, seat: int | None = None) -> dict[str, Any]:
        answer = self.http.get(
            f"/v1/games/{self.id}", headers=bearer(self.tokens.get(seat) if seat is not None else None)
        )
        assert answer.status_code == 200
        return answer.get_json()  # type: ignore[no-any-return]

    def act(self, seat: int, body: Any, **headers: str) -> Any:
        return self.http.post(f"/v1/games/{self.id}/actions", json=body, headers=bearer(self.tokens[seat], **headers))


def test_the_catalog_describes_every_game(http: FlaskClient) -> None:
    answer = http.get("/v1/games/catalog")
    assert answer.status_code == 200
    games = {game["name"]: game for game in answer.get_json()["games"]}
    assert set(games) == set(tg.game_names())
    for name, game in games.items():
        info = tg.get_game(name).info
        assert game["players"] == {"min": info.min_players, "max": info.max_players}
        assert {"random", "greedy", "best"} <= set(game["bots"])
        names = [option.name for option in info.options] + ["turn_seconds", "idle_turns"]  # the clock's: every game's
        assert [option["name"] for option in game["options"]] == names
        assert all({"name", "type", "default"} <= set(option) for option in game["options"])
        assert [action["type"] for action in game["actions"]] == [action.type for action in info.actions]
        assert game["errors"] == dict(info.errors)
    assert games["the-game"]["actions"][0] == {"type": "play", "fields": {"card": "int", "pile": "str"}, "optional": []}
    assert {"name": "expert", "options": {"min_per_turn": 3}} in games["the-game"]["presets"]


def test_a_registered_game_is_served_without_any_service_change(http: FlaskClient) -> None:
    """Create, seat, start and play the toy game to its end through /actions, from the actions each view lists."""
    table = Table(http, TOY, 2, deck=DECK)
    assert table.view()["game"] == TOY and table.view(0)["legal_actions"] == [{"type": "flip"}]
    while (view := table.view())["status"] == "playing":
        seat = view["waiting_for"][0]
        listed = table.view(seat)["legal_actions"]
        answer = table.act(seat, listed[-1])  # a snap when one is listed, else the flip
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["version"] == view["version"] + 1
    assert view["status"] == "finished" and view["outcome"]["reason"] == "deck_exhausted"
    log = http.get(f"/v1/games/{table.id}/log").get_json()
    assert [entry["type"] for entry in log["entries"]].count("snap") == 3  # 2, 4 and 6; the game ends on 8
    assert tg.replay(log["replay"]).public_view()["seats"] == [
        {"seat": seat["seat"], "points": seat["points"]} for seat in view["seats"]
    ]


def test_any_seat_snaps_out_of_turn_and_a_late_snap_is_stale(http: FlaskClient) -> None:
    """Seat 1 snaps while seat 1 is on turn, seat 0 snaps with the same version a moment later: the store applies the
    first; the second carries an old version, is applied as a no-op and only counts in the version."""
    table = Table(http, TOY, 2, deck=DECK)
    flipped = table.act(0, {"type": "flip"}).get_json()
    seen = flipped["pile_version"]
    assert {"type": "snap", "seen": seen} in table.view(1)["legal_actions"]  # seat 1 is on turn, seat 0 is not
    assert {"type": "snap", "seen": seen} in flipped["legal_actions"]
    first = table.act(1, {"type": "snap", "seen": seen})
    late = table.act(0, {"type": "snap", "seen": seen})
    assert first.status_code == late.status_code == 200
    assert [seat["points"] for seat in late.get_json()["seats"]] == [0, 1]
    assert late.get_json()["version"] == flipped["version"] + 2 and late.get_json()["pile"] == []
    assert error_of(table.act(0, {"type": "snap", "seen": seen + 1})) == (422, "nothing_to_snap")


def test_a_batch_is_all_or_nothing(http: FlaskClient) -> None:
    table = Table(http, TOY, 2, deck=DECK)
    before = table.view(0)
    refused = table.act(0, {"actions": [{"type": "flip"}, {"type": "flip"}]})  # the second flip is seat 1's
    assert error_of(refused) == (409, "not_your_turn")
    assert table.view(0) == before
    done = table.act(0, {"actions": [{"type": "flip"}, {"type": "snap", "seen": 1}]})
    assert done.status_code == 200 and done.get_json()["version"] == before["version"] + 2


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ([{"type": "flip"}], (422, "validation_error")),
        ({"kind": "flip"}, (422, "validation_error")),
        ({"type": "flip", "seat": 1}, (422, "validation_error")),
        ({"actions": []}, (422, "validation_error")),
        ({"actions": [{"type": "flip"}] * 65}, (422, "validation_error")),
        ({"type": "fly"}, (422, "invalid_action")),
        ({"type": "snap", "seen": "now"}, (422, "invalid_action")),
        ({"type": "snap", "seen": 99}, (422, "invalid_action")),
        ({"type": "snap", "seen": 0}, (422, "nothing_to_snap")),
    ],
)
def test_bad_actions_get_typed_errors_and_change_nothing(http: FlaskClient, body: Any, expected: tuple) -> None:
    """Not an action (422 validation_error), malformed for the game (422 invalid_action), or refused by a rule of
    the game, with the game's own code passed through unchanged."""
    table = Table(http, TOY, 2, deck=[1, 2, 3, 4, 5, 6, 7, 8])
    before = table.view(0)
    assert error_of(table.act(0, body)) == expected
    assert table.view(0) == before


def test_the_check_order_holds_on_the_actions_route(http: FlaskClient) -> None:
    """404, then the token, then If-Match, then the body, then the turn, then the rules."""
    table = Table(http, TOY, 2, deck=DECK)
    assert error_of(http.post("/v1/games/nope/actions", json={"type": "flip"})) == (404, "unknown_game")
    assert error_of(http.post(f"/v1/games/{table.id}/actions", json={"type": "flip"})) == (401, "invalid_token")
    host = http.post(f"/v1/games/{table.id}/actions", json={"type": "flip"}, headers=bearer(table.host))
    assert error_of(host) == (403, "forbidden")
    assert error_of(table.act(1, {"type": "fly"}, **{"If-Match": '"0"'})) == (412, "stale_version")
    assert error_of(table.act(1, {"type": "fly"})) == (422, "invalid_action")
    assert error_of(table.act(1, {"type": "flip"})) == (409, "not_your_turn")


def test_bots_of_a_registered_game_play_by_themselves(http: FlaskClient) -> None:
    """A bot seat of the toy game plays its turns and snaps inside the change that gives it the chance."""
    table = Table(http, TOY, 2, bots={1: "greedy"}, deck=DECK)
    after = table.act(0, {"type": "flip"}).get_json()  # 2 is even: the bot snaps at once, then flips 1
    assert [seat["points"] for seat in after["seats"]] == [0, 1]
    assert after["pile"] == [1] and after["waiting_for"] == [0]
    stale = table.act(0, {"type": "snap", "seen": 1})  # the pile version seat 0 saw with 2 on top
    assert stale.status_code == 200 and [seat["points"] for seat in stale.get_json()["seats"]] == [0, 1]
    assert http.get(f"/v1/games/{table.id}/log").get_json()["entries"][-1]["seat"] == 0

"""Bataille corse over HTTP with no route of its own: a deck of card strings, slaps by any seat carrying the pile
version they saw (a late one is stale: 200 and nothing changes), and the log's results and replay."""

from __future__ import annotations

from flask.testing import FlaskClient
from gameclient import error_of
from test_any_game import Table

import thegame_core as tg
from thegame_core.games.bataille_corse.cards import PLAIN_DECK

DECK = ["7H", "7D", *(name for name in PLAIN_DECK if name not in ("7H", "7D"))]  # seat 0 flips 7H, seat 1 7D


def test_a_whole_game_with_slaps_and_a_late_one(http: FlaskClient) -> None:
    table = Table(http, "bataille-corse", 2, deck=DECK, options={"max_flips": 40})
    assert table.act(0, {"type": "flip"}).status_code == 200
    flipped = table.act(1, {"type": "flip"}).get_json()
    assert flipped["pile"] == ["7H", "7D"] and {"type": "slap", "pile_version": 2} in flipped["legal_actions"]
    won = table.act(0, {"type": "slap", "pile_version": 2})
    late = table.act(1, {"type": "slap", "pile_version": 2})
    assert won.status_code == late.status_code == 200
    assert late.get_json()["pile"] == [] and [seat["packet"] for seat in late.get_json()["seats"]] == [27, 25]
    assert error_of(table.act(1, {"type": "slap", "pile_version": 9})) == (422, "invalid_action")
    assert error_of(table.act(1, {"type": "slap", "pile_version": 3})) == (422, "empty_pile")
    while (view := table.view())["status"] == "playing":
        assert table.act(view["current_seat"], {"type": "flip"}).status_code == 200
    log = http.get(f"/v1/games/{table.id}/log").get_json()
    results = [entry.get("result") for entry in log["entries"] if entry["type"] == "slap"]
    assert results == ["valid", "stale"]
    assert log["replay"]["deck"] == DECK
    replayed = tg.replay(log["replay"]).public_view()["seats"]
    assert replayed == [{key: seat[key] for key in ("seat", "packet", "state", "errors")} for seat in view["seats"]]

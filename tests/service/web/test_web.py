"""The page's blueprint (``service/web``): its files with the page's own content policy, gzipped when the browser
accepts it and revalidated by ETag; nothing outside its folder; and a finished game's replay frames, readable as the
log is and only once the game is over. The page itself is tested in a real browser (``tests/browser``)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import thegame_core as tg
from service.web import PAGE_POLICY, STATIC
from tests.service.gameclient import stuck_deck

PLAYS = [(99, "asc1"), (98, "asc2"), (2, "desc1"), (3, "desc2")]


def test_the_page_is_served_at_the_root_with_its_own_policy(http: FlaskClient) -> None:
    page = http.get("/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert b'<script type="module" src="/web/app.js">' in page.data
    assert page.headers["Content-Security-Policy"] == PAGE_POLICY
    assert "script-src 'self';" in PAGE_POLICY and "unsafe" not in PAGE_POLICY
    assert page.headers["X-Frame-Options"] == "DENY" and page.headers["X-Content-Type-Options"] == "nosniff"
    assert http.get("/v1/health").headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"


@pytest.mark.parametrize("name", sorted(str(path.relative_to(STATIC)) for path in STATIC.rglob("*") if path.is_file()))
def test_every_file_is_served_gzipped_when_accepted_and_revalidated(http: FlaskClient, name: str) -> None:
    plain = http.get(f"/web/{name}")
    assert plain.status_code == 200 and plain.data == (STATIC / name).read_bytes()
    assert plain.headers["Cache-Control"] == "no-cache" and "Content-Encoding" not in plain.headers
    packed = http.get(f"/web/{name}", headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "gzip" and gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data)
    assert packed.headers["Vary"] == "Accept-Encoding"
    again = http.get(f"/web/{name}", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_the_modules_are_served_as_javascript(http: FlaskClient) -> None:
    assert http.get("/web/app.js").mimetype in ("text/javascript", "application/javascript")


@pytest.mark.parametrize("path", ["/web/../__init__.py", "/web/%2e%2e/__init__.py", "/web/nothing.js", "/web/tables"])
def test_nothing_outside_the_page_files_is_served(http: FlaskClient, path: str) -> None:
    answer = http.get(path)
    assert answer.status_code == 404 and answer.json is not None and answer.json["error"] == "not_found"


def finished_game(http: FlaskClient, **create: object) -> tuple[str, str, dict[str, object]]:
    """A one-seat game of The Game lost in its first turn (the stuck deck); its id, seat token and final view."""
    created = http.post("/v1/games", json={"players": 1, "deck": stuck_deck(), **create}).json
    assert created is not None
    game, host = created["game_id"], created["host_token"]
    seat = http.post(f"/v1/games/{game}/seats", json={"name": "ann"}).json["token"]  # type: ignore[index]
    http.post(f"/v1/games/{game}/start", headers={"Authorization": f"Bearer {host}"})
    body = {"plays": [{"card": card, "pile": pile} for card, pile in PLAYS], "end_turn": False}
    playing = http.post(f"/v1/games/{game}/turns", json=body, headers={"Authorization": f"Bearer {seat}"}).json
    assert playing is not None and playing["status"] == "playing"
    return game, seat, playing


def test_a_replay_opens_once_the_game_is_over_with_every_state_and_hand(http: FlaskClient) -> None:
    game, seat, _ = finished_game(http)
    refused = http.get(f"/web/replays/{game}")
    assert refused.status_code == 409 and refused.json["error"] == "game_not_over"  # type: ignore[index]

    http.post(f"/v1/games/{game}/turn/end", headers={"Authorization": f"Bearer {seat}"})
    answer = http.get(f"/web/replays/{game}")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    frames = answer.json["frames"]  # type: ignore[index]
    record = http.get(f"/v1/games/{game}/log").json["replay"]  # type: ignore[index]
    assert len(frames) == len(record["actions"]) + 1 == len(PLAYS) + 2
    start = tg.new_game("the-game", players=1, deck=stuck_deck())
    assert frames[0]["hands"] == [start.view(0)["hand"]] and frames[0]["version"] == 0
    final = tg.replay(record)
    assert frames[-1] == {
        **{k: v for k, v in final.public_view().items() if k != "options"},
        "hands": [final.view(0)["hand"]],
    }
    assert [frame["piles"][0]["top"] for frame in frames[:2]] == [1, 99]


def test_a_replay_of_a_game_without_hands_shows_its_views_alone(http: FlaskClient) -> None:
    host = http.post("/v1/games", json={"game": "bataille-corse", "players": 2, "seed": 2, "options": {"max_flips": 1}})
    game = host.json["game_id"]  # type: ignore[index]
    tokens = [
        http.post(f"/v1/games/{game}/seats", json={"name": f"P{seat}", "seat": seat}).json["token"] for seat in (0, 1)
    ]  # type: ignore[index]
    started = http.post(
        f"/v1/games/{game}/start", json={}, headers={"Authorization": f"Bearer {host.json['host_token']}"}
    )  # type: ignore[index]
    flipper = tokens[started.json["current_seat"]]  # type: ignore[index]
    http.post(f"/v1/games/{game}/actions", json={"type": "flip"}, headers={"Authorization": f"Bearer {flipper}"})
    frames = http.get(f"/web/replays/{game}").json["frames"]  # type: ignore[index]
    assert [(len(frame["pile"]), "hands" in frame) for frame in frames] == [(0, False), (1, False)]
    assert frames[-1]["status"] == "finished"


def test_a_replay_is_read_as_the_log_is(http: FlaskClient) -> None:
    game, seat, _ = finished_game(http, spectators=False)
    http.post(f"/v1/games/{game}/turn/end", headers={"Authorization": f"Bearer {seat}"})
    assert http.get(f"/web/replays/{game}").status_code == 403
    assert http.get(f"/web/replays/{game}", headers={"Authorization": f"Bearer {seat}"}).status_code == 200
    assert http.get("/web/replays/nope").json["error"] == "unknown_game"  # type: ignore[index]


def test_the_files_ship_in_the_package() -> None:
    """pip installs what ``pyproject.toml``'s package data names: every file of the page's folder."""
    pyproject = (Path(__file__).parents[3] / "pyproject.toml").read_text()
    assert '"service.web" = ["static/*", "static/**/*", "rules/*.md"]' in pyproject
    assert {path.suffix for path in STATIC.rglob("*") if path.is_file()} <= {".html", ".js", ".css", ".svg", ".json"}

"""Export, the open way (issue 28, point 5): a player's kept games as NDJSON over HTTP, a day's games by
`python -m service export`, each line read back by the library and replayed by `tg.replay`."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import redis
from flask import Flask
from flask.testing import FlaskClient
from gameclient import FakeClock, bearer
from players_client import Player, seated
from test_daily import play_to_end
from test_player_games import lost

import thegame_core as tg
from service.__main__ import export_day
from thegame_core.export import read_lines

NDJSON = {"Accept": "application/x-ndjson"}


def test_a_player_s_kept_games_stream_as_ndjson_and_replay(http: FlaskClient) -> None:
    ann = Player(http, "Ann")
    games = [lost(http, ann) for _ in range(2)]
    seated(http, ann, players=2)  # live: not exported
    hidden = lost(http, ann, spectators=False)
    answer = http.get(f"/v1/players/{ann.id}/games", headers=NDJSON)
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    lines = [json.loads(line) for line in answer.get_data(as_text=True).splitlines()]
    assert [line["game_id"] for line in lines] == [games[1].game_id, games[0].game_id]  # the public ones
    for line in lines:
        assert line["seats"] == [{"seat": 0, "name": "Ann", "bot": False, "player": ann.id}]
        replayed = tg.replay(line["replay"])
        assert replayed.outcome is not None and replayed.outcome.to_dict() == line["outcome"]
        assert line["seed"] is None and line["seed_sha256"] is None  # these games were dealt from a given deck
    own = http.get("/v1/players/me/games", headers=ann.headers(**NDJSON)).get_data(as_text=True)
    assert [json.loads(line)["game_id"] for line in own.splitlines()] == [hidden.game_id] + [
        line["game_id"] for line in lines
    ]


def test_a_daily_game_is_exported_once_its_day_is_over(make_app: Callable[..., Flask], clock: FakeClock) -> None:
    http = make_app(CLOCK=clock, DAILY_PREFIX=f"test-export-{secrets.token_hex(4)}:").test_client()
    ann = Player(http)
    today = datetime.fromtimestamp(clock.now, UTC).date().isoformat()
    created = http.post(
        "/v1/games", json={"players": 2, "daily": today, "name": "ann", "bots": ["random"]}, headers=ann.headers()
    ).get_json()
    assert play_to_end(http, clock, created)["status"] in ("won", "lost")
    export = "/v1/players/me/games"
    assert http.get(export, headers=ann.headers(**NDJSON)).get_data() == b""
    clock.advance(24 * 3600)
    lines = http.get(export, headers=ann.headers(**NDJSON)).get_data(as_text=True).splitlines()
    line = json.loads(lines[0])
    assert [line["game_id"]] == [created["game_id"]] and line["daily"] == today
    assert tg.deal_matches(line["replay"], line["seed"], line["seed_sha256"])


def test_the_export_command_writes_a_day_s_games_that_the_library_reads_back(
    http: FlaskClient, redis_client: redis.Redis, tmp_path: Path
) -> None:
    ann = Player(http)
    games = {lost(http, ann).game_id for _ in range(2)}
    anonymous = seated(http, ann, players=2).game_id  # live: not in the day's export
    day = datetime.now(UTC).date().isoformat()
    out = tmp_path / "day.ndjson.gz"
    export_day(["--day", day, "--out", str(out)], redis_client)
    lines = {line["game_id"]: line for line in read_lines(out)}
    assert games <= set(lines) and anonymous not in lines  # a shared Redis may hold other tests' games too
    for game_id in games:
        assert tg.replay(lines[game_id]["replay"]).status == "lost"
    export_day(["--day", "2000-01-01", "--out", str(tmp_path / "none.ndjson")], redis_client)
    assert list(read_lines(tmp_path / "none.ndjson")) == []


def test_the_export_command_needs_a_store(tmp_path: Path) -> None:
    environment = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    command = [sys.executable, "-m", "service", "export", "--day", "2026-01-01", "--out", str(tmp_path / "x.gz")]
    run = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=60, check=False)
    assert run.returncode == 1 and "REDIS_URL" in run.stderr and not (tmp_path / "x.gz").exists()
    bad_day = subprocess.run(
        [*command[:5], "tomorrow", *command[6:]],
        capture_output=True,
        text=True,
        env={**environment, "REDIS_URL": "redis://127.0.0.1:1/0"},
        timeout=60,
        check=False,
    )
    assert bad_day.returncode == 2 and "--day" in bad_day.stderr


def test_a_key_never_travels_in_an_export(http: FlaskClient) -> None:
    ann = Player(http)
    lost(http, ann)
    text = http.get("/v1/players/me/games", headers=ann.headers(**NDJSON)).get_data(as_text=True)
    assert ann.key not in text and ann.key.split(".")[3] not in text
    assert bearer(ann.key)["Authorization"] not in text

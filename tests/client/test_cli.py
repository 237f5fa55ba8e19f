"""The command line: bad arguments and refusals that waiting cannot cure end at once with one line and status 2."""

from __future__ import annotations

import io
import socket
from typing import Any

import pytest

from tests.client.live import call, client, lobby
from thegame_core import bots
from thegame_core.client.__main__ import Output, main
from thegame_core.client.seat import Summary


def one_line_error(capsys: pytest.CaptureFixture[str], status: int, args: list[str], expected: str) -> None:
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == status
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and expected in lines[0], lines


def test_bad_arguments_are_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    one_line_error(capsys, 2, ["play", "--url", "http://127.0.0.1:1"], "--game")
    one_line_error(capsys, 2, ["play", "--url", "u", "--game", "g", "--seed", "x"], "--seed")
    one_line_error(capsys, 2, ["play", "--url", "u", "--game", "g", "--quiet", "--json"], "not allowed")


def test_a_missing_token_or_a_bad_url_is_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TG_TOKEN", raising=False)
    assert main(["play", "--url", "http://127.0.0.1:1", "--game", "g"]) == 2
    assert "TG_TOKEN" in capsys.readouterr().err
    assert main(["play", "--url", "ftp://x", "--game", "g", "--token", "t"]) == 2
    assert "--url" in capsys.readouterr().err


def refused(url: str, game_id: str, *args: str, token: str | None = None) -> str:
    """The one line a client process prints when the server refuses it; it exits with status 2, at once."""
    process = client(url, game_id, *args, token=token)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2, (out, err)
    assert out == "" and len(err.splitlines()) == 1, err
    return err


def test_refused_tokens_games_bots_and_seats(url: str) -> None:
    game_id, host = lobby(url, "ninja", 2, seed=1)
    ann = call(url, "POST", f"/games/{game_id}/seats", {"name": "Ann"})["token"]
    assert "401 invalid_token" in refused(url, game_id, token="not-a-token")
    assert "not a seat's token" in refused(url, game_id, token=host)
    assert "404 unknown_game" in refused(url, "no-such-game", token=ann)
    assert "unknown bot 'genius'" in refused(url, game_id, "--bot", "genius", token=ann)
    call(url, "POST", f"/games/{game_id}/seats", {"name": "Bob"})
    assert "409 game_full" in refused(url, game_id, "--join", "Cy")


def seats_taken(url: str, game_id: str) -> list[str]:
    return [entry["name"] for entry in call(url, "GET", f"/games/{game_id}")["seats"] if entry["name"] is not None]


def test_an_unknown_bot_is_refused_before_it_takes_a_seat(url: str) -> None:
    game_id, _ = lobby(url, "ninja", 2, seed=1)
    assert "unknown bot 'smart' for ninja; bots: best, greedy, random (" in refused(
        url, game_id, "--join", "Robo", "--bot", "smart"
    )
    assert seats_taken(url, game_id) == []


@pytest.mark.parametrize("spectators", [True, False])
def test_a_bot_of_another_game_holds_no_seat(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, spectators: bool
) -> None:
    """The public view names the game before the seat is taken; without spectators only the seat's view names it:
    the seat is taken, then left again."""
    created = call(url, "POST", "/games", {"game": "ninja", "players": 2, "spectators": spectators})
    game_id, host = created["game_id"], created["host_token"]
    monkeypatch.setitem(bots._ADDED, ("the-game", "only-the-game"), lambda seed: bots.create_bot("greedy", seed=seed))
    out = io.StringIO()
    assert main(["play", "--url", url, "--game", game_id, "--join", "Robo", "--bot", "only-the-game"], out) == 2
    assert "unknown bot 'only-the-game' for ninja" in capsys.readouterr().err
    assert ("seat 0 taken" in out.getvalue()) is not spectators  # with spectators, no seat was ever taken
    seats = call(url, "GET", f"/games/{game_id}", token=host)["seats"]
    assert [entry["name"] for entry in seats] == [None, None]


def test_with_no_server_it_says_so_at_once_then_counts_its_retries() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = client(f"http://127.0.0.1:{port}", "some-game", token="some-token")
    try:
        assert process.stderr is not None
        first, second = process.stderr.readline(), process.stderr.readline()
    finally:
        process.kill()
        process.communicate()
    assert "the server does not answer" in first and "retry 1 of 10 in 0.5 s" in first, first
    assert "retry 2 of 10 in 1 s" in second, second


@pytest.mark.parametrize(
    ("outcome", "place", "text"),
    [
        (
            {"status": "finished", "reason": "out_of_cards", "winner": 1, "ranking": [1, 0, 2]},
            2,
            "finished (out_of_cards); seat 1 (Bob) won; seat 0 (Robo, this client) came 2nd of 3 and made 9 moves",
        ),
        (
            {"status": "lost", "reason": "minimum_unreachable", "winner": None, "ranking": []},
            None,
            "lost (minimum_unreachable); seat 0 (Robo, this client) made 9 moves (20 actions)",
        ),
    ],
)
def test_the_summary_says_who_won_and_the_seat_s_place(outcome: dict[str, Any], place: int | None, text: str) -> None:
    out = io.StringIO()
    summary = Summary("g1", 0, outcome["status"], 80, outcome, 9, 20, outcome["winner"], place, ["Robo", "Bob", "Cy"])
    Output(json=False, quiet=True, out=out).end(summary)
    assert out.getvalue() == f"game g1 over at version 80: {text}" + (" (20 actions)\n" if place else "\n")


def test_a_seat_waiting_in_the_lobby_says_so(url: str) -> None:
    game_id, _ = lobby(url, "the-game", 2, seed=1)
    process = client(url, game_id, "--join", "Robo")
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
    finally:
        process.kill()
        process.communicate()
    assert line == "waiting for the host to start the game: 1 of 2 seats taken\n"

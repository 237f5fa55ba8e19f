"""The command line: bad arguments and refusals that waiting cannot cure end at once with one line and status 2."""

from __future__ import annotations

import pytest

from tests.client.live import call, client, lobby
from thegame_core.client.__main__ import main


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

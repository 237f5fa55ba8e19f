"""docs/your-bot.md runs as written: the bot it shows is examples/hoarder.py, its Python sessions print what they
show, its simulation runs, and its live seat plays a game of a real server to the end."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.service.servers import ROOT
from thegame_core.bots import _ADDED

DOCUMENT = ROOT / "docs" / "your-bot.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(language: str) -> list[str]:
    return [code for kind, code in FENCE.findall(DOCUMENT.read_text()) if kind == language]


def run_shell(script: str) -> subprocess.CompletedProcess[str]:
    """``script`` in bash from the repository's root, ``python`` being the tests' own."""
    path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=ROOT,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_bot_shown_is_the_example_file() -> None:
    assert blocks("python") == [(ROOT / "examples" / "hoarder.py").read_text()]


def test_the_python_sessions_print_what_they_show() -> None:
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner()
    namespace: dict[str, object] = {"__name__": "your_bot"}
    try:
        for code in blocks("pycon"):
            test = parser.get_doctest(code, namespace, DOCUMENT.name, str(DOCUMENT), 0)
            runner.run(test, clear_globs=False)
            namespace = test.globs
    finally:
        _ADDED.pop(("ninja", "hoarder"), None)  # the session registers it: other tests must not see it
    failed, tried = runner.summarize(verbose=False)
    assert tried >= 8 and failed == 0


def test_the_simulation_pools_the_bots_wins() -> None:
    simulation = blocks("sh")[0]
    done = run_shell(simulation)
    assert done.returncode == 0, done.stderr
    assert "games: 100 (50 deals x 2 seat rotations)" in done.stdout
    assert re.search(r"^  examples\.hoarder:Hoarder  1 seat +\d+ ", done.stdout, re.MULTILINE), done.stdout


def test_an_unknown_bot_names_only_the_games_own_bots() -> None:
    done = run_shell("python -m thegame_core simulate --game ninja --bot hoarder --games 1")
    assert done.returncode == 2
    assert "unknown bot 'hoarder' for ninja; bots: best, greedy, random (or your own" in done.stderr
    done = run_shell("python -m thegame_core simulate --game ninja --bot examples.hoarder:Nobody --games 1")
    assert done.returncode == 2 and "examples.hoarder has no class or function 'Nobody'" in done.stderr


def test_the_live_seat_plays_to_the_end(url: str) -> None:
    live = blocks("sh")[1].replace("http://127.0.0.1:8000", url)
    done = run_shell(live)
    assert done.returncode == 0, done.stderr
    assert re.search(r"over at version \d+: finished \(out_of_cards\)", done.stdout), done.stdout
    assert "seat 0 (Me, this client)" in done.stdout

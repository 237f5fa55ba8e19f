"""Progress of long runs: the figures, in place on a terminal, throttled lines elsewhere, and the simulator's
command line showing it only where it should. A fake clock stands in for time."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys

import pytest

from examples import snap_game
from thegame_core.progress import Progress, duration, wanted
from thegame_core.registry import register, unregister
from thegame_core.simulate import Setup, simulate


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0.2, "<1 s"), (1.4, "1 s"), (59.4, "59 s"), (60, "1 min 0 s"), (185, "3 min 5 s"), (7800, "2 h 10 min")],
)
def test_durations_read_as_people_say_them(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_a_log_gets_a_line_at_the_start_then_at_most_one_per_period_and_the_last() -> None:
    clock, log = Clock(), io.StringIO()
    progress = Progress("games", stream=log, clock=clock, every=10)
    progress(0, 400)
    for done, at in [(100, 5), (200, 10), (300, 15), (400, 16)]:
        clock.now = 100 + at
        progress(done, 400)
    assert log.getvalue().splitlines() == [
        "0/400 games (0%)",
        "200/400 games (50%)  20 games/s  about 10 s left",  # 100 at 5 s was too soon after the start
        "400/400 games (100%)  25 games/s  16 s in all",  # the last one always shows
    ]


def test_a_terminal_gets_one_line_redrawn_in_place_and_ended_once() -> None:
    clock, screen = Clock(), Terminal()
    progress = Progress("deals", stream=screen, clock=clock)
    progress(0, 3000)
    clock.now += 400
    progress(1000, 3000)
    clock.now += 400
    progress(3000, 3000)
    frames = screen.getvalue().split("\r")[1:]
    assert frames[1] == "1,000/3,000 deals (33%)  2.5 deals/s  about 13 min 20 s left"
    assert frames[2].rstrip() == "3,000/3,000 deals (100%)  3.8 deals/s  13 min 20 s in all"
    assert len(frames[2]) == len(frames[1]) + 1  # padded over the longer line before it, then a newline
    assert screen.getvalue().count("\n") == 1 and screen.getvalue().endswith("\n")


def test_shown_on_a_terminal_or_when_asked_never_when_quiet() -> None:
    assert wanted(quiet=False, forced=False, stream=Terminal())
    assert not wanted(quiet=False, forced=False, stream=io.StringIO())
    assert wanted(quiet=False, forced=True, stream=io.StringIO())
    assert not wanted(quiet=True, forced=False, stream=Terminal())


def test_the_simulator_reports_from_zero_to_every_game() -> None:
    calls: list[tuple[int, int]] = []
    register(snap_game.GAME)
    try:
        setup = Setup(game=snap_game.NAME, players=2, bots=("greedy", "random"), duplicate=True)
        simulate(setup, 30, workers=2, progress=lambda done, total: calls.append((done, total)))
    finally:
        unregister(snap_game.NAME)
    assert calls[0] == (0, 60) and calls[-1] == (60, 60)
    assert len(calls) > 2 and all(earlier[0] < later[0] for earlier, later in itertools.pairwise(calls))


def simulate_command(*flags: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "thegame_core", "simulate", "--games", "20", *flags]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_the_command_shows_progress_on_standard_error_only_when_asked_off_a_terminal() -> None:
    plain, asked = simulate_command(), simulate_command("--progress", "--json")
    assert plain.returncode == asked.returncode == 0
    assert plain.stderr == ""  # a pipe is not a terminal
    assert asked.stderr.splitlines()[0] == "0/20 games (0%)"
    assert asked.stderr.splitlines()[-1].startswith("20/20 games (100%)")
    assert asked.stdout.startswith("{")  # the report itself stays clean on standard output
    both = simulate_command("--progress", "--quiet")
    assert both.returncode == 2 and "not allowed with argument" in both.stderr

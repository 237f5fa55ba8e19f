"""The simulator: deterministic whatever the workers, duplicate seating, The Game's figures counted by hand,
and the command line's errors, exit codes and JSON output. Competitive games are checked on the toy game."""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

import thegame_core as tg
from examples import snap_game
from thegame_core import bots as bots_module
from thegame_core import simulate as sim
from thegame_core.__main__ import main
from thegame_core.bots import create_bot
from thegame_core.registry import register, unregister
from thegame_core.simulate import GameRecord, Setup, derive_seed, play_game, play_records, simulate, summarize

TOY = snap_game.NAME


@pytest.fixture(autouse=True, scope="module")
def toy() -> Iterator[None]:
    register(snap_game.GAME)
    yield
    unregister(TOY)


def records(setup: Setup, deals: int, workers: int) -> list[GameRecord]:
    return [record for chunk in play_records(setup, deals, workers) for record in chunk]


def figures(setup: Setup, games: int, workers: int) -> dict[str, Any]:
    data = simulate(setup, games, workers).to_dict()
    return {key: value for key, value in data.items() if key not in ("seconds", "games_per_second")}


@pytest.mark.parametrize(
    "setup",
    [
        Setup(game="the-game", players=3, bots=("greedy", "random", "greedy"), seed=4),
        Setup(game=TOY, players=3, bots=("greedy", "random", "random"), seed=9, duplicate=True),
    ],
    ids=["the-game", "toy-duplicate"],
)
def test_results_depend_on_the_seed_not_on_the_workers(setup: Setup) -> None:
    one = records(setup, 24, workers=1)
    assert one == records(setup, 24, workers=2)
    assert figures(setup, 24, workers=1) == figures(setup, 24, workers=2)
    assert records(replace(setup, seed=setup.seed + 1), 24, workers=1) != one


def test_duplicate_rotates_the_bots_round_the_table() -> None:
    setup = Setup(game=TOY, players=3, bots=("greedy", "random", "random"), seed=3, duplicate=True)
    assert setup.seat_bots(0) == ("greedy", "random", "random")
    assert setup.seat_bots(1) == ("random", "random", "greedy")  # seat s gets bots[(s + 1) % 3]
    assert setup.seat_bots(2) == ("random", "greedy", "random")
    deals = 40
    played = records(setup, deals, workers=1)
    assert len(played) == deals * 3
    assert Counter(record.deal for record in played) == dict.fromkeys(range(deals), 3)
    assert [(record.deal, record.rotation) for record in played] == [(d, r) for d in range(deals) for r in range(3)]
    for record in played:
        assert record.winner is not None
        assert record.winner_bot == setup.seat_bots(record.rotation)[record.winner]
        assert record.ranking[0] == record.winner and sorted(record.ranking) == [0, 1, 2]  # what ratings rate
    summary = summarize(setup, played, 1.0)
    assert (summary.games, summary.deals) == (deals * 3, deals)
    assert summary.bot_wins is not None and summary.seat_wins is not None
    by_bot = {entry.bot: entry for entry in summary.bot_wins}
    assert sum(entry.wins for entry in summary.bot_wins) == summary.games
    assert sum(entry.wins for entry in summary.seat_wins) == summary.games
    assert (by_bot["greedy"].seats, by_bot["random"].seats) == (1, 2)
    assert by_bot["random"].fair_share == pytest.approx(2 / 3)
    assert by_bot["greedy"].wins == sum(record.winner_bot == "greedy" for record in played)
    assert by_bot["greedy"].rate > by_bot["greedy"].fair_share  # snapping every time beats snapping half the time
    low, high = by_bot["greedy"].interval
    assert low <= by_bot["greedy"].rate <= high


def test_every_rotation_of_a_deal_is_the_same_deal_and_rotation_0_is_the_plain_game() -> None:
    plain = Setup(game=TOY, players=2, bots=("greedy", "random"), seed=5)
    duplicate = Setup(game=TOY, players=2, bots=("greedy", "random"), seed=5, duplicate=True)
    for deal in range(5):
        assert play_game(duplicate, deal, 0) == play_game(plain, deal)
    # rotation 1: seat 0 gets bots[1], seat 1 gets bots[0]; each bot keeps its seed, the deal is the same
    seated = [
        create_bot("random", game=TOY, seed=derive_seed(5, 2, 1)),
        create_bot("greedy", game=TOY, seed=derive_seed(5, 2, 0)),
    ]
    swapped = by_hand(tg.new_game(TOY, 2, seed=derive_seed(5, 2)), seated)
    record = play_game(duplicate, 2, 1)
    assert (record.winner, record.turns, record.actions) == (swapped.outcome.winner, swapped.turns, swapped.version)
    assert record.winner is not None and record.winner_bot == ("random", "greedy")[record.winner]


def by_hand(state: Any, seated: list[Any]) -> Any:
    """Play to the end, asking seats in the game's order; the first that acts moves the game on."""
    while state.outcome is None:
        for seat in state.asking_order():
            actions = seated[seat].act(state.observe(seat))
            if actions:
                state = state.apply_all(actions)
                break
    return state


def test_the_games_figures_match_a_count_by_hand() -> None:
    setup = Setup(game="the-game", players=2, bots=("greedy",), seed=11)
    games = 40
    ends = [
        by_hand(
            tg.new_game("the-game", 2, seed=derive_seed(11, index)),
            [create_bot("greedy", seed=derive_seed(11, index, seat)) for seat in range(2)],
        )
        for index in range(games)
    ]
    scores = [end.score for end in ends]
    summary = simulate(setup, games)
    assert summary.cooperative and summary.games == games
    assert summary.wins == sum(end.status == "won" for end in ends) == scores.count(0)
    assert summary.win_rate == summary.wins / games
    assert summary.win_interval == sim.wilson_interval(summary.wins, games)
    assert summary.mean_score == statistics.fmean(scores)
    assert summary.median_score == statistics.median(scores)
    assert summary.histogram == Counter(scores)
    assert summary.outcomes == Counter(end.outcome.reason for end in ends)
    assert summary.mean_turns == statistics.fmean(end.turns for end in ends)
    assert summary.median_turns == statistics.median(end.turns for end in ends)
    assert summary.seat_wins is None and summary.bot_wins is None
    assert "win rate:" in sim.format_summary(summary) and "score histogram" in sim.format_summary(summary)


def test_a_bot_that_declines_when_waited_for_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    class Sulky:
        def __init__(self, seed: int) -> None:
            pass

        def act(self, observation: Any) -> list[Any]:
            return []

    monkeypatch.setitem(bots_module._ADDED, (TOY, "sulky"), Sulky)
    with pytest.raises(RuntimeError, match=r"bot 'sulky' at seat 1 declined"):
        play_game(Setup(game=TOY, players=2, bots=("greedy", "sulky")), 0)
    assert main(["simulate", "--game", TOY, "--bots", "sulky", "--games", "2"]) == 1


def test_a_game_that_does_not_end_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "MAX_ACTIONS", 3)
    with pytest.raises(RuntimeError, match="no end within 3 actions"):
        play_game(Setup(game=TOY, players=2), 0)


@pytest.mark.parametrize("game", ["the-game", "bataille-corse"])
def test_a_game_played_until_a_version_is_the_start_of_the_whole_game(game: str) -> None:
    """``play_out(until=...)`` (an analysis's horizon) stops at that version, a turn's actions applied whole, on the
    same course as the game played to its end."""
    start = tg.new_game(game, 2, seed=4)

    def out(until: int | None) -> Any:
        bots = [create_bot("greedy", game=game, seed=seat) for seat in range(2)]
        race = random.Random(1) if tg.get_game(game).realtime else None
        return sim.play_out(start, bots, ["greedy"] * 2, "test", race, until=until)

    whole, cut = out(None), out(30)
    assert whole.outcome is not None and cut.outcome is None
    assert 30 <= cut.version < 40 and cut.version == len(cut.history)
    assert cut.public_log() == whole.public_log()[: cut.version]


def test_setup_takes_one_name_for_every_seat() -> None:
    setup = Setup(game=TOY, players=3, bots="greedy")  # type: ignore[arg-type]
    assert setup.bots == ("greedy",) and setup.lineup == ("greedy",) * 3 and setup.rotations == 1


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--games", "-3"], "--games must be at least 1"),
        (["--workers", "-1"], "--workers must be 0"),
        (["--game", "chess"], "invalid choice: 'chess'"),
        (["--bot", "genius"], "unknown bot 'genius'"),
        (["--bots", "greedy,genius"], "unknown bot 'genius'"),
        (["--preset", "hardest"], "unknown preset 'hardest'"),
        (["--game", TOY, "--preset", "expert"], "unknown preset 'expert' for toy-snap"),
        (["--option", "colour=3"], "unknown option(s) for the-game: colour"),
        (["--option", "hand_size=99"], "hand_size"),
        (["--option", "hand_size"], "--option takes KEY=VALUE"),
        (["--preset", "expert", "--option", "preset=standard"], "'preset' is given twice"),
        (["--players", "2", "--bots", "greedy,greedy,greedy"], "one per seat (2), not 3"),
        (["--players", "0"], "played by 1 to 5 players, not 0"),
        (["--players", "6"], "played by 1 to 5 players, not 6"),
        (["--game", TOY, "--players", "1"], "played by 2 to 4 players"),
        (["--players", "two"], "invalid int value: 'two'"),
        (["--bots", "greedy,,best"], "--bots takes names separated by commas"),
        (["--bot", "greedy", "--bots", "best"], "not allowed with argument"),
        (["--stuck-policy", "maybe"], "invalid choice: 'maybe'"),
    ],
)
def test_bad_arguments_are_one_error_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err


def test_json_output_parses(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--players", "2", "--games", "6", "--bot", "greedy", "--stuck-policy", "try", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["options"] == {"stuck_policy": "try"}
    assert data["games"] == 6 and data["bots"] == ["greedy", "greedy"] and data["cooperative"] is True
    assert 0 <= data["win_rate"] <= 1 and sum(data["histogram"].values()) == 6 and "seat_wins" not in data
    code, out, _ = run(capsys, "--game", TOY, "--bots", "greedy,random,random", "--games", "5", "--duplicate", "--json")
    data = json.loads(out)
    assert code == 0 and data["players"] == 3 and (data["games"], data["deals"]) == (15, 5)
    assert sum(entry["wins"] for entry in data["bot_wins"]) + data["no_winner"] == 15
    assert "win_rate" not in data


def test_options_are_json_when_they_parse(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--game", TOY, "--option", "cards=6", "--preset", "standard", "--games", "3", "--json")
    assert code == 0 and json.loads(out)["options"] == {"preset": "standard", "cards": 6}
    assert json.loads(out)["mean_turns"] == 6


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--game", TOY, "--bots", "greedy,random", "--games", "4", "--duplicate")
    assert code == 0
    assert "games: 8 (4 deals x 2 seat rotations)" in out
    assert "outcomes: deck_exhausted 8 (100.0%)" in out
    assert "wins by bot" in out and "fair share 50.0%" in out and out.rstrip().splitlines()[-1].startswith("games/s")


def test_the_module_reports_errors_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "thegame_core", "simulate", "--games", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error:") and "Traceback" not in done.stderr
    assert done.stdout == ""

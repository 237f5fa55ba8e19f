"""A library against its mutable floor, timed in pairs: what ``bench/core.py`` and ``bench/ninja.py`` share.

Both sides play the same deals and must reach the same results (the same policy under the same rules).
Rates are games per second of this process's CPU time; each round times both sides back to back,
alternating which goes first, and the ratio is the median of the rounds' ratios, so drift in the
machine's load hits both sides of a ratio alike. The last line printed is ``ratio: <ours/floor>``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

Play = Callable[[Sequence[int], int], Any]


def arguments(
    doc: str | None, games: tuple[int, int], rounds: tuple[int, int], only: Sequence[str]
) -> argparse.Namespace:
    """The common options; ``games`` and ``rounds`` are (quick, full) defaults."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small run, well under 30 s")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--games", type=int, default=None, help=f"games per round (default {games[1]}, quick {games[0]})"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help=f"rounds, each timing both sides (default {rounds[1]}, quick {rounds[0]})",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only", choices=list(only), help="play one side untimed (for a profiler or an instruction count)"
    )
    args = parser.parse_args()
    args.games = args.games or games[0 if args.quick else 1]
    args.rounds = args.rounds or rounds[0 if args.quick else 1]
    return args


def time_games(play: Play, decks: Sequence[Sequence[int]], players: int) -> tuple[float, list[Any]]:
    started = time.process_time()  # CPU time of this process: steadier than wall time on a shared machine
    results = [play(deck, players) for deck in decks]
    return len(decks) / (time.process_time() - started), results


def compare(
    ours: Play,
    floor: Play,
    decks: Sequence[Sequence[int]],
    args: argparse.Namespace,
    describe: Callable[[list[Any]], str],
    names: tuple[str, str] = ("ours (public API, immutable)", "floor (mutable, one function)"),
) -> int:
    """Time both sides for ``args.rounds`` rounds and print the figures (``describe`` says what the games were
    like; ``names`` what each side is, its first word naming it in each round), the ratio last; the exit status:
    1 (after an error on stderr) when the sides disagree."""
    ours_name, floor_name = (name.split()[0] for name in names)
    ours_rates, floor_rates, ratios = [], [], []
    ours_results: list[Any] = []
    for round_number in range(1, args.rounds + 1):  # each round pairs both sides, so drift in load hits both alike
        sides = (ours, floor) if round_number % 2 else (floor, ours)  # and neither always goes first
        timed = {play: time_games(play, decks, args.players) for play in sides}
        (ours_rate, ours_results), (floor_rate, floor_results) = timed[ours], timed[floor]
        if ours_results != floor_results:
            pairs = enumerate(zip(ours_results, floor_results, strict=True))
            wrong = next(index for index, (mine, theirs) in pairs if mine != theirs)
            mine, theirs = ours_results[wrong], floor_results[wrong]
            print(f"error: deal {wrong}: {ours_name} {mine}, {floor_name} {theirs}", file=sys.stderr)
            return 1
        ours_rates.append(ours_rate)
        floor_rates.append(floor_rate)
        ratios.append(ours_rate / floor_rate)
        rates = f"{ours_name} {ours_rate:7.0f} games/s   {floor_name} {floor_rate:7.0f} games/s"
        print(f"round {round_number}: {rates}   {ratios[-1]:.2f}")
    python = sys.version.split()[0]
    print(f"players: {args.players}  games per round: {args.games}  rounds: {args.rounds}  python: {python}")
    print(describe(ours_results))
    print(f"{names[0]}: {statistics.median(ours_rates):.0f} games/s (median of rounds)")
    print(f"{names[1]}: {statistics.median(floor_rates):.0f} games/s (median of rounds)")
    print(f"ratio = median of the rounds' ratios (lowest {min(ratios):.2f}, highest {max(ratios):.2f})")
    print(f"ratio: {statistics.median(ratios):.2f}")
    return 0

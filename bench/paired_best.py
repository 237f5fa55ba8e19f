"""Compare two settings of ``best`` on the same deals (a paired ablation).

    .venv/bin/python bench/paired_best.py --players 1 --games 1000 --seed 1000 --b samples=0
    .venv/bin/python bench/paired_best.py --players 2 3 --a hold=3 --b hold=0

``--a`` and ``--b`` take ``name=value`` overrides of ``best.Params`` (none: the defaults). Both
play game ``i`` of the run on the same deck, so only the deals one wins and the other loses tell
them apart: the report gives those counts and the mean difference in cards left with its 95%
interval. Tune on seeds 1000+ and report on others.
"""

from __future__ import annotations

import argparse
import math
import statistics

from tune_best import parse_params

from thegame_core.bots import register_bot
from thegame_core.games.the_game.bots.best import BestBot, Params
from thegame_core.progress import on_terminal
from thegame_core.simulate import GameRecord, Setup, play_records


def scores(name: str, params: Params, players: int, args: argparse.Namespace) -> list[int]:
    register_bot("the-game", name, lambda seed: BestBot(seed, params))
    setup = Setup(players=players, bots=(name,), seed=args.seed, options={"preset": args.preset})
    records: list[GameRecord] = []
    progress = on_terminal()
    for chunk in play_records(setup, args.games, args.workers):
        records.extend(chunk)
        progress(len(records), args.games)
    return [record.score for record in records if record.score is not None]  # The Game always has one


def report(players: int, first: list[int], second: list[int]) -> str:
    games = len(first)
    only_a = sum(a == 0 < b for a, b in zip(first, second, strict=True))
    only_b = sum(b == 0 < a for a, b in zip(first, second, strict=True))
    differences = [b - a for a, b in zip(first, second, strict=True)]
    margin = 1.96 * statistics.stdev(differences) / math.sqrt(games) if games > 1 else 0.0
    return (
        f"  {players}p  A wins {first.count(0) / games:6.2%}  B wins {second.count(0) / games:6.2%}"
        f"  (only A {only_a}, only B {only_b})  cards left B - A {statistics.fmean(differences):+.2f}"
        f" +- {margin:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[1])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--a", nargs="*", default=[], help="name=value overrides for A")
    parser.add_argument("--b", nargs="*", default=[], help="name=value overrides for B")
    args = parser.parse_args()
    print(f"A: {' '.join(args.a) or 'defaults'}  B: {' '.join(args.b) or 'defaults'}", end="  ")
    print(f"preset={args.preset} games={args.games} seed={args.seed}")
    for players in args.players:
        first = scores("best-a", parse_params(args.a), players, args)
        second = scores("best-b", parse_params(args.b), players, args)
        print(report(players, first, second), flush=True)


if __name__ == "__main__":
    main()

"""Measure ``best`` with some weights changed, to tune it or to price one idea (an ablation).

    .venv/bin/python bench/tune_best.py --players 1 2 3 --games 2000 --seed 1000 reach=1 hold=0

Each ``name=value`` overrides a field of ``best.Params``; tune on seeds 1000+ and report on others.
Workers are forked, so the variant registered here is known to them.
"""

from __future__ import annotations

import argparse
import dataclasses

from thegame_core.bots import register_bot
from thegame_core.games.the_game.bots.best import BestBot, Params
from thegame_core.progress import on_terminal
from thegame_core.simulate import Setup, simulate


def parse_params(pairs: list[str]) -> Params:
    """``["reach=1", "signals=false", "losses=5,2,1,1"]`` as ``Params``; values take the default's type."""
    defaults = Params()
    changes: dict[str, object] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        default = getattr(defaults, name)
        if isinstance(default, bool):
            changes[name] = text.lower() in ("1", "true", "yes")
        elif isinstance(default, tuple):
            changes[name] = tuple(float(value) for value in text.split(","))
        else:
            changes[name] = type(default)(text)
    return dataclasses.replace(defaults, **changes)  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("params", nargs="*", help="name=value overrides of best.Params")
    args = parser.parse_args()
    params = parse_params(args.params)
    register_bot("the-game", "best-tuned", lambda seed: BestBot(seed, params))
    print(" ".join(args.params) or "defaults", f"preset={args.preset} games={args.games} seed={args.seed}")
    for players in args.players:
        setup = Setup(players=players, bots=("best-tuned",), seed=args.seed, options={"preset": args.preset})
        summary = simulate(setup, args.games, args.workers, on_terminal())
        low, high = summary.win_interval
        print(
            f"  {players}p win {summary.win_rate:6.2%} [{low:6.2%}, {high:6.2%}]"
            f"  mean left {summary.mean_score:5.2f}  {summary.seconds:5.1f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()

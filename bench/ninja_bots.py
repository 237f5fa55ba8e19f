"""Measure Ninja's bots: the simulator with them registered, and decision times of one bot.

    python bench/ninja_bots.py simulate --game ninja --players 2 --bots best,greedy --duplicate --games 1000 --seed 1
    python bench/ninja_bots.py times [--bot best] [--players 2] [--games 40] [--seed 7] [--opponent greedy]

``simulate`` takes exactly the arguments of ``python -m thegame_core simulate`` (it is that command,
with Ninja's bots registered first, so it also works before they are wired into the game); a bot
named ``best@field=value@...`` is ``best`` with those ``Params`` (``best@rollouts=200@swap=0``).
``times`` plays games with the bot at seat 0 and ``--opponent`` elsewhere, timing each of the bot's
decisions (CPU time of this process) where it had a choice to make, and prints the median, p95 and
max in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial

from bot_variants import variants

import thegame_core as tg
from thegame_core.__main__ import main as cli_main
from thegame_core.bots import create_bot, register_bot
from thegame_core.games.ninja.bots import BOTS
from thegame_core.games.ninja.bots.best import BestBot, Params
from thegame_core.progress import on_terminal


def variant(seed: int, params: Params) -> BestBot:
    return BestBot(seed, params)


def register(argv: list[str]) -> None:
    """Ninja's bots, and every variant of ``best`` named in ``argv`` as ``best@field=value@...``
    (fields of ``best.Params``, e.g. ``best@rollouts=200@swap=0``)."""
    for name, factory in BOTS.items():
        register_bot("ninja", name, factory)
    for name, fields in variants(argv, "best"):
        params = Params(**{key: type(getattr(Params(), key))(int(value)) for key, value in fields.items()})
        register_bot("ninja", name, partial(variant, params=params))


def times(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="ninja_bots.py times")
    parser.add_argument("--bot", default="best")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    samples: list[float] = []
    progress = on_terminal()
    for game in range(args.games):
        progress(game, args.games)
        state = tg.new_game("ninja", args.players, seed=args.seed * 100_000 + game)
        names = [args.bot] + [args.opponent] * (args.players - 1)
        bots = [create_bot(name, game="ninja", seed=game * 10 + seat) for seat, name in enumerate(names)]
        while state.status == "playing":
            for seat in state.asking_order():
                observation = state.observe(seat)
                started = time.process_time()
                actions = bots[seat].act(observation)
                if seat == 0 and len(observation.legal) > 1:
                    samples.append(time.process_time() - started)
                if actions:
                    state = state.apply_all(actions)
                    break
    progress(args.games, args.games)
    samples.sort()
    ms = [sample * 1000 for sample in samples]
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(
        f"{args.bot} at {args.players} players against {args.opponent}, {args.games} games, "
        f"{len(ms)} decisions with a choice: median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, "
        f"max {ms[-1]:.2f} ms"
    )
    return 0


def main() -> int:
    register(sys.argv[1:])
    if len(sys.argv) > 1 and sys.argv[1] == "times":
        return times(sys.argv[2:])
    return cli_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())

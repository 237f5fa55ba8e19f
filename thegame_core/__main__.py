"""Command line: ``python -m thegame_core simulate --players 2 --games 10000 --bot greedy``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .bots import bot_names
from .errors import GameError
from .registry import game_names
from .simulate import Setup, format_summary, progress_bar, simulate


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m thegame_core", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play many games with a bot and print statistics")
    sim.add_argument("--game", default="the-game", choices=game_names())
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--bot", default="greedy", help=f"one of: {', '.join(bot_names())}")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--preset", default=None, help="standard, expert or expert_small_hand")
    sim.add_argument("--stuck-policy", default=None, choices=["strict", "try"])
    sim.add_argument("--workers", type=int, default=1, help="processes (0: one per core)")
    sim.add_argument("--json", action="store_true", help="print one JSON object instead of the report")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    options = {key: value for key, value in (("preset", args.preset), ("stuck_policy", args.stuck_policy)) if value}
    setup = Setup(game=args.game, players=args.players, bot=args.bot, seed=args.seed, options=options)
    workers = args.workers or os.cpu_count() or 1
    try:
        summary = simulate(setup, args.games, workers, progress_bar if sys.stderr.isatty() else None)
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        print(json.dumps(summary.to_dict()) if args.json else format_summary(setup, summary))
    except BrokenPipeError:  # piped into `head`: the reader has all it wanted
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

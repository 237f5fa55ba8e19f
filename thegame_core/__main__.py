"""Command line: play many games with bots and print statistics, or analyse a game move by move.

    python -m thegame_core simulate --players 2 --games 10000 --bot greedy
    python -m thegame_core simulate --game ninja --players 3 --bots best,greedy,greedy --games 2000 --duplicate
    python -m thegame_core simulate --game bataille-corse --bots best,random --reactions fast,normal --games 2000
    python -m thegame_core analyse game.json --rollouts 8 --seed 1

``analyse`` reads a replay record (``state.replay_record()``, or the service's log with its ``replay``; ``-``: standard
input) and prints ``thegame_core.analysis.format_table`` (``--json``: the analysis's JSON).

Progress (games or decisions done, rate, time left) goes to standard error when it is a terminal (``--progress``:
always, ``--quiet``: never). Bad arguments print one ``error: ...`` line on stderr and exit with 2; a bot that breaks
the rules during the run exits with 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .analysis import DEFAULT_PLAYOUT, DEFAULT_ROLLOUTS, analyse, format_table
from .bots import bot_names
from .errors import GameError
from .progress import Progress, wanted
from .registry import game_names
from .simulate import Setup, check_setup, format_summary, simulate


class _Parser(argparse.ArgumentParser):
    """Reports a bad argument as one line, ``error: ...``, and exits with 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {message} (see --help)\n")


def _option_value(text: str) -> Any:
    """JSON when it parses (``3``, ``true``, ``"x"``), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _bots_help() -> str:
    names = "; ".join(f"{game}: {', '.join(bot_names(game)) or 'none yet'}" for game in game_names())
    return f"bots by game: {names}"


def build_parser() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The command line's parser and its ``simulate`` subparser."""
    parser = _Parser(prog="python -m thegame_core", description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = commands.add_parser(
        "simulate",
        help="play many games with bots and print statistics",
        description="Play many games with bots and print statistics. Results depend on --seed only, "
        "never on --workers. " + _bots_help(),
    )
    sim.add_argument("--game", default="the-game", choices=game_names(), help="the game to play (default: the-game)")
    sim.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats at the table (default: the number of --bots when several are named, else 2)",
    )
    seats = sim.add_mutually_exclusive_group()
    seats.add_argument(
        "--bots",
        default=None,
        metavar="NAME[,NAME...]",
        help="one bot per seat, comma-separated, seat 0 first; or one name for every seat (default: greedy); a bot "
        "is one of the game's, or your own as package.module:Name",
    )
    seats.add_argument("--bot", default=None, metavar="NAME", help="the bot at every seat (same as --bots NAME)")
    sim.add_argument(
        "--games",
        type=int,
        default=1000,
        help="games to play (default: 1000); with --duplicate, deals, each played once per seat rotation",
    )
    sim.add_argument("--seed", type=int, default=1, help="seed of the run: deals and bot seeds derive from it")
    sim.add_argument(
        "--duplicate",
        action="store_true",
        help="play each deal once per rotation of the bots round the table, to compare bots fairly",
    )
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help='a game option; VALUE is read as JSON when it parses (3, true, "x"), else as text; repeatable',
    )
    sim.add_argument(
        "--preset", default=None, metavar="NAME", help="a preset of the game (same as --option preset=NAME)"
    )
    sim.add_argument(
        "--stuck-policy",
        default=None,
        choices=["strict", "try"],
        help="The Game's stuck policy (same as --option stuck_policy=...)",
    )
    sim.add_argument(
        "--reactions",
        default=None,
        metavar="LEVEL[,LEVEL...]",
        help="real-time games: each bot's reaction level (easy, normal, fast), as --bots; default normal",
    )
    sim.add_argument(
        "--latency-ms",
        default=None,
        metavar="MS[,MS...]",
        help="real-time games: how much later each bot's actions arrive (a client further away), as --bots; default 0",
    )
    sim.add_argument("--workers", type=int, default=1, help="processes to play on (0: one per core; default: 1)")
    sim.add_argument("--json", action="store_true", help="print one JSON object instead of the report")
    _progress_flags(sim)
    _analyse_parser(commands)
    return parser, sim


def _progress_flags(command: argparse.ArgumentParser) -> None:
    shown = command.add_mutually_exclusive_group()
    shown.add_argument("--quiet", action="store_true", help="no progress line on standard error")
    shown.add_argument(
        "--progress",
        action="store_true",
        help="show progress on standard error even when it is not a terminal (default: only on a terminal)",
    )


def _analyse_parser(commands: Any) -> None:
    analysis = commands.add_parser(
        "analyse",
        help="analyse a game move by move: what a bot would have played in each seat's place, and each choice's value",
        description="Analyse every decision of a game: what the bot would have done from the seat's observation, and "
        "the value of the choice made against the bot's, by rollouts from deals of the cards the seat could not see. "
        "FILE holds a replay record (state.replay_record(), or the service's log with its replay); - reads stdin.",
    )
    analysis.add_argument("file", metavar="FILE", help="a replay record, or the service's log of a finished game")
    analysis.add_argument("--bot", default="best", help="the bot whose choices are compared (default: best)")
    analysis.add_argument(
        "--playout",
        default=DEFAULT_PLAYOUT,
        help=f"the bot that plays every seat of each playout (default: {DEFAULT_PLAYOUT})",
    )
    analysis.add_argument(
        "--rollouts", type=int, default=DEFAULT_ROLLOUTS, help=f"playouts per choice (default: {DEFAULT_ROLLOUTS})"
    )
    analysis.add_argument("--seed", type=int, default=0, help="the seed the deals and bots derive from (default: 0)")
    analysis.add_argument("--json", action="store_true", help="print the analysis as one JSON object")
    _progress_flags(analysis)


def _simulate_setup(sim: argparse.ArgumentParser, args: argparse.Namespace) -> Setup:
    """The setup ``simulate``'s parsed ``args`` describe; exits with 2 through ``sim.error`` on a malformed one."""
    if args.games < 1:
        sim.error(f"--games must be at least 1, got {args.games}")
    if args.workers < 0:
        sim.error(f"--workers must be 0 (one per core) or more, got {args.workers}")
    names = args.bots if args.bots is not None else args.bot or "greedy"
    bots = tuple(name.strip() for name in names.split(","))
    if not all(bots):
        sim.error(f"--bots takes names separated by commas, got {names!r}")
    options: dict[str, Any] = {}
    pairs = [f"preset={json.dumps(args.preset)}"] if args.preset is not None else []
    pairs += [f"stuck_policy={json.dumps(args.stuck_policy)}"] if args.stuck_policy is not None else []
    for pair in [*pairs, *args.option]:
        key, equals, text = pair.partition("=")
        key = key.strip()
        if not equals or not key:
            sim.error(f"--option takes KEY=VALUE, got {pair!r}")
        if key in options:
            sim.error(f"option {key!r} is given twice")
        options[key] = _option_value(text)
    players = args.players if args.players is not None else (len(bots) if len(bots) > 1 else 2)
    reactions = tuple(level.strip() for level in args.reactions.split(",")) if args.reactions else ()
    try:
        latency = tuple(int(ms) for ms in args.latency_ms.split(",")) if args.latency_ms else ()
    except ValueError:
        sim.error(f"--latency-ms takes whole milliseconds separated by commas, got {args.latency_ms!r}")
    return Setup(
        game=args.game,
        players=players,
        bots=bots,
        seed=args.seed,
        options=options,
        duplicate=args.duplicate,
        reactions=reactions,
        latency_ms=latency,
    )


def _record(path: str) -> Any:
    """The replay record ``path`` holds (``-``: standard input): the record itself, or a log with its ``replay``."""
    with open(0 if path == "-" else path, encoding="utf-8") as source:  # 0: standard input
        data = json.load(source)
    if isinstance(data, dict) and isinstance(data.get("replay"), dict):
        return data["replay"]
    return data


def _analyse(args: argparse.Namespace) -> int:
    try:
        record = _record(args.file)
    except (OSError, ValueError) as error:
        print(f"error: cannot read a replay record from {args.file}: {error}", file=sys.stderr)
        return 2
    if not isinstance(record, dict):
        print("error: a replay record is a JSON object", file=sys.stderr)
        return 2
    progress = Progress("decisions") if wanted(args.quiet, args.progress) else None
    return _report(
        lambda: analyse(record, args.bot, args.rollouts, args.seed, progress, args.playout), format_table, args.json
    )


def _report(work: Callable[[], Any], text: Callable[[Any], str], as_json: bool) -> int:
    """Run ``work`` and print its result (``text`` of it, or its ``to_dict()`` as JSON): 2 for a ``GameError``, 1
    when a bot breaks the rules or a game does not end (``RuntimeError``), each as one ``error: ...`` line."""
    try:
        result = work()
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except RuntimeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    try:
        print(json.dumps(result.to_dict()) if as_json else text(result))
    except BrokenPipeError:  # piped into `head`: the reader has all it wanted
        sys.stderr.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser, sim = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command == "simulate":
            setup = _simulate_setup(sim, args)
            check_setup(setup)
    except SystemExit as stop:  # argparse: --help (0) or a bad argument (2, already reported)
        return stop.code if isinstance(stop.code, int) else 2
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.command == "analyse":
        return _analyse(args)
    workers = args.workers or os.cpu_count() or 1
    progress = Progress("games") if wanted(args.quiet, args.progress) else None
    return _report(lambda: simulate(setup, args.games, workers, progress), format_summary, args.json)


if __name__ == "__main__":
    sys.exit(main())

"""``python -m thegame_core.client play --url URL --game ID --token T --bot best``: a bot plays one seat.

Exit status: 0 when the game is over; 2 for bad arguments or a refusal that waiting cannot cure (a wrong token, an
unknown game or bot, a seat already taken); 1 when the server stays unreachable or refuses the bot's own actions.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.parse
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, NoReturn, TextIO

from ..bots import create_bot
from ..errors import GameError
from .api import Api, ApiError
from .seat import Move, Refused, SeatPlayer, Summary, call
from .stream import Backoff, GaveUp

PROGRAM = "python -m thegame_core.client"


class Usage(Exception):
    """A bad argument or a refusal that retrying cannot cure: one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line instead of argparse's usage block."""
        self.exit(2, f"{PROGRAM}: error: {message}\n")


def parser() -> Parser:
    commands = Parser(prog=PROGRAM, description="Play a seat of a game of the service with a bot, live.")
    sub = commands.add_subparsers(dest="command", required=True, parser_class=Parser)
    play = sub.add_parser("play", help="follow the game's event stream and play one seat to the end of the game")
    play.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    play.add_argument("--game", required=True, help="the game id")
    play.add_argument("--token", help="the seat's token (default: the TG_TOKEN variable, kept out of `ps`)")
    play.add_argument("--join", metavar="NAME", help="take a free seat of the lobby under NAME (prints its token)")
    play.add_argument("--bot", default="best", help="a bot of the game (catalog `bots`; default: best)")
    play.add_argument("--seed", type=int, default=0, help="the bot's seed (default: 0)")
    output = play.add_mutually_exclusive_group()
    output.add_argument("--quiet", action="store_true", help="print only the summary at the end")
    output.add_argument("--json", action="store_true", help="print one JSON object a line: each move, the end")
    return commands


@dataclass(frozen=True)
class Output:
    """What the client prints: a line per move (text or JSON) unless quiet, and a summary at the end."""

    json: bool
    quiet: bool
    out: TextIO

    def _line(self, text: str, data: dict[str, Any]) -> None:
        print(json.dumps(data) if self.json else text, file=self.out, flush=True)

    def joined(self, seat: int, token: str) -> None:
        self._line(f"seat {seat} taken; its token: {token}", {"event": "joined", "seat": seat, "token": token})

    def move(self, move: Move) -> None:
        if not self.quiet:
            shown = "; ".join(" ".join(f"{v}" for v in action.values()) for action in move.actions)
            self._line(
                f"seat {move.seat} at version {move.version}: {shown} -> {move.after}",
                {"event": "move", **asdict(move)},
            )

    def end(self, summary: Summary) -> None:
        outcome = summary.outcome or {}
        text = (
            f"game {summary.game_id} over at version {summary.version}: {summary.status} ({outcome.get('reason')}); "
            f"seat {summary.seat} made {summary.moves} moves ({summary.actions} actions)"
        )
        self._line(text, {"event": "end", **asdict(summary)})


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = parser().parse_args(argv)
    output = Output(args.json, args.quiet, out)
    backoff = Backoff()
    try:
        api = seat_api(args, backoff, output)
        view = call(api, backoff, "GET")
        if "seat" not in view:
            raise Usage("this token is not a seat's token (the host's only watches)")
        bot = create_bot(args.bot, game=view["game"], seed=args.seed)
        output.end(SeatPlayer(api, bot, backoff, output.move).play())
    except (Usage, GameError) as error:
        return fail(2, str(error))
    except ApiError as error:
        return fail(1 if error.retryable else 2, str(error))
    except (Refused, GaveUp) as error:
        return fail(1, str(error))
    except KeyboardInterrupt:
        return 130
    return 0


def seat_api(args: argparse.Namespace, backoff: Backoff, output: Output) -> Api:
    """The game as the seat: its token from ``--token`` or ``TG_TOKEN``, or a new seat's with ``--join``."""
    url = urllib.parse.urlsplit(args.url)
    if url.scheme not in ("http", "https") or not url.netloc:
        raise Usage(f"--url must be the server's http:// or https:// address, got {args.url!r}")
    api = Api(args.url, args.game)
    if args.join is not None:
        body = {"name": args.join}
        taken = call(api, backoff, "POST", "/seats", body, {"Idempotency-Key": str(uuid.uuid4())})
        output.joined(taken["seat"], taken["token"])
        return api.with_token(taken["token"])
    token = args.token or os.environ.get("TG_TOKEN")
    if not token:
        raise Usage("give the seat's token with --token or the TG_TOKEN variable, or take a seat with --join NAME")
    return api.with_token(token)


def fail(status: int, message: str) -> int:
    print(f"{PROGRAM}: error: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())

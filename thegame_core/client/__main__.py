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
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, NoReturn, TextIO, TypeGuard

from ..bots import create_bot, imported_bot
from ..errors import GameError
from ..protocol import AnyBot
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
    play.add_argument(
        "--token",
        help="the seat's token, or a player key bound to a seat of the game (default: the TG_TOKEN variable, kept "
        "out of `ps`); with --join, a player key binds the seat taken to its player",
    )
    play.add_argument("--join", metavar="NAME", help="take a free seat of the lobby under NAME (prints its token)")
    play.add_argument(
        "--bot",
        default="best",
        help="a bot of the game (catalog `bots`), or your own as package.module:Name (default: best)",
    )
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

    def lobby(self, view: Mapping[str, Any]) -> None:
        """A line on standard error while the seat waits for the host to start (text output only)."""
        if not self.quiet and not self.json:
            seats = view["seats"]
            taken = sum(entry["name"] is not None for entry in seats)
            print(f"waiting for the host to start the game: {taken} of {len(seats)} seats taken", file=sys.stderr)

    def end(self, summary: Summary) -> None:
        outcome = summary.outcome or {}
        text = f"game {summary.game_id} over at version {summary.version}: {summary.status} ({outcome.get('reason')})"
        if summary.winner is not None:
            text += f"; {seat_name(summary, summary.winner)} won"
        text += f"; {seat_name(summary, summary.seat)}"
        if summary.place is not None:
            text += f" came {ordinal(summary.place)} of {len(summary.names)} and"
        text += f" made {summary.moves} moves ({summary.actions} actions)"
        self._line(text, {"event": "end", **asdict(summary)})


def seat_name(summary: Summary, seat: int) -> str:
    """``seat 1 (Bob)``; ``seat 0 (Robo, this client)`` for the client's own."""
    names = summary.names
    name = names[seat] if 0 <= seat < len(names) else None
    details = [part for part in (name, "this client" if seat == summary.seat else None) if part]
    return f"seat {seat}" + (f" ({', '.join(details)})" if details else "")


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = parser().parse_args(argv)
    output = Output(args.json, args.quiet, out)
    backoff = Backoff(report=lambda line: print(f"{PROGRAM}: {line}", file=sys.stderr, flush=True))
    try:
        if ":" in args.bot:
            imported_bot(args.bot)  # your own bot: it must import before any request
        api = seat_api(args, backoff, output)
        view = call(api, backoff, "GET")
        if "seat" not in view:
            raise Usage("this token is not a seat's token (the host's only watches)")
        bot = seat_bot(args, api, backoff, view)
        output.end(SeatPlayer(api, bot, backoff, output.move, output.lobby).play())
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
    token = args.token or os.environ.get("TG_TOKEN")
    if args.join is not None:
        game = public_game(api, backoff)
        if game is not None:
            create_bot(args.bot, game=game)  # an unknown bot fails here, before it takes a seat
        player = api.with_token(token) if is_player_key(token) else api  # a key binds the seat to its player
        body = {"name": args.join}
        taken = call(player, backoff, "POST", "/seats", body, {"Idempotency-Key": str(uuid.uuid4())})
        output.joined(taken["seat"], taken["token"])
        return player if player is not api else api.with_token(taken["token"])
    if not token:
        raise Usage("give the seat's token with --token or the TG_TOKEN variable, or take a seat with --join NAME")
    return api.with_token(token)


def is_player_key(token: str | None) -> TypeGuard[str]:
    """A player key (``p.<player>.<key id>.<secret>``) rather than a seat's token: it acts for every seat bound to
    its player, in any game."""
    return token is not None and token.startswith("p.") and token.count(".") == 3


def public_game(api: Api, backoff: Backoff) -> str | None:
    """The game's name from its public view, or ``None`` when it has no spectators (the seat's view tells)."""
    try:
        return str(call(api, backoff, "GET")["game"])
    except ApiError as error:
        if error.code == "forbidden":
            return None
        raise


def seat_bot(args: argparse.Namespace, api: Api, backoff: Backoff, view: dict[str, Any]) -> AnyBot:
    """The bot for the view's game; a seat this run took for an unknown bot (in a game without spectators, whose
    name only the seat's view tells) is left again, so no seat is held for a bot that cannot play."""
    try:
        return create_bot(args.bot, game=view["game"], seed=args.seed)
    except GameError:
        if args.join is not None:
            call(api, backoff, "DELETE", f"/seats/{view['seat']}")
        raise


def fail(status: int, message: str) -> int:
    print(f"{PROGRAM}: error: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
